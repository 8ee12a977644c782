#!/usr/bin/env bash
# The README's first command: install dependencies, build, say what this machine can count,
# and run the main job: perfgauge run's default suite (about 30 s with a PMU, about 4 min on a
# PMU-less VM where instructions and branch-misses are simulated under callgrind), whose JSON result
# is saved under results/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release
./build/harness/perfgauge doctor
mkdir -p results
cd results
../build/harness/perfgauge run
