#!/bin/bash
# The hostile slice of scripts/fleet/ (measure-and-store.sh, and slurm-submit.sh against
# stand-ins for sbatch, sinfo and scontrol): most cases are bad input or a failure
# around a measurement (the store down or refusing, labels with spaces, globs and `$(...)`, a
# missing program, a results directory it cannot write, a signal mid-measure), and each is
# checked for what the script promises: the result kept where it says (or nothing measured when
# the input is refused up front), a non-zero exit, a message that names the problem and the fix.
# The cases that succeed check that labels reach the store exactly as given.
#
# `perfgauge run` is stood in for by a wrapper that writes a fixed result (the run itself is
# tested elsewhere), and a Google Benchmark binary by a script that writes a small JSON the way
# Google Benchmark does (its output file opened first, written at the end); `perfgauge stat` and
# `history add` are the real ones, into SQLite stores here or a PostgreSQL URI whose port nothing
# listens on. Prints one line per failed case and the count; exit 1 if any failed.
#
# usage: measure_and_store_test.sh PERFGAUGE SOURCE_DIR [GBENCH_BINARY]
set -uo pipefail
perfgauge="$(realpath "$1")"
source_dir="$(realpath "$2")"
gbench_real="${3:+$(realpath "$3")}"
script="$source_dir/scripts/fleet/measure-and-store.sh"

dir="$(mktemp -d "${TMPDIR:-/tmp}/perfgauge-fleet-test.XXXXXX")"
chmod 755 "$dir"  # the unwritable-directory case runs as nobody when this runs as root
trap 'rm -rf "$dir"' EXIT
fake="$dir/bin/perfgauge"
mkdir "$dir/bin" "$dir/work" "$dir/results"
cat > "$fake" << EOF
#!/bin/bash
# run: the fixture to --json's file, after FAKE_RUN_SLEEP seconds or once $dir/release exists
# (FAKE_RUN_SLEEP=release; a signal meanwhile writes it at once, as perfgauge saves an
# interrupted run), exit \${FAKE_RUN_STATUS:-0}. history: the real one, after FAKE_ADD_SLEEP
# seconds. stat: the real one. Each call is logged.
printf '%s\n' "\$*" >> "$dir/calls"
if [ "\$1" = run ]; then
  out=""
  while [ "\$#" -gt 0 ]; do [ "\$1" = --json ] && out="\$2"; shift; done
  [ -n "\$out" ] || exit 2
  if [ -n "\${FAKE_RUN_SLEEP:-}" ]; then
    trap 'cp "$source_dir/test/e2e/fixtures/small-run.json" "\$out"; exit 130' INT
    trap 'cp "$source_dir/test/e2e/fixtures/small-run.json" "\$out"; exit 143' TERM
    trap 'cp "$source_dir/test/e2e/fixtures/small-run.json" "\$out"; exit 129' HUP
    touch "$dir/started"  # once the handlers are in place, as perfgauge's are before it measures
    if [ "\$FAKE_RUN_SLEEP" = release ]; then
      until [ -e "$dir/release" ]; do sleep 0.05; done
    else
      sleep "\$FAKE_RUN_SLEEP" & wait \$!
    fi
  fi
  cp "$source_dir/test/e2e/fixtures/small-run.json" "\$out"
  exit "\${FAKE_RUN_STATUS:-0}"
fi
if [ "\$1" = history ] && [ -n "\${FAKE_ADD_SLEEP:-}" ]; then
  touch "$dir/started"
  sleep "\$FAKE_ADD_SLEEP"
fi
exec "$perfgauge" "\$@"
EOF
cat > "$dir/bin/fake-gbench" << EOF
#!/bin/bash
# A Google Benchmark binary: opens --benchmark_out's file, runs, writes it at the end.
printf '%s\n' "gbench \$*" >> "$dir/calls"
out=""
for a in "\$@"; do case "\$a" in --benchmark_out=*) out="\${a#*=}" ;; esac; done
[ -n "\${FAKE_GB_NO_START:-}" ] && exit 1
: > "\$out"
touch "$dir/started"
[ -n "\${FAKE_GB_SLEEP:-}" ] && sleep "\$FAKE_GB_SLEEP"
cat > "\$out" << 'JSON'
{"context": {"host_name": "fleet-node", "date": "2026-12-07T00:00:00Z", "num_cpus": 2,
             "library_build_type": "release", "executable": "./fake-gbench"},
 "benchmarks": [{"name": "BM_x", "run_name": "BM_x", "run_type": "iteration", "repetitions": 1,
                 "repetition_index": 0, "threads": 1, "iterations": 1000, "real_time": 12.5,
                 "cpu_time": 12.4, "time_unit": "ns"}]}
