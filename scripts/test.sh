#!/usr/bin/env bash
# The README's second command: install dependencies, build, and run the whole test suite
# with ctest, then again under AddressSanitizer + UndefinedBehaviorSanitizer, then a short
# libFuzzer run of the varint decoders (clang, ASan + UBSan).
#   scripts/test.sh            all three
#   scripts/test.sh --fast     the release configuration only
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

# Tracepoint tests need tracefs. As root, mount it if nobody has (harmless, read-only use);
# otherwise those tests skip and say why.
if [ "$(id -u)" -eq 0 ] && ! grep -qs ' tracefs ' /proc/mounts && [ -d /sys/kernel/tracing ]; then
  mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || echo "test.sh: could not mount tracefs; tracepoint tests will skip"
fi

scripts/build.sh release
(cd build && ctest --output-on-failure --parallel 2)
if [ "${1:-}" != "--fast" ]; then
  scripts/build.sh sanitize
  (cd build-sanitize && ctest --output-on-failure --parallel 2)
  scripts/build.sh fuzz
  (cd build-fuzz && ctest --output-on-failure)
fi

# arm64 on a real kernel PMU: cross build, Debian's arm64 kernel under QEMU with an emulated
# PMU, the hardware-path tests and exact-count checks (scripts/arm64-guest.sh, docs/arm64.md).
# PERFGAUGE_SKIP_ARM64_GUEST=1 leaves it out.
if [ "${PERFGAUGE_SKIP_ARM64_GUEST:-0}" != 1 ]; then
  bash scripts/arm64-guest.sh
fi
