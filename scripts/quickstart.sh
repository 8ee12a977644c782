#!/usr/bin/env bash
# The README's first command: install dependencies, build, say what this machine can count,
# and run the main job: perfgauge run's default suite (about a minute: on the 2-core PMU-less
# development VM 66.9 s, 11.4 s of it simulating instructions and branch-misses under callgrind). Leaves the
# JSON result, the sweep drawn as a PNG and a Markdown summary side by side under results/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release
./build/harness/perfgauge doctor
mkdir -p results
name="results/perfgauge-run-$(date +%Y%m%d-%H%M%S)"
./build/harness/perfgauge run --json "$name.json"
./build/harness/perfgauge export "$name.json" --format md -o "$name.md"
./build/harness/perfgauge plot "$name.json" -o "$name.png"
echo
echo "result:   $PWD/$name.json"
echo "summary:  $PWD/$name.md"
echo "plot:     $PWD/$name.png"
