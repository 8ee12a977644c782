#!/usr/bin/env bash
# The README's second command: install dependencies, build, and run the whole test suite
# with ctest, each test once: the measuring end-to-end scenarios against the release binary,
# then the unit suites and the other end-to-end tests against a binary built with
# AddressSanitizer + UndefinedBehaviorSanitizer (clang; RELEASE_STAGE_TESTS below says which
# test runs where), then a short libFuzzer run of the varint decoders (clang, ASan + UBSan),
# and beside those the hardware-path checks in the arm64 guest (scripts/arm64-guest.sh). No
# test driver is compiled twice: the unit drivers are built in the sanitizer stage only, the
# end-to-end drivers in the release stage only (test/CMakeLists.txt, PERFGAUGE_TEST_DRIVERS).
#   scripts/test.sh            all stages
#   scripts/test.sh --fast     the release configuration only, every suite (no sanitizers,
#                              fuzz, arm64)
# Each stage prints its wall time, and each suite its slowest tests, so a slow one shows up.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# The arm64 guest's packages too, before any build: installing them can rewrite headers under
# /usr/include that a running build's precompiled headers depend on (scripts/arm64/install-deps.sh).
if [ "${1:-}" != "--fast" ] && [ "${PERFGAUGE_SKIP_ARM64_GUEST:-0}" != 1 ]; then
  scripts/arm64/install-deps.sh
fi

# Tracepoint tests need tracefs. As root, mount it if nobody has (harmless, read-only use);
# otherwise those tests skip and say why.
if [ "$(id -u)" -eq 0 ] && ! grep -qs ' tracefs ' /proc/mounts && [ -d /sys/kernel/tracing ]; then
  mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || echo "test.sh: could not mount tracefs; tracepoint tests will skip"
fi

stage() {  # stage NAME COMMAND...: run a stage and say how long it took
  local name=$1 start=$SECONDS
  shift
  echo "test.sh: == $name"
  "$@"
  echo "test.sh: == $name took $((SECONDS - start)) s"
}

suite() {  # suite BUILD_DIR [CTEST ARGS...]: run ctest there, then list its 15 slowest tests
  local dir=$1 log
  shift
  log=$(mktemp)
  local rc=0
  (cd "$dir" && ctest --output-on-failure --parallel 2 "$@") | tee "$log" || rc=$?
  echo "test.sh: slowest tests in $dir:"
  # No `head` here: under pipefail, its early exit would kill `sort` with SIGPIPE (exit 141)
  # and end the whole script; sed reads every line and prints the first 15.
  sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .* ([0-9.]+) sec$/\2 \1/p' "$log" |
    sort -rn | sed -n '1,15s/^/  /p'
  # The tests that skipped here, for the stage that runs them where they can (below).
  sed -nE 's/^ *[0-9]+\/[0-9]+ Test +#[0-9]+: ([^ ]+) .*\*\*\*Skipped .*/\1/p' "$log" \
    >"$dir/skipped-tests.txt"
  rm -f "$log"
  return "$rc"
}

# A ctest regex matching exactly the test names in FILE, one a line.
names_regex() {
  printf '^(%s)$' "$(sed 's/[][\.*^$+?(){}|/]/\\&/g' "$1" | paste -sd'|')"
}

# Each test runs in one stage. The release stage runs the scenarios whose time goes into
# measuring (runs, `--against` pairs, calibration, simulation, drawing with matplotlib) and
# the checks of what a release build installs; the sanitizer stage runs everything else: the
# unit suites, and the other end-to-end tests against the sanitized binary. Run in both, the
# end-to-end tests were 188 of 193 release tests run a second time (320 s of test time out of
# 568 in the sanitizer stage, docs/measurements.md); the measuring scenarios cost minutes each
# under the sanitizers, and their logic (pairing, stopping, fan-out, merging) is unit-tested
# under the sanitizers with injected children (test/harness/orchestrate). The statistical
# trials (perfgauge_trials_tests: the suites named first below) run there too: pure arithmetic
# over a thousand seeded series, thirty times slower under the sanitizers (143 s against 4.7 s
# for compare --floor's), whose code the unit tests run under the sanitizers.
RELEASE_STAGE_TESTS='^(CompareFloorTrials\..*|GateTrials\..*|CliAgainst\..*|CliCalibrate\..*|CliSim\..*|PlotSweep\..*|CliPlot\.WritesAPngAndAnSvg|CliRun\.(JsonHasEveryVariantAndComparePyReadsIt|PrintsATableAndSavesTheJsonResult|ProcessesShareTheRoundsAndLeaveNothingBehind|ProgressOnlyOnATerminal)|cli_docs|fleet_slurm|install_and_consume|result_schemas)$'

