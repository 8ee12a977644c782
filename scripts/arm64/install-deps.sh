#!/usr/bin/env bash
# Installs what the arm64 guest (scripts/arm64-guest.sh) needs: the aarch64 cross toolchain,
# QEMU, and the :arm64 dev packages of the libraries perfgauge links (Debian multiarch).
# Idempotent: when everything is installed it only checks.
# scripts/test.sh calls it before any native build starts, not from the guest's background
# stage: installing linux-libc-dev:arm64 can upgrade linux-libc-dev:amd64 too (the two are
# Multi-Arch: same, so they must be one version), which rewrites /usr/include/asm-generic while
# a native build runs; clang then refuses every precompiled header built before (a fresh clone's
# `.ci/run` failed so on 2026-12-01, docs/measurements.md).
set -euo pipefail
log() { echo "arm64-guest: $*" >&2; }
packages=(g++-aarch64-linux-gnu gcc-aarch64-linux-gnu qemu-system-arm cpio ninja-build cmake
          libpfm4-dev:arm64 libfmt-dev:arm64 libboost-program-options-dev:arm64
          libgtest-dev:arm64 libgmock-dev:arm64 libbenchmark-dev:arm64 nlohmann-json3-dev
          libre2-dev:arm64 libsqlite3-dev:arm64 libpq5:arm64 libpq-dev zlib1g-dev:arm64 pkg-config
          valgrind)
missing=()
for p in "${packages[@]}"; do
  # A pattern, not `| grep -q`, whose early exit fails the pipeline under pipefail; dpkg-query
  # prints one status per installed architecture.
  [[ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" == *"install ok installed"* ]] || missing+=("$p")
done
[ ${#missing[@]} -gt 0 ] || exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
log "installing ${missing[*]}"
[[ $'\n'"$(dpkg --print-foreign-architectures)"$'\n' == *$'\n'arm64$'\n'* ]] ||
  $sudo dpkg --add-architecture arm64
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