JSON
exit "\${FAKE_GB_STATUS:-0}"
EOF
chmod 755 "$fake" "$dir/bin/fake-gbench"
touch "$dir/work/k=a b" "$dir/work/k=a c"  # what an unquoted 'k=a *' would expand to
closed_port="$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
down="postgresql://u:secret@127.0.0.1:$closed_port/db"
store="$dir/store.db"
quick_stat=(stat -e task-clock --backend perf -r 1)

cases=0 failures=0 failed_case=""
failed() {  # WHY: counted once per case
  echo "FAIL [$name]: $*" >&2
  [ "$failed_case" = "$cases" ] || failures=$((failures + 1))
  failed_case="$cases"
}
# measure NAME [VAR=VALUE...] -- ARGS...: runs the script in $dir/work with the fake perfgauge
# and the store, the variables given set (in the environment of the script only).
measure() {
  name="$1" && shift
  local env=(PERFGAUGE="$fake" PERFGAUGE_DB="$store" PERFGAUGE_RESULTS_DIR="$dir/results")
  while [ "$1" != -- ]; do env+=("$1") && shift; done
  shift
  cases=$((cases + 1))
  rm -f "$dir/calls" "$dir/started"
  (cd "$dir/work" && env "${env[@]}" bash "$script" "$@" > "$dir/out" 2> "$dir/err")
  status=$?
}
kept_files() { find "$dir/results" -name 'perfgauge-result-*.json' | sort; }
runs_in() { "$perfgauge" history list --db="$1" 2> /dev/null | grep -c '^ *[0-9]'; }
# expect_kept STATUS: exit STATUS, one result kept, named with the command that adds it later.
expect_kept() {
  local kept
  kept="$(kept_files)"
  [ "$status" = "$1" ] || failed "exit $status, expected $1: $(cat "$dir/err")"
  [ "$(echo "$kept" | grep -c .)" = 1 ] || failed "not one result kept: '$kept'; $(cat "$dir/err")"
  grep -qF "the result is kept at $kept; add it later with: " "$dir/err" ||
    failed "the kept result is not named: $(cat "$dir/err")"
  ! grep -q secret "$dir/err" || failed "the password is printed: $(cat "$dir/err")"
}
# expect_refused PATTERN: exit 2 before anything was measured, the message matching PATTERN.
expect_refused() {
  [ "$status" = 2 ] || failed "exit $status, expected 2: $(cat "$dir/err")"
  grep -qE -- "$1" "$dir/err" || failed "message lacks '$1': $(cat "$dir/err")"
  ! grep -qE '^(run|stat|gbench)' "$dir/calls" 2> /dev/null || failed "measured anyway: $(cat "$dir/calls")"
  [ -z "$(kept_files)" ] || failed "left a file: $(kept_files)"
}
# expect_stored LABEL...: exit 0, nothing left in the results directory, the newest run in the
# store carries each label exactly as given.
expect_stored() {
  [ "$status" = 0 ] || failed "exit $status: $(cat "$dir/err")"
  [ -z "$(kept_files)" ] || failed "a stored result was left behind: $(kept_files)"
  # Labels are stored joined by commas (no label here holds one): each must be a whole item.
  /usr/bin/python3 - "$store" "$@" > "$dir/labels.err" 2>&1 << 'PY' || failed "$(cat "$dir/labels.err")"
import sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
stored = db.execute("SELECT labels FROM runs ORDER BY id DESC LIMIT 1").fetchone()[0]
missing = [l for l in sys.argv[2:] if f",{l}," not in f",{stored},"]
if missing:
    sys.exit(f"not stored as given: {missing!r}; the newest run's labels: {stored!r}")
PY
}
clean() { rm -f "$dir"/results/perfgauge-result-*.json; }
# measure_signalled NAME SIGNAL group|script [VAR=VALUE...] -- ARGS...: as measure, in the
# background, its own process group; once the measurement (or the add) has started, SIGNAL to
# the whole group (as a terminal's Ctrl-C or Slurm's scancel send it) or to the script alone.
measure_signalled() {
  name="$1" signal="$2" target="$3" && shift 3
  local env=(PERFGAUGE="$fake" PERFGAUGE_DB="$store" PERFGAUGE_RESULTS_DIR="$dir/results")
  while [ "$1" != -- ]; do env+=("$1") && shift; done
  shift
  cases=$((cases + 1))
  rm -f "$dir/calls" "$dir/started" "$dir/release"
  set -m  # a process group of its own, and signals not ignored as in a background job
  (cd "$dir/work" && exec env "${env[@]}" bash "$script" "$@" > "$dir/out" 2> "$dir/err") &
  local pid=$! waited=0
  set +m
  until [ -e "$dir/started" ] || [ "$waited" -ge 200 ]; do sleep 0.1 && waited=$((waited + 1)); done
  sleep 0.3  # the measurement under way
  if [ "$target" = group ]; then kill "-$signal" -- "-$pid"; else kill "-$signal" "$pid"; fi
  touch "$dir/release"
  wait "$pid"
  status=$?
}

