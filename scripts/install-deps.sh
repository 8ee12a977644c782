#!/usr/bin/env bash
# Installs the Debian 12 packages perfgauge needs. Idempotent: when everything is already
# installed it only checks (no apt-get update, a second or so).
#   scripts/install-deps.sh [--all]  everything: build, test, fuzz, history servers, fleets
#                                    (scripts/test.sh)
#   scripts/install-deps.sh --main   only what building and running the perfgauge binary needs
#                                    (scripts/quickstart.sh): no test, fuzzing, PostgreSQL
#                                    server, Slurm or SciPy packages
set -euo pipefail

usage="usage: scripts/install-deps.sh [--main|--all]"
set_name=all
case "${1:-}" in
  ""|--all) set_name=all ;;
  --main) set_name=main ;;
  -h|--help) echo "$usage"; exit 0 ;;
  *) echo "install-deps: unknown option '$1': $usage" >&2; exit 2 ;;
esac

# One list, two sets. The main job: the compiler (g++: Ninja builds, so build-essential's make
# and dpkg-dev, and the Perl they bring, wait for the rest) and CMake's REQUIRED packages of the
# binary (pfm, benchmark for the adapter, Boost, fmt, nlohmann-json, RE2, and the history's
# SQLite, libpq and zlib, which the binary links), valgrind (the simulated backend under
# --backend auto) and matplotlib (quickstart's plot, through /usr/bin/python3). python3-munkres
# answers python3-fonttools' "python3-scipy | python3-munkres": without it apt takes SciPy and,
# through it, Pythran, the Python headers and OpenBLAS (23 packages, 35 MB to download).
main=(
  g++ cmake ninja-build pkg-config
  libpfm4-dev libbenchmark-dev libboost-program-options-dev libboost-dev
  libfmt-dev nlohmann-json3-dev libre2-dev
  libsqlite3-dev libpq-dev zlib1g-dev
  valgrind python3 python3-matplotlib python3-munkres
)
# The rest: tests and their references, fuzzing and static analysis, the history's servers,
# fleets on Slurm (and python3-yaml: the check of the CI recipes).
rest=(
  build-essential git libbenchmark-tools libgtest-dev libgmock-dev
  linux-perf clang libclang-rt-14-dev clang-tidy universal-ctags
  python3-scipy python3-jsonschema python3-yaml
  sqlite3 postgresql
  slurm-wlm munge util-linux
)
packages=("${main[@]}")
if [ "$set_name" = all ]; then
  packages+=("${rest[@]}")
fi

missing=()
for p in "${packages[@]}"; do
  # A pattern, not `| grep -q`, whose early exit fails the pipeline under pipefail; dpkg-query
  # prints one status per installed architecture.
  if [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != *"install ok installed"* ]]; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present (--$set_name)"
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
