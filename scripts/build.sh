#!/usr/bin/env bash
# Configures and builds perfgauge. Usage: scripts/build.sh [release|sanitize|fuzz]
#   release  -> build/           (RelWithDebInfo, the measured workloads at -O3, warnings as errors)
#   sanitize -> build-sanitize/  (ASan + UBSan, Debug)
#   fuzz     -> build-fuzz/      (clang: the varint decoders under libFuzzer + ASan + UBSan only)
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-release}"
case "$kind" in
  release)  dir=build;          flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  sanitize) dir=build-sanitize; flags=(-DCMAKE_BUILD_TYPE=Debug -DPERFGAUGE_SANITIZE=ON) ;;
  fuzz)     dir=build-fuzz;     flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPERFGAUGE_FUZZ=ON
                                       -DCMAKE_CXX_COMPILER=clang++) ;;
  *) echo "usage: scripts/build.sh [release|sanitize|fuzz]" >&2; exit 2 ;;
esac
# A compiler cache, when one is installed, makes rebuilds across checkouts cheap (it is not
# installed by install-deps: a fresh CI machine would only fill it).
if command -v ccache >/dev/null; then flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "$dir" -G Ninja -DPERFGAUGE_WERROR=ON "${flags[@]}" >/dev/null
cmake --build "$dir" --parallel "$(nproc)"