# --- The store down or refusing: the result kept, named, with the command that adds it later.
labels=$'k=a *\nq=$(touch pwned) y\nsp=a  b\tc\nquote=it'"'"'s "x" \ y'
measure "store down (run)" PERFGAUGE_DB="$down" PERFGAUGE_LABELS="$labels" -- --workload memcpy
expect_kept 1
retry="$(sed -n 's/.*add it later with: //p' "$dir/err")"
cases=$((cases + 1)) name="the printed command adds the kept result, labels as given"
(cd / && PERFGAUGE_DB="$store" eval "$retry") > /dev/null 2>&1 || failed "failed: $retry"
clean && status=0 && expect_stored 'k=a *' 'q=$(touch pwned) y' $'sp=a  b\tc' "quote=it's \"x\" \\ y"
[ ! -e "$dir/work/pwned" ] && [ ! -e /pwned ] || failed "a label was executed"
measure "store down (stat)" PERFGAUGE_DB="$down" -- "${quick_stat[@]}" -- true
expect_kept 1 && clean
measure "store down (gbench)" PERFGAUGE_DB="$down" -- gbench "$dir/bin/fake-gbench"
expect_kept 1 && clean
measure "store down, --db with a password" PERFGAUGE_DB= -- --db "$down" run --workload memcpy
expect_kept 1
grep -qF -- '--db="$PERFGAUGE_DB" (with PERFGAUGE_DB set' "$dir/err" || failed "no PERFGAUGE_DB hint"
clean
measure "store is a directory" -- --db "$dir/results" run --workload memcpy
expect_kept 2
grep -qF -- "--db=$dir/results" "$dir/err" || failed "the store is not named: $(cat "$dir/err")"
clean
measure "store is /dev/null" PERFGAUGE_DB=/dev/null -- --workload memcpy
expect_kept 2 && clean
measure "store of another scheme" PERFGAUGE_DB=mysql://h/db -- --workload memcpy
expect_kept 2 && clean
measure "store where no directory can be made" PERFGAUGE_DB=/proc/no/such/h.db -- --workload memcpy
[ "$status" != 0 ] && expect_kept "$status" && clean
printf 'not a database\n' > "$dir/garbage.db"
measure "store is not a SQLite file" PERFGAUGE_DB="$dir/garbage.db" -- --workload memcpy
expect_kept 2
[ "$(cat "$dir/garbage.db")" = "not a database" ] || failed "the file that is no store was changed"
clean
measure_signalled "SIGINT during history add" INT group FAKE_ADD_SLEEP=30 -- --workload memcpy
expect_kept 130 && clean

