#!/usr/bin/env bash
# The README's first command: install dependencies, build, and run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release
./build/harness/perfgauge doctor
./build/harness/perfgauge events
