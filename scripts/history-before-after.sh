#!/usr/bin/env bash
# Before/after check of `perfgauge history` (issue 52: no behaviour change): runs every history
# subcommand of two perfgauge binaries on the same fixed inputs, in the same directory one
# after the other (so absolute paths in the outputs are the same), and diffs what each printed
# (stdout, stderr, exit status) and wrote (export -o, the plot's series data, report's page).
# Only the times a store records when a run or acceptance is added are masked.
#
# Usage: scripts/history-before-after.sh OLD_PERFGAUGE NEW_PERFGAUGE [WORK_DIR]
#   e.g. scripts/history-before-after.sh /work/wt-before/build/harness/perfgauge build/harness/perfgauge
# Exit 0 when the two agree byte for byte, 1 (with the diff) when they do not, 2 for bad usage.
# The inputs: Google Benchmark files made here (deterministic: a 12-run series with a +25%
# step at run 8, two machines, an `instructions` counter) and test/'s fixtures
# (test/e2e/fixtures/small-run.json, a perfgauge run result; a stat result).
set -euo pipefail
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 OLD_PERFGAUGE NEW_PERFGAUGE [WORK_DIR]" >&2
  exit 2
fi
old=$(realpath "$1")
new=$(realpath "$2")
for bin in "$old" "$new"; do
  [ -x "$bin" ] || { echo "$0: $bin: not an executable perfgauge" >&2; exit 2; }
done
source_dir=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -eq 3 ]; then
  work=$(realpath -m "$3"); mkdir -p "$work"; keep=1
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/perfgauge-history-diff.XXXXXX"); keep=0
fi
trap '[ "$keep" = 1 ] || rm -rf "$work"' EXIT

inputs="$work/inputs"
mkdir -p "$inputs"
/usr/bin/python3 - "$inputs" <<'PY'
import json, sys
out = sys.argv[1]
def gbench(host, level, step_run, run, step=1.25, spread=0.004):
    benchmarks = []
    for name, base, instr in (("BM_decode/1K", 1000.0, 3100.0), ("BM_decode/16K", 16000.0, 49000.0),
                              ("BM_copy/1K", 40.0, None)):
        for rep in range(5):
            # Deterministic noise: a small pattern per repetition and run.
            wiggle = 1 + spread * ((rep * 7 + run * 3) % 5 - 2)
            value = base * level * wiggle * (step if run >= step_run and name == "BM_decode/1K" else 1.0)
            b = {"name": name, "run_name": name, "run_type": "iteration", "repetitions": 5,
                 "repetition_index": rep, "threads": 1, "iterations": 1000,
                 "real_time": value, "cpu_time": value * 0.98, "time_unit": "ns"}
            if instr is not None:
                b["instructions"] = instr
            benchmarks.append(b)
    return {"context": {"date": "2026-12-07T10:%02d:00+00:00" % run, "host_name": host,
                        "executable": "./build/bench_varint", "num_cpus": 2, "mhz_per_cpu": 3000,
                        "library_build_type": "release"},
            "benchmarks": benchmarks}
for run in range(12):
    json.dump(gbench("node-a", 1.0, 8, run), open(f"{out}/a{run:02d}.json", "w"), indent=1)
for run in range(3):
    json.dump(gbench("node-b", 0.8, 99, run), open(f"{out}/b{run:02d}.json", "w"), indent=1)
# node-d: the newest run alone 30% slower (pending); node-e: 25% faster from run 8
# (improvement); node-f: the newest run's own interval wide (inconclusive).
for run in range(9):
    json.dump(gbench("node-d", 1.1, 8, run, 1.3), open(f"{out}/d{run:02d}.json", "w"))
for run in range(12):
    json.dump(gbench("node-e", 1.2, 8, run, 0.75), open(f"{out}/e{run:02d}.json", "w"))
for run in range(10):
    json.dump(gbench("node-f", 1.3, 99, run, 1.0, 0.15 if run == 9 else 0.004),
              open(f"{out}/f{run:02d}.json", "w"))
# A host-less file: refused without a machine label.
nohost = gbench("x", 1.0, 99, 0)
del nohost["context"]["host_name"]
json.dump(nohost, open(f"{out}/nohost.json", "w"))
open(f"{out}/broken.json", "w").write("{\"benchmarks\": [")
PY
cp "$source_dir/test/e2e/fixtures/small-run.json" "$inputs/run.json"
cp "$source_dir/test/harness/results/fixtures/stat-unversioned.json" "$inputs/stat.json"
# A stand-in Python for plot: answers the matplotlib check, keeps the series data it is given
# and writes a picture to its last argument. (Single quotes: the script's own "$1", not ours.)
# shellcheck disable=SC2016
printf '%s\n' '#!/bin/sh' '[ "$1" = -c ] && exit 0' \
  'cp "$2" series-drawn.json && for a; do last=$a; done; echo drawn > "$last"' > "$inputs/python"