# --- Refused before anything is measured: exit 2, what is wrong and the fix.
measure "no store" PERFGAUGE_DB= -- --workload memcpy
expect_refused 'no store: give --db URI or set PERFGAUGE_DB'
measure "no store, unset" -- --db '' run
expect_refused 'no store'
measure "label without =" PERFGAUGE_LABELS=no-equals-sign -- --workload memcpy
expect_refused "label 'no-equals-sign' is not KEY=VALUE"
measure "label with an empty key" -- --label =v run --workload memcpy
expect_refused "label '=v' is not KEY=VALUE"
measure "label that is a glob" -- --label '*' run --workload memcpy
expect_refused "label '\*' is not KEY=VALUE"
measure "perfgauge missing" PERFGAUGE="$dir/none/perfgauge" -- --workload memcpy
expect_refused "perfgauge not found as '$dir/none/perfgauge': give --perfgauge PATH or set PERFGAUGE"
measure "unknown command word" -- bench ./x
expect_refused "'bench' is not a command the fleet measures"
measure "a perfgauge command that makes no result" -- compare a.json b.json
expect_refused "'compare' is not a command the fleet measures"
measure "gbench without a binary" -- gbench
expect_refused "gbench needs the Google Benchmark binary"
measure "gbench binary missing" -- gbench "$dir/no-such-bench"
expect_refused "gbench: '$dir/no-such-bench' is not an executable file"
printf '#!/bin/sh\n' > "$dir/not-executable"
measure "gbench binary not executable" -- gbench "$dir/not-executable"
expect_refused "is not an executable file"
measure "gbench binary is a directory" -- gbench "$dir/bin"
expect_refused "is not an executable file"
measure "gbench with its own --benchmark_out" -- gbench "$dir/bin/fake-gbench" --benchmark_out=x.json
expect_refused "drop '--benchmark_out=x.json'"
measure "gbench with its own output format" -- gbench "$dir/bin/fake-gbench" --benchmark_out_format=csv
expect_refused "drop '--benchmark_out_format=csv'"
measure "stat without a program" -- stat
expect_refused "stat needs the program to measure"
measure "option without its value" -- --results-dir
expect_refused "--results-dir needs a value"
measure "results directory missing" PERFGAUGE_RESULTS_DIR="$dir/none" -- --workload memcpy
expect_refused "results directory '$dir/none' .* is not a directory.*create it or point at one"
measure "results directory is a file" -- --results-dir "$dir/garbage.db" run
expect_refused "is not a directory"
measure "results directory in /proc" PERFGAUGE_RESULTS_DIR=/proc/self -- --workload memcpy
expect_refused "results directory '/proc/self.*is not writable here"
mkdir -m 555 "$dir/read-only"
if [ "$(id -u)" = 0 ]; then  # root writes anywhere: the case is nobody's
  name="results directory not writable" && cases=$((cases + 1)) && rm -f "$dir/calls"
  (cd "$dir/work" && setpriv --reuid=nobody --regid=nogroup --clear-groups env PERFGAUGE="$fake" \
    PERFGAUGE_DB="$dir/nobody.db" PERFGAUGE_RESULTS_DIR="$dir/read-only" bash "$script" \
    > "$dir/out" 2> "$dir/err")
  status=$?
else
  measure "results directory not writable" PERFGAUGE_RESULTS_DIR="$dir/read-only" -- run
fi
expect_refused "results directory '$dir/read-only' .*is not writable here"

# --- The measurement fails: its status; a result it wrote is kept and not added.
before="$(runs_in "$store")"
measure "run fails after writing its result" FAKE_RUN_STATUS=1 -- --workload memcpy
expect_kept 1
[ "$(runs_in "$store")" = "$before" ] || failed "a failed run was added"
clean
measure "stat of a missing program" -- "${quick_stat[@]}" -- "$dir/no-such-program"
[ "$status" = 127 ] || failed "exit $status, expected 127"
grep -qF "perfgauge stat failed (exit 127) and wrote no result" "$dir/err" || failed "$(cat "$dir/err")"
grep -qF "cannot execute '$dir/no-such-program'" "$dir/err" || failed "perfgauge's reason lost"
measure "stat of a program that fails" -- "${quick_stat[@]}" -- sh -c 'exit 3'
expect_kept 3 && clean
measure "run given its own --json" PERFGAUGE="$perfgauge" -- --workload memcpy --json x.json
[ "$status" = 2 ] && grep -qF "leave out --json, --format and -o" "$dir/err" ||
  failed "exit $status: $(cat "$dir/err")"
measure "stat given its own -o" -- stat -o x.json -e task-clock -- true
[ "$status" = 2 ] && grep -qF "leave out --json, --format and -o" "$dir/err" ||
  failed "exit $status: $(cat "$dir/err")"
[ -z "$(kept_files)" ] || failed "left $(kept_files)"
measure "gbench binary fails before writing" FAKE_GB_NO_START=1 -- gbench "$dir/bin/fake-gbench"
[ "$status" = 1 ] && grep -qF "fake-gbench failed (exit 1) and wrote no result" "$dir/err" ||
  failed "exit $status: $(cat "$dir/err")"
