#!/usr/bin/env bash
# Installs Debian's chromium, which the report tests (test/e2e/cli_history_report_test.cpp)
# open `perfgauge history report` in, headless. Idempotent like install-deps.sh: when it is
# installed it only checks (no apt-get update).
set -euo pipefail

status="$(dpkg-query -W -f='${Status}' chromium 2>/dev/null || true)"
if [[ "$status" == *"install ok installed"* ]]; then
  echo "install-test-browser: chromium present"
  exit 0
fi
as_root=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || {
    echo "install-test-browser: chromium is missing and installing it needs root or sudo" \
         "(the report tests skip without it)" >&2
    exit 1
  }
  as_root=(sudo)
fi
echo "install-test-browser: installing chromium"
install_chromium() {
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends chromium
}
# scripts/test.sh calls this right after install-deps.sh has updated the package lists: try
# them first, and update only when they do not know chromium (a third update cost seconds).
install_chromium 2>/dev/null || { "${as_root[@]}" apt-get update -qq && install_chromium; }