# The arm64 guest (scripts/arm64-guest.sh) emulates one CPU (-icount keeps QEMU to one
# thread), so it runs in the background beside the sanitizer and fuzz stages, on the core they
# leave idle, instead of after them; its output is printed when it ends.
guest_pid=""
guest_log=""
browser_pid=""
browser_log=""
# On any exit: a guest still running is stopped, with all it started; a browser install still
# running is waited for (killed midway, dpkg would be left half configured; Ctrl-C does not
# reach it: a background job of a script ignores SIGINT).
stop_background() {
  if [ -n "$guest_pid" ]; then
    # Its own process group (setsid below): QEMU or the cross build's compilers stop at once,
    # not when bash would next run the script's trap.
    kill -TERM -- -"$guest_pid" 2>/dev/null || kill -TERM "$guest_pid" 2>/dev/null || true
    wait "$guest_pid" 2>/dev/null || true
  fi
  [ -z "$guest_log" ] || rm -f "$guest_log"
  [ -z "$browser_pid" ] || wait "$browser_pid" 2>/dev/null || true
  [ -z "$browser_log" ] || rm -f "$browser_log"
}
trap stop_background EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The report tests' browser (a 70 s install on a fresh machine, 2026-12-07) installs in the
# background beside the release build: it adds no headers a build reads, and only the
# sanitizer stage's report tests need it (waited for below). apt is free here: the two
# installs above have finished.
if [ "${1:-}" != "--fast" ]; then
  browser_log=$(mktemp)
  scripts/install-test-browser.sh >"$browser_log" 2>&1 </dev/null &
  browser_pid=$!
fi
wait_for_browser() {  # the background install's output, and its failure as the script's
  local rc=0
  wait "$browser_pid" || rc=$?
  browser_pid=""
  cat "$browser_log"
  rm -f "$browser_log"
  [ "$rc" -eq 0 ] || { echo "test.sh: installing the test browser failed (exit $rc)"; return "$rc"; }
}

if [ "${1:-}" = "--fast" ]; then
  stage "release build" scripts/build.sh release --for-tests
  stage "release tests" suite build
  exit 0
fi
stage "release build" scripts/build.sh release --for-tests -DPERFGAUGE_TEST_DRIVERS=e2e
stage "release tests" suite build --tests-regex "$RELEASE_STAGE_TESTS"
# arm64 on a real kernel PMU: cross build, Debian's arm64 kernel under QEMU with an emulated
# PMU, the hardware-path tests and exact-count checks (docs/arm64.md).
# PERFGAUGE_SKIP_ARM64_GUEST=1 leaves it out.
if [ "${PERFGAUGE_SKIP_ARM64_GUEST:-0}" != 1 ]; then
  echo "test.sh: == arm64 guest (in the background from here)"
  guest_log=$(mktemp)
  guest_start=$SECONDS
  # Beside the sanitizer stage QEMU shares the two cores: its boot took 350 s at load 2-6 and
  # 1121 s at load 10-13 (docs/measurements.md), so the guest's own 900 s limit (a guard
  # against a hung guest, not a budget) is raised here unless the caller set one.
  setsid env PERFGAUGE_GUEST_TIMEOUT="${PERFGAUGE_GUEST_TIMEOUT:-1500}" \
    bash scripts/arm64-guest.sh >"$guest_log" 2>&1 </dev/null &
  guest_pid=$!
fi
stage "test browser (installed in the background since the start)" wait_for_browser
stage "sanitizer build" scripts/build.sh sanitize --for-tests \
  "-DPERFGAUGE_E2E_DRIVERS_FROM=$PWD/build"
stage "sanitizer tests" suite build-sanitize --exclude-regex "$RELEASE_STAGE_TESTS"
# What skipped under the sanitizers because it needs an unsanitized binary (valgrind cannot run
# an ASan build; ASan's own page faults swamp whole-program counts) runs against the release
# build, so that every test runs once where it can: 54 such tests skipped on 2026-12-01, none of
# them in RELEASE_STAGE_TESTS, so none ran anywhere. Those that skip for this machine's reasons
# (no hardware PMU) skip again, at no cost.
if [ -s build-sanitize/skipped-tests.txt ]; then
  stage "release tests the sanitizer stage skipped" suite build \
    --tests-regex "$(names_regex build-sanitize/skipped-tests.txt)"
fi
stage "fuzz build" scripts/build.sh fuzz
stage "fuzz run" bash -c 'cd build-fuzz && ctest --output-on-failure'
if [ -n "$guest_pid" ]; then
  echo "test.sh: == arm64 guest: waiting for it"
  guest_rc=0
  wait "$guest_pid" || guest_rc=$?
  guest_pid=""
  cat "$guest_log"
  echo "test.sh: == arm64 guest took $((SECONDS - guest_start)) s (beside the stages above)"
  [ "$guest_rc" -eq 0 ] || { echo "test.sh: the arm64 guest failed (exit $guest_rc)"; exit "$guest_rc"; }
fi

