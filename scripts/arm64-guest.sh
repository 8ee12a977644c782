#!/usr/bin/env bash
# perfgauge on arm64, on a real Linux kernel PMU: cross-builds perfgauge for aarch64, boots
# Debian's arm64 kernel under QEMU (TCG, emulated PMUv3, -icount shift=0 so that instruction
# counts are exact) and runs in it.
#   scripts/arm64-guest.sh                  the hardware-path tests and end-to-end checks;
#                                           ends with "N passed, N failed" (non-zero on failure)
#   scripts/arm64-guest.sh -- CMD [ARGS]    runs CMD in the guest with perfgauge on PATH and
#                                           this directory's files in its working directory:
#                                           its stdout here on stdout, its stderr on stderr,
#                                           the files it wrote copied back, its exit status
# Environment: PERFGAUGE_GUEST_TIMEOUT (seconds for the whole boot, default 900),
# PERFGAUGE_GUEST_STEP_TIMEOUT (seconds for each step in the guest, default 300),
# PERFGAUGE_GUEST_KEEP (a directory to keep the console log and every step's output in).
# docs/arm64.md says what is verified there and what is not.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
build="$repo/build-arm64"
cache="$build/guest-cache"
guest_timeout="${PERFGAUGE_GUEST_TIMEOUT:-900}"
step_timeout="${PERFGAUGE_GUEST_STEP_TIMEOUT:-300}"

