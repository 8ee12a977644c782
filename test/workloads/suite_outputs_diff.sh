#!/usr/bin/env bash
# Two perfgauge builds make the same suites: `perfgauge list` byte for byte, and small
# `perfgauge run` selections (--json) with the same benchmark names, keys (params), sizes (items
# and bytes per iteration), workload context, warnings and notes, and exit status; timings aside.
# For a change that must not change behaviour (issue 52: the workloads in two rooms).
# Usage: test/workloads/suite_outputs_diff.sh OLD_PERFGAUGE NEW_PERFGAUGE
# Prints each selection's diff (none: the same) and exits 1 if any differs, 2 on bad usage.
set -uo pipefail
if [ $# -ne 2 ] || [ ! -x "$1" ] || [ ! -x "$2" ]; then
  echo "usage: $0 OLD_PERFGAUGE NEW_PERFGAUGE (two perfgauge executables)" >&2
  exit 2
fi
# shellcheck disable=SC2034  # both are read as ${!side}
old=$1 new=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/suite-outputs.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Few short samples of software events only: the suite is under test, not the machine.
fast=(-e task-clock --backend perf -r 3 --precision 0 --min-time 0.0001 --warmup 0 -q)
selections=(
  "--sizes 4K,64K --cache hot,cold,flush --variant all --shape end-on-end,one-shot --dist log-uniform,fixed2 --l3 1M"
  "--workload varint --variant branchy,bmi2 --cache hot,cold --dist uniform --l1d 32K --l2 256K --l3 2M"
  "--workload memcpy --sizes 1K --cache flush --dist fixed5 --data-seed 7"
  "--workload varint --variant branchy --sizes 16K --cache cold"
  "--workload varint --variant branchy --shape one-shot --cache cold"
  "--workload strlen"
  # --against plans its pairs from the benchmarks' names and keys (enumerate); @SELF@ is the
  # side's own binary.
  "--workload varint,memcpy --variant branchy --sizes 4K,16K --cache hot,cold --dist fixed3 --pairs 3 --against @SELF@ --against-json none"
)
# What a run's JSON says of its suite, not of its timings nor of the machine's load: the
# warnings about samples, load and interruptions are left out, and the measured code's flags
# are a line of their own (they differ between a profiling and a --for-tests build).
summary='
import json, re, sys
r = json.load(open(sys.argv[1]))
p = r["context"]["perfgauge"]
context = dict(p["workload_context"])
print("cxx_flags", context.pop("cxx_flags", None))
print("workload_context", json.dumps(context, sort_keys=True))
timing = re.compile(r"^(load|interruptions):|disturbed|precision target|during this run|slower|faster")
print("warnings", json.dumps([w for w in p["warnings"] if not timing.search(w)]))
for b in r["benchmarks"]:
    if b.get("run_type") == "aggregate":
        print(b["name"], json.dumps(b.get("perfgauge_params"), sort_keys=True),
              b["perfgauge_items_per_iteration"], b["perfgauge_bytes_per_iteration"])
'
differ=0
for side in old new; do
  bin=${!side}
  mkdir "$work/$side"  # the same file names on both sides (stderr names the result file)
  (cd "$work/$side" && "$bin" list > ../"$side.list" 2>&1; echo "exit $?" >> ../"$side.list")
  for i in "${!selections[@]}"; do
    # shellcheck disable=SC2086  # a selection is words
    (cd "$work/$side" && "$bin" run ${selections[$i]//@SELF@/$bin} "${fast[@]}" --json "run$i.json" \
      -o /dev/null 2> "run$i.err"; echo "exit $?" > ../"$side.$i.out")
    # The notes perfgauge says, timing figures masked (the time breakdown, a probe's ns).
    sed -E 's/[0-9]+(\.[0-9]+)? ?(ns|s|ms|us)\b/N \2/g' "$work/$side/run$i.err" >> "$work/$side.$i.out"
    if [ -s "$work/$side/run$i.json" ]; then
      /usr/bin/python3 -c "$summary" "$work/$side/run$i.json" >> "$work/$side.$i.out"
    fi
  done
done
echo "== perfgauge list"
diff "$work/old.list" "$work/new.list" || differ=1
for i in "${!selections[@]}"; do
  echo "== perfgauge run ${selections[$i]} ($(grep -c '' "$work/new.$i.out") lines, $(head -1 "$work/new.$i.out"))"
  diff "$work/old.$i.out" "$work/new.$i.out" || differ=1
done
exit $differ
