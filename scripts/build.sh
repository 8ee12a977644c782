#!/usr/bin/env bash
# Configures and builds perfgauge. Usage: scripts/build.sh [release|sanitize|fuzz] [--for-tests]
#   release  -> build/           (RelWithDebInfo, the measured workloads at -O3, warnings as errors)
#   sanitize -> build-sanitize/  (ASan + UBSan, Debug)
#   fuzz     -> build-fuzz/      (clang: the varint decoders under libFuzzer + ASan + UBSan only)
# --for-tests (scripts/test.sh) builds for the test suite, not for profiling: a unity build
# (cmake/unity_build.cmake) and line tables only instead of full debug information, which
# together took the release build from 574 s to 378 s on the 2-core CI machine
# (docs/measurements.md).
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-release}"
usage="usage: scripts/build.sh [release|sanitize|fuzz] [--for-tests]"
for_tests=0
case "${2:-}" in
  "") ;;
  --for-tests) for_tests=1 ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
case "$kind" in
  release)  dir=build;          flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  sanitize) dir=build-sanitize; flags=(-DCMAKE_BUILD_TYPE=Debug -DPERFGAUGE_SANITIZE=ON) ;;
  fuzz)     dir=build-fuzz;     flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPERFGAUGE_FUZZ=ON
                                       -DCMAKE_CXX_COMPILER=clang++) ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
# Every configuration states all of these, so that a directory configured by one call never
# keeps another call's choice in its CMake cache.
if [ "$for_tests" = 1 ]; then
  flags+=(-DPERFGAUGE_UNITY=ON "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"
          "-DCMAKE_CXX_FLAGS_DEBUG=-g1")
else
  flags+=(-DPERFGAUGE_UNITY=OFF "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g -DNDEBUG"
          "-DCMAKE_CXX_FLAGS_DEBUG=-g")
fi
# A compiler cache, when one is installed, makes rebuilds across checkouts cheap (it is not
# installed by install-deps: a fresh CI machine would only fill it).
if command -v ccache >/dev/null; then flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache); fi
cmake -S . -B "$dir" -G Ninja -DPERFGAUGE_WERROR=ON "${flags[@]}" >/dev/null
cmake --build "$dir" --parallel "$(nproc)"
