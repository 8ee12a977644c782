#!/usr/bin/env bash
# The README's second command: install dependencies, build, and run the whole test suite
# with ctest, then the unit and end-to-end suites again under AddressSanitizer +
# UndefinedBehaviorSanitizer (the long scenarios in LONG_TESTS run in the release stage only),
# then a short libFuzzer run of the varint decoders (clang, ASan + UBSan), then the
# hardware-path checks in the arm64 guest (scripts/arm64-guest.sh).
#   scripts/test.sh            all stages
#   scripts/test.sh --fast     the release configuration only (no sanitizers, fuzz, arm64)
# Each stage prints its wall time, and each suite its slowest tests, so a slow one shows up.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

# Tracepoint tests need tracefs. As root, mount it if nobody has (harmless, read-only use);
# otherwise those tests skip and say why.
if [ "$(id -u)" -eq 0 ] && ! grep -qs ' tracefs ' /proc/mounts && [ -d /sys/kernel/tracing ]; then
  mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || echo "test.sh: could not mount tracefs; tracepoint tests will skip"
fi

stage() {  # stage NAME COMMAND...: run a stage and say how long it took
  local name=$1 start=$SECONDS
  shift
  echo "test.sh: == $name"
  "$@"
  echo "test.sh: == $name took $((SECONDS - start)) s"
}

suite() {  # suite BUILD_DIR [CTEST ARGS...]: run ctest there, then list its 15 slowest tests
  local dir=$1 log
  shift
  log=$(mktemp)
  local rc=0
  (cd "$dir" && ctest --output-on-failure --parallel 2 "$@") | tee "$log" || rc=$?
  echo "test.sh: slowest tests in $dir:"
  # No `head` here: under pipefail, its early exit would kill `sort` with SIGPIPE (exit 141)
  # and end the whole script; sed reads every line and prints the first 15.
  sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec$/\2 \1/p' "$log" |
    sort -rn | sed -n '1,15s/^/  /p'
  rm -f "$log"
  return "$rc"
}

# Scenarios that spawn many measuring processes: the release stage covers their logic, and under
# the sanitizers they cost minutes each.
LONG_TESTS='^CliAgainst\.PairsAreAddedUntilTheIntervalIsNarrowEnough$'

stage "release build" scripts/build.sh release --for-tests
stage "release tests" suite build
if [ "${1:-}" != "--fast" ]; then
  stage "sanitizer build" scripts/build.sh sanitize --for-tests
  stage "sanitizer tests" suite build-sanitize --exclude-regex "$LONG_TESTS"
  stage "fuzz build" scripts/build.sh fuzz
  stage "fuzz run" bash -c 'cd build-fuzz && ctest --output-on-failure'
  # arm64 on a real kernel PMU: cross build, Debian's arm64 kernel under QEMU with an emulated
  # PMU, the hardware-path tests and exact-count checks (scripts/arm64-guest.sh,
  # docs/arm64.md). PERFGAUGE_SKIP_ARM64_GUEST=1 leaves it out.
  if [ "${PERFGAUGE_SKIP_ARM64_GUEST:-0}" != 1 ]; then
    stage "arm64 guest" bash scripts/arm64-guest.sh
  fi
fi
