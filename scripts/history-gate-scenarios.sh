#!/usr/bin/env bash
# The history gate on real runs of this machine (a benchmark, not a test: its figures go to
# docs/measurements.md). Four scenarios, each in a store of its own, `history check` run after
# every add as a CI job runs it, each verdict line and exit status printed:
#   run    20 `perfgauge run` results, then 6 more with every time x1.10 (the files edited, so
#          the truth is known: the real runs carry the machine's own noise)
#   gbench a Google Benchmark binary's runs (perfgauge-bench-varint, 5 repetitions), then 4
#          with every time x3, on whatever load the machine has
#   stat   `perfgauge stat` of a loop of 20M iterations, 12 runs, then 6 of 22M (+10% work)
#   big    `history check` on a store of 10,000 runs (timed)
# Usage: scripts/history-gate-scenarios.sh [BUILD_DIR] [SCENARIO...]   (default build/, all)
set -euo pipefail
cd "$(dirname "$0")/.."
build=$(realpath "${1:-build}")
shift || true
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(run gbench stat big)
pg="$build/harness/perfgauge"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
py=/usr/bin/python3

# scale FILE FACTOR: every time in a perfgauge/Google Benchmark JSON result times FACTOR,
# every rate divided by it.
scale() {
  "$py" - "$1" "$2" <<'EOF'
import json, sys
path, f = sys.argv[1], float(sys.argv[2])
d = json.load(open(path))
times = ("real_time", "cpu_time", "perfgauge_ns_per_item", "perfgauge_cpu_ns_per_item",
         "perfgauge_raw_ns_per_item", "task-clock", "perfgauge_raw_task-clock")
for b in d["benchmarks"]:
    for k in times:
        if isinstance(b.get(k), (int, float)):
            b[k] *= f
    for k in ("items_per_second", "bytes_per_second"):
        if isinstance(b.get(k), (int, float)):
            b[k] /= f
json.dump(d, open(path, "w"))
EOF
}

# add_and_check STORE FILE LABEL...: add, then check; print the check's lines and exit status
add_and_check() {
  local db=$1 file=$2 name=$3
  shift 3
  "$pg" history add "$file" --db "$db" --commit "$name" "$@" >/dev/null
  local rc=0 out
  out=$("$pg" history check --db "$db" 2>&1) || rc=$?
  echo "-- after $name: exit $rc"
  printf '%s\n' "$out" | sed 's/^/   /'
}

scenario_run() {
  local db="$work/run.db"
  for i in $(seq -w 1 26); do
    "$pg" run --workload varint --variant branchy --cache hot --sizes 4K --max-time 0.5 \
      -e task-clock --backend perf --json "$work/r$i.json" >/dev/null 2>&1
    [ "$i" -le 20 ] || scale "$work/r$i.json" 1.10
    add_and_check "$db" "$work/r$i.json" "r$i"
  done
}

scenario_gbench() {
  local db="$work/gbench.db"
  for i in $(seq -w 1 14); do
    "$build/workloads/perfgauge-bench-varint" --benchmark_filter='branchy.*4096' \
      --benchmark_repetitions=5 --benchmark_min_time=0.05 \
      --benchmark_out="$work/g$i.json" --benchmark_out_format=json >/dev/null 2>&1
    [ "$i" -le 10 ] || scale "$work/g$i.json" 3
    add_and_check "$db" "$work/g$i.json" "g$i"
  done
}

scenario_stat() {
  local db="$work/stat.db"
  # The same command line every time (a series is named by it); LOOP_N says how much work.
  printf '#include <stdlib.h>\nint main(void) { volatile unsigned long s = 0;\n  unsigned long n = strtoul(getenv("LOOP_N"), 0, 10);\n  for (unsigned long i = 0; i < n; ++i) s += i;\n  return (int)(s & 1); }\n' >"$work/loop.c"
  cc -O1 -o "$work/loop" "$work/loop.c"
  for i in $(seq -w 1 18); do
    local n=20000000
    [ "$i" -le 12 ] || n=22000000  # +10% work from the 13th run on
    LOOP_N=$n "$pg" stat -r 5 -e task-clock --backend perf --format json -o "$work/s$i.json" \
      -- "$work/loop" >/dev/null 2>&1
    add_and_check "$db" "$work/s$i.json" "s$i"
  done
}

scenario_big() {
  local db="$work/big.db"
  "$py" - "$work" <<'EOF'
import json, os, random, sys
work = sys.argv[1]
random.seed(1)
template = {"context": {"host_name": "fleet-node", "date": "2026-12-07T00:00:00Z",
                        "num_cpus": 2, "library_build_type": "release"},
            "benchmarks": []}
os.makedirs(f"{work}/big", exist_ok=True)
for run in range(10000):
    d = dict(template)
    d["benchmarks"] = [{"name": f"bench{b}", "run_name": f"bench{b}", "run_type": "iteration",
                        "repetitions": 1, "repetition_index": 0, "threads": 1,
                        "iterations": 1000, "real_time": 100 * (1 + b) * random.lognormvariate(0, 0.02),
                        "cpu_time": 100 * (1 + b), "time_unit": "ns"} for b in range(3)]
    json.dump(d, open(f"{work}/big/{run:05d}.json", "w"))
EOF
  local start=$SECONDS
  find "$work/big" -name '*.json' | sort | xargs -n 1000 "$pg" history add --db "$db" --commit c >/dev/null
  echo "-- 10,000 runs added in $((SECONDS - start)) s"
  local rc=0
  /usr/bin/time -f '-- check: %e s wall, %M KiB max RSS' "$pg" history check --db "$db" >"$work/big.out" 2>"$work/big.err" || rc=$?
  tail -1 "$work/big.out"
  cat "$work/big.err"
  echo "-- exit $rc"
}

echo "history-gate-scenarios: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs, load $(cut -d' ' -f1 /proc/loadavg), commit $(git rev-parse --short HEAD)"
for s in "${scenarios[@]}"; do
  echo "== $s"
  "scenario_$s"
done
