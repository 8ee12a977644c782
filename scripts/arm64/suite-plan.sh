# The guest's steps with no arguments: sourced by scripts/arm64-guest.sh, which defines
# step NAME [--user] ARGV... and sysctl NAME VALUE. scripts/arm64/check_suite.py checks what
# each step wrote. Loop counts are 10 digits (see scripts/arm64/loop.c).

# The hardware-path tests (scripts/arm64/hardware-path-tests.txt): on a machine without a PMU
# they skip or check only their no-PMU half; here they must run (user-space reads on, so that
# the user-read test runs too). perfgauge_pmu_tests whole here; of the end-to-end tests those
# listed, last (the longest step: a guest that runs out of time keeps the checks before it).
sysctl perf_user_access 1
step pmu_tests perfgauge_pmu_tests --gtest_brief=1 --gtest_output=json:/out/pmu_tests.json

# Exact counts: instructions = 3 N + b for N = 1e5 .. 1e8, b the same for every N, in each of 3
# runs (3, not 5: the two runs more cost 1.2 s of guest time in the 1e8 loops alone and show
# nothing the three do not).
for n in 0000100000 0001000000 0010000000 0100000000; do
  step "stat_$n" perfgauge stat -e instructions,cycles -r 3 --format json -- loop "$n"
  step "statu_$n" perfgauge stat -e instructions:u,cycles:u -r 3 --format json -- loop "$n"
done

# More events than the emulated PMU has counters: raw encodings (0x08 instructions retired,
# 0x11 cycles) and modifiers make up the list; the kernel multiplexes them. 1e8 iterations: at
# 1e7 the scaled counts were 0.79-0.87% off (two groups, half the time each), too near the 1%
# the check allows; at 1e8 0.04%.
step multiplex perfgauge stat -e instructions,cycles,r08,r11,instructions:u,cycles:u,r08:u,r11:u,instructions:k,r08:k,r11:k,cycles:k \
  -r 3 --format json -- loop 0100000000
# QEMU does not implement branch-misses: refused with the kernel's reason, the rest counted.
step unsupported perfgauge stat -e instructions,branch-misses --format json -- loop 0000100000

step events perfgauge events --resolve instructions,cycles,r08,instructions:u
# The branchy decoder's per-item instructions, twice: equal across runs to within 1e-4. --l3:
# QEMU's virt board reports no caches in sysfs, so the first run would measure a latency
# staircase of 1 to 256 MiB (cache_probe.hpp), which under TCG took 190 s of the host's time
# (run_a; run_b, which reads the kept answer, 15 s) and means nothing here (timings are TCG's).
# Hot 4K data does not depend on it; the end-to-end tests give --l3 too.
for r in run_a run_b; do
  step "$r" perfgauge run --workload varint --variant branchy --cache hot --sizes 4K --l3 64K \
    -e instructions:u -r 6 --precision 0 --max-time 0.05 --processes 1 --warmup 0.005 \
    --seed 1 --format json -q
done

# User-space counter reads: with perf_user_access 1 snapshots read the counters directly.
sysctl perf_user_access 1
step doctor_ua1 perfgauge doctor
step calibrate_ua1 perfgauge calibrate --quick --samples 200 -e instructions,cycles --format json
step session_ua1 perfgauge_session_exact
# A group of two hardware events, the case issue 51 prices regions for.
step session_ua1_pair perfgauge_session_exact instructions:u,cycles:u
# The counter checks a user runs (selftest --counters): here they must pass, but branch-misses,
# which QEMU does not implement (unavailable, with the kernel's reason).
step counters perfgauge selftest --counters --json /out/counters.json
sysctl perf_user_access 0
step doctor_ua0 perfgauge doctor
step calibrate_ua0 perfgauge calibrate --quick --samples 200 -e instructions,cycles --format json
step session_ua0 perfgauge_session_exact

# Debian's paranoid 3: an unprivileged user may not count at all.
sysctl perf_event_paranoid 3
step doctor_user --user perfgauge doctor
step stat_user --user perfgauge stat -e instructions,cycles -- loop 0000100000

# The end-to-end tests of hardware-path-tests.txt, as root with the paranoid level as above.
e2e_filter="$(sed -n 's/^perfgauge_guest_e2e_tests //p' "$repo/scripts/arm64/hardware-path-tests.txt" | paste -sd:)"
step e2e_tests perfgauge_guest_e2e_tests "--gtest_filter=$e2e_filter" \
  --gtest_output=json:/out/e2e_tests.json
