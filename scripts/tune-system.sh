#!/usr/bin/env bash
# Tunes a dedicated benchmarking box for the duration of one command, then restores it:
#   sudo scripts/tune-system.sh [--dry-run] -- CMD [ARGS...]
# Sets: cpufreq governor "performance" on every CPU, boost/turbo off, SMT off, and
# sched_rt_runtime_us -1 (no RT throttling, for perfgauge --fifo). Every original value is saved
# first and written back on exit, also after Ctrl-C or a failing command. Settings this machine
# does not have (VMs often lack cpufreq) are skipped with a note. Root only: it changes the
# whole machine, which is why the harness itself never does this.
# PERFGAUGE_TUNE_ROOT (default empty) prefixes every /sys and /proc path; the tests use it.
set -euo pipefail

root="${PERFGAUGE_TUNE_ROOT:-}"
dry_run=0
usage() { echo "usage: sudo scripts/tune-system.sh [--dry-run] -- CMD [ARGS...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry_run=1; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || usage
if [ -z "$root" ] && [ "$(id -u)" -ne 0 ] && [ $dry_run -eq 0 ]; then
  echo "tune-system: must run as root (it changes machine-wide settings); try: sudo $0 -- $*" >&2
  exit 1
fi

saved=()   # "path<TAB>original value", restored in reverse order
restore() {
  local i entry path value
  for (( i=${#saved[@]}-1; i>=0; i-- )); do
    entry="${saved[$i]}"; path="${entry%%$'\t'*}"; value="${entry#*$'\t'}"
    if [ $dry_run -eq 1 ]; then echo "tune-system: would restore $path = $value"; continue; fi
    printf '%s\n' "$value" > "$path" 2>/dev/null || echo "tune-system: could not restore $path to '$value'" >&2
  done
  saved=()
}
trap restore EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

set_value() {  # path value
  local path="$1" value="$2" old
  if [ ! -w "$path" ] && [ $dry_run -eq 0 ]; then
    echo "tune-system: skipped $path (not present or not writable here)" >&2
    return 0
  fi
  [ -e "$path" ] || { echo "tune-system: skipped $path (not present)" >&2; return 0; }
  old="$(cat "$path")"
  [ "$old" = "$value" ] && return 0
  saved+=("$path"$'\t'"$old")
  if [ $dry_run -eq 1 ]; then echo "tune-system: would set $path = $value (now $old)"; return 0; fi
  printf '%s\n' "$value" > "$path" || echo "tune-system: could not set $path to '$value'" >&2
}

shopt -s nullglob
governors=("$root"/sys/devices/system/cpu/cpu[0-9]*/cpufreq/scaling_governor)
[ ${#governors[@]} -gt 0 ] || echo "tune-system: no cpufreq governors here (typical in VMs); skipped" >&2
for g in "${governors[@]}"; do set_value "$g" performance; done
set_value "$root/sys/devices/system/cpu/cpufreq/boost" 0
set_value "$root/sys/devices/system/cpu/intel_pstate/no_turbo" 1
set_value "$root/sys/devices/system/cpu/smt/control" off
set_value "$root/proc/sys/kernel/sched_rt_runtime_us" -1

set +e
"$@"
status=$?
set -e
exit $status
