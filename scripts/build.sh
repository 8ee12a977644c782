#!/usr/bin/env bash
# Configures and builds perfgauge.
# Usage: scripts/build.sh [release|sanitize|fuzz] [--for-tests] [-DVAR=VALUE...]
#   release  -> build/           (RelWithDebInfo, the measured workloads at -O3, warnings as errors)
#   sanitize -> build-sanitize/  (clang: ASan + UBSan, Debug)
#   fuzz     -> build-fuzz/      (clang: the varint decoders under libFuzzer + ASan + UBSan only)
# --for-tests (scripts/test.sh) builds for the test suite, not for profiling: a unity build
# (cmake/unity_build.cmake) and line tables only instead of full debug information, which
# together took the release build from 574 s to 378 s on the 2-core CI machine
# (docs/measurements.md). -D options after it go to CMake as they are (test.sh chooses which
# test drivers each build makes that way: test/CMakeLists.txt).
# The sanitizer build uses clang (installed for the fuzz build anyway): it compiled a sanitized
# test file in 11.5-13.0 s of CPU where GCC 12 took 20.5-21.8 s (docs/measurements.md).
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-release}"
usage="usage: scripts/build.sh [release|sanitize|fuzz] [--for-tests] [-DVAR=VALUE...]"
for_tests=0
extra=()
for arg in "${@:2}"; do
  case "$arg" in
    --for-tests) for_tests=1 ;;
    -D?*=*) extra+=("$arg") ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
case "$kind" in
  release)  dir=build;          flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  sanitize) dir=build-sanitize; flags=(-DCMAKE_BUILD_TYPE=Debug -DPERFGAUGE_SANITIZE=ON
                                       -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang) ;;
  fuzz)     dir=build-fuzz;     flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPERFGAUGE_FUZZ=ON
                                       -DCMAKE_CXX_COMPILER=clang++) ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
# Every configuration states all of these, so that a directory configured by one call never
# keeps another call's choice in its CMake cache (the -D options given override them).
flags+=(-DPERFGAUGE_TEST_DRIVERS=all -DPERFGAUGE_E2E_DRIVERS_FROM=)
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
cmake -S . -B "$dir" -G Ninja -DPERFGAUGE_WERROR=ON "${flags[@]}" "${extra[@]}" >/dev/null
cmake --build "$dir" --parallel "$(nproc)"
