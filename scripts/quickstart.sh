#!/usr/bin/env bash
# The README's first command: install dependencies, build only what the main job needs (the
# perfgauge binary and the workloads it links; not the test suites nor the Google Benchmark
# binaries: scripts/test.sh builds those), say what this machine can count, and run
# perfgauge run's default suite, which ends with its one-screen answer. Leaves the JSON result,
# the sweep drawn as a PNG and a Markdown summary side by side under results/.
# Its own build directory (build-quick/), so that it never reconfigures scripts/build.sh's.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh --main  # the binary's packages only; scripts/test.sh installs the rest

dir=build-quick
# A unity build (cmake/unity_build.cmake): the libraries' sources in batches, the measured
# workloads file by file as always; 194 s instead of 329 s on 2 CPUs (docs/measurements.md).
# No debug information for perfgauge's own code (PERFGAUGE_DEBUG_INFO): a sixth less compile
# time and a 7 MB binary instead of 80 MB; the measured workloads are compiled exactly as in
# scripts/build.sh release (-O2 -g -DNDEBUG -O3), since their timings are the answer. As in
# every optimised build, the reporting code (results, history, request, the command) at -O1 in
# one batch per library, and GCC's collector run less often (cmake/compile_cost.cmake,
# docs/testing.md): 17-27% less CPU than at -O2 in batches of 16 (docs/measurements.md).
flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DPERFGAUGE_BUILD_TESTS=OFF -DPERFGAUGE_WERROR=ON
       -DPERFGAUGE_UNITY=ON -DPERFGAUGE_DEBUG_INFO=OFF)
if command -v ccache >/dev/null; then
  flags+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
if [ -x "$dir/harness/perfgauge" ]; then
  echo "quickstart: updating the perfgauge binary in $dir/ (seconds when nothing changed)"
else
  # Measured from a fresh clone on the 2-core development VMs, no compiler cache
  # (docs/measurements.md): 194 s of building (6.3 min of CPU) on Zen 3, 98 s on Zen 5, with
  # debug information; without it, 253 s of CPU on a Xeon where it had taken 307 s; with the
  # reporting code at -O1, 161-171 s of CPU where the same build had taken 194-235 s. Then
  # about a minute measuring.
  echo "quickstart: building the perfgauge binary in $dir/: 2.5-4 min of CPU time, spread" \
       "over $(nproc) CPU(s) (1.5-2 min on 2 idle CPUs), then about a minute measuring"
fi
start=$(date +%s)
cmake -S . -B "$dir" -G Ninja "${flags[@]}" >/dev/null
# Only the progress line of each step on a terminal; the whole log on failure.
log="$dir/quickstart-build.log"
if ! cmake --build "$dir" --target perfgauge --parallel "$(nproc)" >"$log" 2>&1; then
  cat "$log" >&2
  echo "quickstart: build failed (log above, also in $log)" >&2
  exit 1
fi
echo "quickstart: built in $(( $(date +%s) - start )) s"

pg="./$dir/harness/perfgauge"
"$pg" doctor --brief
mkdir -p results
name="results/perfgauge-run-$(date +%Y%m%d-%H%M%S)"
"$pg" run --json "$name.json"
"$pg" export "$name.json" --format md -o "$name.md"
"$pg" plot "$name.json" -o "$name.png"
echo
echo "result:   $PWD/$name.json"
echo "summary:  $PWD/$name.md"
echo "plot:     $PWD/$name.png"