chmod +x "$inputs/python"

# One case: NAME then the command's arguments after `perfgauge history`; its stdout, stderr and
# exit status go to OUT/NAME.
case_no=0
run_case() {
  local name=$1; shift
  case_no=$((case_no + 1))
  local file; file=$(printf '%s/%03d-%s' "$out" "$case_no" "$name")
  set +e
  (cd "$run" && "$bin" history "$@" >"$file.out" 2>"$file.err" </dev/null)
  echo "exit $?" >"$file.status"
  set -e
}
env_case() {  # NAME VAR=VALUE ARGS...: the same with one variable set
  local name=$1 var=$2; shift 2
  case_no=$((case_no + 1))
  local file; file=$(printf '%s/%03d-%s' "$out" "$case_no" "$name")
  set +e
  (cd "$run" && env "$var" "$bin" history "$@" >"$file.out" 2>"$file.err" </dev/null)
  echo "exit $?" >"$file.status"
  set -e
}

all_cases() {
  local i="$inputs"
  # The working directory is a git repository with one commit: add without --commit reads it.
  run_case help --help
  run_case no-subcommand
  run_case unknown-subcommand frobnicate
  run_case list-missing-store list --db history.db
  run_case add-broken add "$i/broken.json" --db history.db --commit c0
  run_case add-nohost add "$i/nohost.json" --db history.db --commit c0
  run_case add-nofile add --db history.db
  run_case add-bad-label add "$i/a00.json" --label nolabel --db history.db
  for n in 00 01 02 03 04 05 06 07; do
    run_case "add-a$n" add "$i/a$n.json" --db history.db --commit "c$n" --label team=perf -q
  done
  run_case add-git-head add "$i/a08.json" --db history.db -q
  run_case add-rest add "$i/a09.json" "$i/a10.json" "$i/a11.json" --db history.db --commit c09 -q
  run_case add-machine-b add "$i/b00.json" "$i/b01.json" "$i/b02.json" --db history.db --commit c09 -q
  run_case add-nohost-labelled add "$i/nohost.json" --label machine=node-c --db history.db --commit c10 -q
  run_case add-others add "$i"/d0?.json "$i"/e??.json "$i"/f0?.json --db history.db --commit c10 -q
  run_case add-run add "$i/run.json" --db history.db --commit c10 -q
  run_case add-stat add "$i/stat.json" --db history.db --commit c10 -q
  run_case add-stat-labelled add "$i/stat.json" --label machine=node-s --db history.db --commit c10
  run_case list list --db history.db
  run_case list-extra list extra --db history.db
  run_case show show --db history.db
  run_case show-regex show BM_decode --db history.db
  run_case show-instructions show 'BM_decode/1K' --metric instructions --db history.db
  run_case show-bad-metric show BM_ --metric instructons --db history.db
  run_case show-bad-regex show 'BM_(' --db history.db
  run_case show-no-match show nothing-matches --db history.db
  run_case show-two-regex show a b --db history.db
  run_case check check --db history.db
  run_case check-regex check BM_decode --metric time --db history.db
  run_case check-min-change check BM_ --min-change 0.1 --db history.db
  run_case check-min-change-big check BM_ --min-change 50 --db history.db
  run_case check-percent check --min-change 5% --db history.db
  run_case check-since check BM_ --since c05 --db history.db
  run_case check-since-bad check --since zz --db history.db
  run_case check-bad-metric check --metric nope --db history.db
  run_case check-false-alarms check BM_decode --false-alarms 0.5 --db history.db
  run_case check-false-alarms-bad check --false-alarms 2 --db history.db
  run_case compare compare BM_ --by machine --db history.db
  run_case compare-instructions compare BM_decode --by machine --metric instructions --db history.db
  run_case compare-reference compare BM_ --by machine --reference node-b --db history.db
  run_case compare-reference-bad compare BM_ --by machine --reference zz --db history.db
  run_case compare-commit compare BM_ --by machine --commit c09 --db history.db
  run_case compare-one-class compare BM_ --by machine --commit c01 --db history.db
  run_case compare-no-by compare BM_ --db history.db
  run_case compare-none-common compare varint --by machine --db history.db
  run_case export-csv export --db history.db
  run_case export-csv-regex export BM_copy --format csv --db history.db
  run_case export-json export BM_decode --format json --db history.db
  run_case export-file export --format json -o exported.json --db history.db
  run_case export-bad-format export --format xml --db history.db
  run_case export-over-store export -o history.db --db history.db
  env_case plot PERFGAUGE_PYTHON="$i/python" plot BM_decode -o plot.svg --db history.db
  cp "$run/series-drawn.json" "$out/file-series-first.json"
  env_case plot-metric PERFGAUGE_PYTHON="$i/python" plot BM_decode --metric instructions -o p.png --db history.db
  env_case plot-too-many PERFGAUGE_PYTHON="$i/python" plot -o p.png --db history.db
  run_case plot-bad-output plot BM_ -o p.pdf --db history.db
  run_case report report -o report-dir BM_decode --db history.db
  cp "$run/report-dir/index.html" "$out/file-report-first.html"
  run_case report-no-o report --db history.db
  run_case report-no-match report -o report2 nothing --db history.db
  run_case accept-no-reason accept c08 --db history.db
  run_case accept-bad-rev accept zz --reason "new compiler" --db history.db
  run_case accept-ambiguous accept c --reason "x" --db history.db
  run_case accept-bad-metric accept c09 --reason "x" --metric nope --db history.db
  run_case accept-bad-regex accept c09 --reason "x" nothing --db history.db
  run_case accept accept c09 --reason "the new table layout" BM_decode/1K --metric time --metric cpu-time --db history.db
  run_case check-after-accept check BM_decode --db history.db
  run_case report-after-accept report -o report-dir --db history.db
  cp "$run/report-dir/index.html" "$out/file-report-after-accept.html"
  run_case accept-every accept c10 --reason "every one" --db history.db
  run_case list-accepted list --db history.db
  run_case check-accepted check --db history.db
  run_case show-accepted show BM_decode/1K --db history.db
  env_case plot-accepted PERFGAUGE_PYTHON="$i/python" plot BM_decode/1K -o accepted.svg --db history.db
  run_case report-accepted report -o report-dir --db history.db
  run_case forget-bad forget x --db history.db
  run_case forget-negative forget -3 --db history.db
  run_case forget-missing forget 2 999 --db history.db
  run_case forget forget 3 --db history.db
  run_case list-forgot list --db history.db
  run_case db-bad-scheme list --db mysql://h/db
  run_case db-upper list --db POSTGRESQL://h/db
  run_case db-file-uri list --db file:history.db
  run_case db-empty list --db ''
  run_case db-space list --db ' history.db'
  run_case db-directory list --db .
  env_case db-env-bad PERFGAUGE_DB=sqlite:///x list
  env_case db-env PERFGAUGE_DB=history.db list
  env_case report-env-bad PERFGAUGE_DB=mysql://h/db report -o r3
  run_case db-not-sqlite list --db "$i/broken.json"
  run_case db-dev-null list --db /dev/null
}

