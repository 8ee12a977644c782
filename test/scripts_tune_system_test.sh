#!/usr/bin/env bash
# Tests scripts/tune-system.sh against a fake /sys and /proc: values are set while the command
# runs and restored afterwards, also when the command fails or is interrupted.
set -euo pipefail
script="$1"
fake="$(mktemp -d)"
trap 'rm -rf "$fake"' EXIT
mkdir -p "$fake/sys/devices/system/cpu/cpu0/cpufreq" "$fake/sys/devices/system/cpu/cpu1/cpufreq" \
         "$fake/sys/devices/system/cpu/cpufreq" "$fake/sys/devices/system/cpu/smt" "$fake/proc/sys/kernel"
echo powersave > "$fake/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"
echo schedutil > "$fake/sys/devices/system/cpu/cpu1/cpufreq/scaling_governor"
echo 1 > "$fake/sys/devices/system/cpu/cpufreq/boost"
echo on > "$fake/sys/devices/system/cpu/smt/control"
echo 950000 > "$fake/proc/sys/kernel/sched_rt_runtime_us"
export PERFGAUGE_TUNE_ROOT="$fake"

fail() { echo "FAIL: $*"; exit 1; }
snapshot() { cat "$fake"/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor "$fake/sys/devices/system/cpu/cpufreq/boost" \
                 "$fake/sys/devices/system/cpu/smt/control" "$fake/proc/sys/kernel/sched_rt_runtime_us" | tr '\n' ' '; }
original="$(snapshot)"

during="$(bash "$script" -- bash -c "cat $fake/sys/devices/system/cpu/cpu*/cpufreq/scaling_governor $fake/sys/devices/system/cpu/cpufreq/boost $fake/sys/devices/system/cpu/smt/control $fake/proc/sys/kernel/sched_rt_runtime_us | tr '\n' ' '" 2>/dev/null)"
[ "$during" = "performance performance 0 off -1 " ] || fail "while running: '$during'"
[ "$(snapshot)" = "$original" ] || fail "not restored after success: '$(snapshot)'"

set +e
bash "$script" -- false 2>/dev/null; status=$?
set -e
[ $status -eq 1 ] || fail "exit status of a failing command not passed through ($status)"
[ "$(snapshot)" = "$original" ] || fail "not restored after failure"

# Interrupted: SIGINT to the script while the command sleeps.
bash "$script" -- sleep 2 2>/dev/null &
pid=$!
sleep 0.5
kill -INT $pid
wait $pid || true
[ "$(snapshot)" = "$original" ] || fail "not restored after SIGINT: '$(snapshot)'"

dry="$(bash "$script" --dry-run -- true 2>&1)"
case "$dry" in *"would set"*) ;; *) fail "--dry-run printed no plan: $dry" ;; esac
[ "$(snapshot)" = "$original" ] || fail "--dry-run changed something"
echo "tune-system: 5 passed, 0 failed"
