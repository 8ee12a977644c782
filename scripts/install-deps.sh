#!/usr/bin/env bash
# Installs the Debian 12 packages perfgauge needs to build, test and run. Idempotent: when
# everything is already installed it only checks (no apt-get update, a second or so).
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libpfm4-dev libbenchmark-dev libbenchmark-tools libboost-program-options-dev
  libboost-dev
  libgtest-dev libgmock-dev libfmt-dev nlohmann-json3-dev libre2-dev
  valgrind linux-perf clang libclang-rt-14-dev clang-tidy universal-ctags
  python3 python3-matplotlib python3-scipy python3-jsonschema
  libsqlite3-dev sqlite3 libpq-dev postgresql zlib1g-dev
  slurm-wlm munge util-linux
)

missing=()
for p in "${packages[@]}"; do
  # A pattern, not `| grep -q`, whose early exit fails the pipeline under pipefail; dpkg-query
  # prints one status per installed architecture.
  if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != *"install ok installed"* ]]; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