measure "gbench binary fails after writing" FAKE_GB_STATUS=4 -- gbench "$dir/bin/fake-gbench"
expect_kept 4 && clean

# --- Signals mid-measure: the result kept (or said to be none), 128+N.
measure_signalled "SIGINT to the group mid-run" INT group FAKE_RUN_SLEEP=30 -- --workload memcpy
expect_kept 130 && clean
measure_signalled "SIGTERM to the group mid-run" TERM group FAKE_RUN_SLEEP=30 -- --workload memcpy
expect_kept 143 && clean
measure_signalled "SIGHUP to the group mid-run" HUP group FAKE_RUN_SLEEP=30 -- --workload memcpy
expect_kept 129 && clean
# The script waits for the measurement (released only after the signal), then keeps it.
measure_signalled "SIGINT to the script alone mid-run" INT script FAKE_RUN_SLEEP=release -- \
  --workload memcpy
expect_kept 130 && clean
measure_signalled "SIGINT mid-stat" INT group -- "${quick_stat[@]}" -- sh -c "touch $dir/started; sleep 30"
expect_kept 130
grep -q '"interrupted": *"SIGINT"' "$(kept_files)" || failed "not marked interrupted"
clean
measure_signalled "SIGINT mid-gbench" INT group FAKE_GB_SLEEP=30 -- gbench "$dir/bin/fake-gbench"
[ "$status" = 130 ] && grep -qF "interrupted by SIGINT before a result was written" "$dir/err" ||
  failed "exit $status: $(cat "$dir/err")"
[ -z "$(ls -A "$dir/results")" ] || failed "left $(ls -A "$dir/results")"

# --- What succeeds: labels exactly as given, the file removed once stored.
measure "labels with spaces, globs, \$(...)" PERFGAUGE_LABELS="$labels" -- --workload memcpy
expect_stored 'k=a *' 'q=$(touch pwned) y' $'sp=a  b\tc'
[ ! -e "$dir/work/pwned" ] || failed "a label was executed"
measure "labels by --label, blank lines skipped" PERFGAUGE_LABELS=$'\nenv=1\n\n' -- \
  --label '-k=[ab]?' --label 'e=' run --workload memcpy
expect_stored 'env=1' '-k=[ab]?' 'e='
measure "a commit with spaces and \$(...)" PERFGAUGE_COMMIT='c $(x) *' -- --workload memcpy
expect_stored
[ "$("$perfgauge" history list --db="$store" | grep -cF 'c $(x) *')" = 1 ] || failed "commit not stored as given"
measure "stat of a program" -- --label suite=s "${quick_stat[@]}" -- true
expect_stored suite=s
measure "gbench: the machine label given" -- --label machine=node7 gbench "$dir/bin/fake-gbench"
expect_stored machine=node7
measure "gbench binary" -- --label suite=g gbench "$dir/bin/fake-gbench" --benchmark_filter=x
expect_stored suite=g
grep -qF -- "--benchmark_filter=x --benchmark_out=" "$dir/calls" || failed "flags not passed: $(cat "$dir/calls")"
if [ -n "$gbench_real" ]; then
  measure "a real Google Benchmark binary with the adapter" -- gbench "$gbench_real" \
    --perfgauge_events=task-clock --benchmark_filter='branchy/log-uniform/end-on-end/hot/4096$' \
    --benchmark_min_time=0.01
  expect_stored
fi
measure "the selection from PERFGAUGE_RUN_ARGS" PERFGAUGE_RUN_ARGS='--workload memcpy --sizes 4K' --
expect_stored
grep -qx 'run --workload memcpy --sizes 4K --quiet --json .*' "$dir/calls" || failed "$(cat "$dir/calls")"
measure "a Slurm task's labels" SLURM_JOB_ID=7 SLURM_ARRAY_JOB_ID=6 SLURM_ARRAY_TASK_ID=3 -- run
expect_stored slurm_job=6 slurm_task=3
measure "a GitLab job's labels" GITLAB_CI=true CI_PIPELINE_ID=99 CI_JOB_NAME='measure: [x, 2]' -- run
expect_stored ci_run=99
mkdir -p "$dir/results/a b*"
measure "results directory with spaces and a glob" PERFGAUGE_DB="$down" \
  PERFGAUGE_RESULTS_DIR="$dir/results/a b*" -- run