for side in old new; do
  if [ "$side" = old ]; then bin=$old; else bin=$new; fi
  run="$work/run"
  out="$work/$side"
  rm -rf "$run" "$out"
  mkdir -p "$run" "$out"
  git -C "$run" init -q
  GIT_AUTHOR_DATE='2026-12-07T12:00:00Z' GIT_COMMITTER_DATE='2026-12-07T12:00:00Z' \
    git -C "$run" -c user.name=t -c user.email=t@example.com commit -q --allow-empty -m fixed
  case_no=0
  all_cases
  # What the commands wrote besides their output.
  cp "$run/exported.json" "$out/file-exported.json" 2>/dev/null || true
  cp "$run/series-drawn.json" "$out/file-series-drawn.json" 2>/dev/null || true
  cp "$run/report-dir/index.html" "$out/file-report.html" 2>/dev/null || true
  (cd "$run" && find . -mindepth 1 -maxdepth 1 ! -name .git -printf '%f\n' | sort) >"$out/files-left"
  # The times a store records when a run or an acceptance is added are the clock's.
  sed -i -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?(Z|[+-][0-9]{2}:?[0-9]{2})?/TIME/g' \
    "$out"/*
done
if diff -r "$work/old" "$work/new"; then
  cases=("$work"/old/*.status)
  echo "history before/after: ${#cases[@]} cases, no difference"
  exit 0
fi
echo "history before/after: the outputs differ (above)" >&2
exit 1