mode=suite
if [ $# -gt 0 ]; then
  if [ "$1" != "--" ] || [ $# -lt 2 ]; then
    echo "usage: scripts/arm64-guest.sh [-- COMMAND [ARGS...]]" >&2
    exit 2
  fi
  shift
  mode=command
  for arg in "$@"; do
    case "$arg" in
      *$'\t'* | *$'\n'*) echo "arm64-guest: arguments may not hold tabs or newlines: '$arg'" >&2; exit 2 ;;
    esac
  done
fi
log() { echo "arm64-guest: $*" >&2; }

# ---- 1. what it needs, installed once ---------------------------------------------------
"$repo/scripts/arm64/install-deps.sh"

# ---- 2. the cross build: only what the guest runs, no debug information --------------------
# perfgauge_guest_e2e_tests: the end-to-end tests whose hardware half needs a PMU
# (test/arm64/CMakeLists.txt), with the program they count.
targets=(perfgauge perfgauge_pmu_tests perfgauge_session_exact perfgauge_guest_e2e_tests
         perfgauge_stat_workload)
if [ ! -f "$build/build.ninja" ]; then
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  # -O2 without -g, in unity batches (cmake/unity_build.cmake): RelWithDebInfo's -O2, the
  # measured workloads at -O3 and file by file as natively. Not Release: GCC 12's -O3 reports a
  # false -Wrestrict inside libstdc++'s string code.
  cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_TOOLCHAIN_FILE="$repo/cmake/aarch64-linux-gnu.cmake" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG" \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -DNDEBUG" -DPERFGAUGE_WERROR=ON -DPERFGAUGE_UNITY=ON "${launcher[@]}" >/dev/null
fi
log "cross-building ${targets[*]}"
cmake --build "$build" --target "${targets[@]}" -j2 >"$build/guest-build.log" 2>&1 ||
  { tail -40 "$build/guest-build.log" >&2; log "cross build failed (log: $build/guest-build.log)"; exit 1; }
mkdir -p "$cache"
for prog in init loop; do
  if [ ! -x "$cache/$prog" ] || [ "$repo/scripts/arm64/$prog.c" -nt "$cache/$prog" ]; then
    aarch64-linux-gnu-gcc -static -O2 -Wall -Wextra -Werror -o "$cache/$prog" "$repo/scripts/arm64/$prog.c"
  fi
done

# ---- 3. Debian's arm64 kernel and busybox, fetched once ---------------------------------
# fetch_from_deb PACKAGE PATH_GLOB DEST: the file PATH_GLOB of Debian's PACKAGE:arm64 to DEST.
fetch_from_deb() {
  log "fetching $1:arm64"
  local fetch
  fetch="$(mktemp -d)"
  chmod 755 "$fetch"  # apt-get download drops privileges to _apt where it can
  (cd "$fetch" && apt-get download -qq "$1:arm64" >&2)
  dpkg-deb -x "$fetch"/*.deb "$fetch/root"
  # shellcheck disable=SC2086  # the glob is meant
  cp $fetch/root/$2 "$3.part" && mv "$3.part" "$3"
  rm -rf "$fetch"
}
kernel="$cache/vmlinuz"
if [ ! -f "$kernel" ]; then
  package="$(apt-cache depends linux-image-arm64:arm64 2>/dev/null | sed -n 's/ *Depends: \(linux-image-[^:]*\).*/\1/p' | sed -n 1p)"
  if [ -z "$package" ]; then
    apt-get update -qq
    package="$(apt-cache depends linux-image-arm64:arm64 | sed -n 's/ *Depends: \(linux-image-[^:]*\).*/\1/p' | sed -n 1p)"
  fi
  [ -n "$package" ] || { log "cannot tell which kernel linux-image-arm64:arm64 depends on"; exit 1; }
  fetch_from_deb "$package" 'boot/vmlinuz-*' "$kernel"
  echo "$package" >"$cache/kernel-package"
fi
# A shell and the commands the end-to-end tests start (/bin/true, /usr/bin/touch), and a shell
# for `-- sh -c ...`: Debian's static busybox.
busybox="$cache/busybox"
[ -f "$busybox" ] || fetch_from_deb busybox-static bin/busybox "$busybox"

# ---- 4. the initramfs ---------------------------------------------------------------------
work="$(mktemp -d /tmp/perfgauge-arm64.XXXXXX)"
qemu_pid=""
cleanup() {
  if [ -n "$qemu_pid" ] && kill -0 "$qemu_pid" 2>/dev/null; then
    kill "$qemu_pid" 2>/dev/null || true
    wait "$qemu_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'log "interrupted"; exit 130' INT
trap 'log "terminated"; exit 143' TERM

root="$work/root"
mkdir -p "$root"/{bin,lib,proc,sys,dev,tmp,work,out,sys/kernel/tracing}
cp "$cache/init" "$root/init"
cp "$cache/loop" "$root/bin/loop"
for t in "${targets[@]}"; do
  found="$(find "$build" -name "$t" -type f -perm -u+x -print -quit)"
  [ -n "$found" ] || { log "built $t, but cannot find it under $build"; exit 1; }
  aarch64-linux-gnu-strip -o "$root/bin/$t" "$found"
done
install -m 755 "$busybox" "$root/bin/busybox"
mkdir -p "$root/usr/bin"
for applet in sh true false touch cat echo sleep ls; do ln -s busybox "$root/bin/$applet"; done
ln -s /bin/busybox "$root/usr/bin/touch"
# The shared libraries the binaries need, and theirs, from the cross sysroot and multiarch.
declare -A copied=()
copy_needed() {
  local lib
  for lib in $(aarch64-linux-gnu-readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'); do
    [ -n "${copied[$lib]:-}" ] && continue
    copied[$lib]=1
    local path=""
    for dir in /usr/aarch64-linux-gnu/lib /usr/lib/aarch64-linux-gnu /lib/aarch64-linux-gnu; do
      if [ -e "$dir/$lib" ]; then path="$dir/$lib"; break; fi
    done
    [ -n "$path" ] || { log "no aarch64 $lib for $1"; exit 1; }
    mkdir -p "$root/lib/aarch64-linux-gnu"
    cp -L "$path" "$root/lib/aarch64-linux-gnu/$lib"
    copy_needed "$root/lib/aarch64-linux-gnu/$lib"
  done
}
for t in "${targets[@]}"; do copy_needed "$root/bin/$t"; done
cp -L /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 "$root/lib/ld-linux-aarch64.so.1"
printf 'root:x:0:0:root:/tmp:/bin/sh\nuser:x:1000:1000:user:/tmp:/bin/sh\n' >"$root/etc-passwd"
mkdir -p "$root/etc" && mv "$root/etc-passwd" "$root/etc/passwd"
printf 'root:x:0:\nuser:x:1000:\n' >"$root/etc/group"

plan="$root/plan"
: >"$plan"
# run NAME [--user] ARGV...: one step (root unless --user: uid 1000)
step() {
  local name="$1" uid=0
  shift
  if [ "$1" = "--user" ]; then uid=1000; shift; fi
  local IFS=$'\t'
  printf 'run\t%s\t%s\t%s\t%s\t%s\n' "$name" "$step_timeout" "$uid" /work "$*" >>"$plan"
}
sysctl() { printf 'write\t/proc/sys/kernel/%s\t%s\n' "$1" "$2" >>"$plan"; }

if [ "$mode" = command ]; then
  # This directory's regular files, one level, as the command's working directory.
  find . -maxdepth 1 -type f -exec cp -p {} "$root/work/" \;
  chmod 1777 "$root/work"
  step cmd "$@"
  printf 'send\t/work\n' >>"$plan"
else
  # shellcheck source=scripts/arm64/suite-plan.sh
  . "$repo/scripts/arm64/suite-plan.sh"
fi

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) >"$work/initramfs.cpio"

# ---- 5. boot ----------------------------------------------------------------------------
console="$work/console.log"
started=$(date +%s)
log "booting the guest ($(cat "$cache/kernel-package" 2>/dev/null || echo kernel))"
qemu-system-aarch64 -M virt -cpu max,pmu=on -icount shift=0 -smp 1 -m 512 -nographic \
  -no-reboot -net none -kernel "$kernel" -initrd "$work/initramfs.cpio" \
  -append "console=ttyAMA0 rdinit=/init quiet loglevel=1 panic=-1" \
  </dev/null >"$console" 2>"$work/qemu.err" &
qemu_pid=$!
status=0
# Where the host's time goes: the boot, then each step as its status file arrives (init sends a
# step's files as it ends), to the second; the guest's own time per step is in its .rc file.
reported=0
report_progress() {
  local marks
  marks="$(grep -a -e '^@@PG-BOOTED' -e '^@@PG-END out/[^ ]*\.rc' "$console" 2>/dev/null | tr -d '\r' || true)"
  [ -n "$marks" ] || return 0
  local n
  n="$(printf '%s\n' "$marks" | wc -l)"
  if [ "$n" -gt "$reported" ]; then
    printf '%s\n' "$marks" | sed -n "$((reported + 1)),\$p" | while read -r mark name; do
      local what="booted"
      if [ "$mark" != "@@PG-BOOTED" ]; then
        name="${name#out/}"
        what="${name%.rc} done"
      fi
      log "$(($(date +%s) - started))s: $what"
    done
    reported="$n"
  fi
}
while kill -0 "$qemu_pid" 2>/dev/null; do
  if [ $(($(date +%s) - started)) -ge "$guest_timeout" ]; then
    log "the guest did not finish within ${guest_timeout}s: stopped"
    kill "$qemu_pid" 2>/dev/null || true
    status=124
    break
  fi
  sleep 1
  report_progress
done
report_progress
wait "$qemu_pid" 2>/dev/null || true
qemu_pid=""
log "guest ran $(($(date +%s) - started))s"
if ! grep -q '^@@PG-BOOTED' "$console"; then
  log "the guest never reached /init; its console said:"
  tail -30 "$console" >&2
  cat "$work/qemu.err" >&2
  exit 1
fi

out="$work/results"
unframed=0
mkdir -p "$out"
/usr/bin/python3 "$repo/scripts/arm64/unframe.py" "$console" "$out" || unframed=1
if [ -n "${PERFGAUGE_GUEST_KEEP:-}" ]; then  # a directory to keep the console and results in
  mkdir -p "$PERFGAUGE_GUEST_KEEP" && cp -r "$console" "$out" "$PERFGAUGE_GUEST_KEEP/"
fi

if [ "$mode" = command ]; then
  [ "$unframed" = 0 ] || exit 1
  cat "$out/out/cmd.out" 2>/dev/null || true
  cat "$out/out/cmd.err" >&2 2>/dev/null || true
  # Files the command wrote or changed in its directory come back; the rest stay as they are.
  if [ -d "$out/work" ]; then
    for f in "$out"/work/*; do
      [ -f "$f" ] || continue
      name="$(basename "$f")"
      cmp -s "$f" "./$name" 2>/dev/null || cp "$f" "./$name"
    done
  fi
  rc="$(head -1 "$out/out/cmd.rc" 2>/dev/null || echo "missing")"
  case "$rc" in
    "exit "*) exit "${rc#exit }" ;;
    "signal "*) exit $((128 + ${rc#signal })) ;;
    "timeout "*) log "the command did not finish within ${step_timeout}s: killed"; exit 124 ;;
    *) log "the command left no status (the guest stopped early)"; exit $((status ? status : 1)) ;;
  esac
fi

# What the steps that finished sent is checked even when the guest stopped early (each step's
# files leave the guest as it ends): the missing steps fail their checks.
mkdir -p "$out/out"
/usr/bin/python3 "$repo/scripts/arm64/check_suite.py" "$out/out" || status=1
[ "$unframed" = 0 ] || status=1
exit "$status"