[ "$status" = 1 ] || failed "exit $status"
retry="$(sed -n 's/.*add it later with: //p' "$dir/err")"
(PERFGAUGE_DB="$store" eval "$retry") > /dev/null 2>&1 || failed "the printed command failed: $retry"
[ -z "$(ls -A "$dir/results/a b*")" ] || rm -f "$dir/results/a b*"/*

# --- slurm-submit.sh, against stand-ins for sbatch, sinfo and scontrol that log their arguments:
# refusals before anything is submitted, and the arguments reaching sbatch word for word.
mkdir "$dir/slurm-bin"
for tool in sbatch sinfo scontrol; do
  printf '#!/bin/bash\nprintf "%%s\\n" "%s" "$@" > "%s/%s.args"\n' "$tool" "$dir" "$tool" \
    > "$dir/slurm-bin/$tool"
done
echo 'echo 42' >> "$dir/slurm-bin/sbatch"
echo 'echo 3' >> "$dir/slurm-bin/sinfo"
echo 'echo "JobId=42 JobState=${FAKE_JOB_STATE:-COMPLETED}"' >> "$dir/slurm-bin/scontrol"
chmod 755 "$dir"/slurm-bin/*
submit() {  # NAME [VAR=VALUE...] -- ARGS...: slurm-submit.sh with the stand-ins first on PATH
  name="$1" && shift
  local env=(PATH="$dir/slurm-bin:$PATH" PERFGAUGE_DB="$store")
  while [ "$1" != -- ]; do env+=("$1") && shift; done
  shift
  cases=$((cases + 1))
  rm -f "$dir"/*.args
  (cd "$dir/work" && env "${env[@]}" bash "$source_dir/scripts/fleet/slurm-submit.sh" "$@" \
    > "$dir/out" 2> "$dir/err")
  status=$?
}
expect_not_submitted() {  # PATTERN
  [ "$status" = 2 ] || failed "exit $status, expected 2: $(cat "$dir/err")"
  grep -qE -- "$1" "$dir/err" || failed "message lacks '$1': $(cat "$dir/err")"
  [ ! -e "$dir/sbatch.args" ] || failed "submitted anyway: $(cat "$dir/sbatch.args")"
}
submit "slurm-submit without a store" PERFGAUGE_DB= -- --tasks 2 -- run
expect_not_submitted "no store: give --db URI or set PERFGAUGE_DB"
submit "slurm-submit --tasks 0" -- --tasks 0 -- run
expect_not_submitted "--tasks must be a positive count \(got '0'\)"
submit "slurm-submit --tasks not a number" -- --tasks '3*' -- run
expect_not_submitted "--tasks must be a positive count \(got '3\*'\)"
submit "slurm-submit with an unknown option" -- --workload varint
expect_not_submitted "unknown option '--workload' \(the measurement's arguments go after --\)"
submit "slurm-submit --output-dir missing" -- --output-dir "$dir/none" -- run
expect_not_submitted "--output-dir $dir/none is not a writable directory"
submit "slurm-submit --db without its value" -- --db
expect_not_submitted "--db needs a value"
submit "slurm-submit: arguments word for word, one task per node" -- --output-dir "$dir/results" \
  -- --label 'note=a b *' stat -- ./prog '$(x)'
[ "$status" = 0 ] && [ "$(cat "$dir/out")" = 42 ] || failed "exit $status: $(cat "$dir/err")"
tail -n 7 "$dir/sbatch.args" | diff - <(printf '%s\n' "$source_dir/scripts/fleet/measure-and-store.sh" \
  --label 'note=a b *' stat -- ./prog '$(x)') > /dev/null || failed "sbatch got: $(cat "$dir/sbatch.args")"
grep -qx -- '--array=0-2' "$dir/sbatch.args" || failed "not one task per node: $(cat "$dir/sbatch.args")"
! grep -q "$store" "$dir/sbatch.args" || failed "the store is on sbatch's command line"
submit "slurm-submit --wait, a task failed" FAKE_JOB_STATE=FAILED -- --wait --tasks 1 -- run
[ "$status" = 1 ] && grep -qF "tasks ended as: FAILED" "$dir/err" || failed "exit $status: $(cat "$dir/err")"

echo "measure_and_store_test: $cases cases, $failures failed"
[ "$failures" = 0 ]
