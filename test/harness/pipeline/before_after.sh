#!/usr/bin/env bash
# Before/after check of a change meant to keep run's and stat's behaviour (issue 52's "no
# behaviour change"): two perfgauge builds, the same invocations, compared.
#   - every usage error of run's and stat's options: stdout, stderr and exit status, byte for
#     byte;
#   - run (a small selection, natively and under --backend sim) and stat: the JSON's structure
#     (keys, benchmark and event names, units, sources, notes with their digits masked: times
#     differ), and the simulated counts exactly (callgrind is deterministic);
#   - run --against across the two builds, both ways (the request each build hands the other's
#     children): exit 0 and the comparison's structure.
# Usage: test/harness/pipeline/before_after.sh OLD_PERFGAUGE NEW_PERFGAUGE
# Prints one line per case (same / DIFFERENT, with a diff) and exits 1 when any differs.
# Not a ctest test: it needs two builds, and takes a few minutes (valgrind).
set -uo pipefail
if [[ $# -ne 2 ]]; then
  echo "usage: $0 OLD_PERFGAUGE NEW_PERFGAUGE" >&2
  exit 2
fi
old="$(realpath "$1")" new="$(realpath "$2")"
for exe in "$old" "$new"; do
  [[ -x "$exe" ]] || { echo "$0: $exe: not an executable perfgauge" >&2; exit 2; }
done
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/perfgauge-before-after.XXXXXX")"
trap 'rm -rf "$work"' EXIT
failed=0

# One invocation under both builds, from the same empty directory (messages name paths).
# $1: the case's name; the rest: perfgauge's arguments. PERFGAUGE stands for the build itself.
same_error() {
  local name="$1"; shift
  local side
  for side in old new; do
    local exe; [[ $side == old ]] && exe="$old" || exe="$new"
    rm -rf "$work/cwd" && mkdir -p "$work/cwd"
    local args=("${@//PERFGAUGE/$exe}")
    (cd "$work/cwd" && "$exe" "${args[@]}" >"$work/$side.out" 2>"$work/$side.err" </dev/null
     echo "exit $?" >"$work/$side.status")
    # The build's own path is the one difference allowed, and the memory available now.
    sed -i -E "s#$exe#PERFGAUGE#g; s#but only [^)]*\) is available#but only N is available#" \
      "$work/$side.out" "$work/$side.err"
  done
  if cmp -s "$work/old.out" "$work/new.out" && cmp -s "$work/old.err" "$work/new.err" &&
     cmp -s "$work/old.status" "$work/new.status"; then
    echo "same       $name ($(cat "$work/new.status"))"
  else
    echo "DIFFERENT  $name"
    diff <(cat "$work/old.status" "$work/old.out" "$work/old.err") \
         <(cat "$work/new.status" "$work/new.out" "$work/new.err") | head -20
    failed=1
  fi
}

# One invocation writing JSON (to RESULT) under both builds, compared by structure.
# $1: the case's name, $2: what to keep exactly (structure/counts); the rest: the arguments.
same_structure() {
  local name="$1" exact="$2"; shift 2
  local side
  for side in old new; do
    local exe; [[ $side == old ]] && exe="$old" || exe="$new"
    local other; [[ $side == old ]] && other="$new" || other="$old"
    rm -rf "$work/cwd" && mkdir -p "$work/cwd"
    local args=("${@//OTHER/$other}")
    args=("${args[@]//RESULT/$work/$side.json}")
    (cd "$work/cwd" && "$exe" "${args[@]}" >"$work/$side.out" 2>"$work/$side.err" </dev/null
     echo "exit $?" >"$work/$side.status")
    /usr/bin/python3 "$here/json_structure.py" "$exact" "$work/$side.json" >"$work/$side.shape" \
      2>&1
    sed -i "s#$exe#PERFGAUGE#g; s#$other#OTHER#g" "$work/$side.shape"
  done
  if cmp -s "$work/old.shape" "$work/new.shape" && cmp -s "$work/old.status" "$work/new.status"
  then
    echo "same       $name ($(cat "$work/new.status"), $(wc -l <"$work/new.shape") lines)"
  else
    echo "DIFFERENT  $name"
    diff <(cat "$work/old.status" "$work/old.shape") <(cat "$work/new.status" "$work/new.shape") |
      head -30
    tail -n 5 "$work/old.err" "$work/new.err"
    failed=1
  fi
}

quick=(--workload memcpy --sizes 4K --cache hot -r 2 --max-time 0.01 --warmup 0 --json none)

# run: every option's refusals.
same_error "run --help" run --help
same_error "run bad option" run --no-such-option
same_error "run --workload" run --workload varint,nope
same_error "run --variant" run --variant brachy
same_error "run --dist" run --dist fixed9
same_error "run --shape" run --shape one-shoot
same_error "run --cache" run --cache warm
same_error "run --cache empty name" run --cache hot,,cold
same_error "run --sizes" run --sizes 4Q
same_error "run --sizes empty" run --sizes ""
same_error "run --sizes zero" run --sizes 0
same_error "run --sizes too large" run --sizes 1000000G --workload memcpy
same_error "run --l1d" run --l1d x
same_error "run --l2" run --l2 -1
same_error "run --l3" run --l3 1.5K
same_error "run -r 0" run -r 0
same_error "run -r 1 (processes)" run -r 1
same_error "run --repetitions x" run --repetitions x
same_error "run --precision" run --precision 100
same_error "run --max-time" run --max-time -1
same_error "run --max-time inf" run --max-time inf
same_error "run --min-time" run --min-time 0
same_error "run --warmup" run --warmup 61
same_error "run --processes" run --processes 65
same_error "run --seed" run --seed -3
same_error "run --data-seed" run --data-seed x
same_error "run --pin" run --pin 100000
same_error "run --events" run "${quick[@]}" -e no-such-event
same_error "run --backend" run --backend gpu
same_error "run --format" run --format yaml
same_error "run --sim-items" run --sim-items 0
same_error "run --sim-jobs" run --sim-jobs 257
same_error "run --json empty" run --json ""
same_error "run --json -" run --json -
same_error "run --json /dev/stdout" run --json /dev/stdout
same_error "run -o over perfgauge" run -o PERFGAUGE
same_error "run --json dir" run --json /nonexistent-dir/x.json
same_error "run --pairs without --against" run --pairs 4
same_error "run --against-json without --against" run --against-json x.json
same_error "run --against missing" run --against ./no-such-build
same_error "run --against dir" run --against /tmp
same_error "run --against --pairs" run --against PERFGAUGE --pairs 2
same_error "run --against --max-pairs" run --against PERFGAUGE --pairs 6 --max-pairs 5
same_error "run --against --pair-precision" run --against PERFGAUGE --pair-precision 0
same_error "run --against -r" run --against PERFGAUGE -r 3
same_error "run --against --processes" run --against PERFGAUGE --processes 3
same_error "run --against --sim-jobs" run --against PERFGAUGE --sim-jobs 2
same_error "run --against --backend sim" run --against PERFGAUGE --backend sim
same_error "run --against itself as output" run --against PERFGAUGE --json PERFGAUGE
same_error "run --internal-sim-child" run --internal-sim-child=/tmp/x.json
same_error "run --internal-measure-child" run --internal-measure-child=x
same_error "run --internal-request garbage" run --internal-request=garbage
same_error "run --internal-request format 2" run '--internal-request={"perfgauge_request":2}'
same_error "run --internal-request no role" run '--internal-request={"perfgauge_request":1}'

# stat: every option's refusals.
same_error "stat --help" stat --help
same_error "stat no command" stat
same_error "stat bad option" stat --no-such-option -- true
same_error "stat -e" stat -e no-such-event -- true
same_error "stat -r 0" stat -r 0 -- true
same_error "stat --warmup" stat --warmup -1 -- true
same_error "stat --delay" stat --delay -5 -- true
same_error "stat --delay with --markers" stat --delay 5 --markers -- true
same_error "stat --delay simulated" stat --delay 5 --backend sim -e instructions -- true
same_error "stat --format" stat --format yaml -- true
same_error "stat --backend" stat --backend gpu -- true
same_error "stat --sim-budget" stat --sim-budget -1 -- true
same_error "stat -o empty" stat -o "" -- true
same_error "stat -o over the command" stat -o /bin/true -- /bin/true
same_error "stat empty side" stat -- true ::: 
same_error "stat missing command" stat -- ./no-such-command

# run and stat: the results' structure, and simulated counts exactly.
same_structure "run --format json, 2 processes" structure \
  run --workload memcpy,varint --variant branchy --sizes 4K,64K --cache hot,cold -r 2 \
  --max-time 0.02 --warmup 0 -e task-clock,context-switches --json RESULT -q
same_structure "run --processes 1, --format json to -o" structure \
  run --workload varint --variant branchy,bmi2 --sizes 4K --cache hot -r 3 --processes 1 \
  --max-time 0.02 --warmup 0 --format json -o RESULT --json none
same_structure "run --backend sim: counts" counts \
  run --workload memcpy,varint --variant branchy --sizes 4K --cache hot -r 2 --max-time 0.01 \
  --warmup 0 -e instructions,branches,L1-dcache-load-misses --backend sim --sim-items 2000 \
  --sim-jobs 1 --json RESULT -q
same_structure "stat --format json" structure \
  stat -e task-clock,context-switches -r 2 --format json -o RESULT -- true
same_structure "stat side by side" structure \
  stat -e task-clock -r 2 --format json -o RESULT -- true ::: sleep 0
same_structure "stat --backend sim: counts" counts \
  stat -e instructions,branches --backend sim --format json -o RESULT -- true
same_structure "run --against the other build" structure \
  run --against OTHER --workload memcpy --sizes 4K --cache hot -r 3 --pairs 3 --max-time 0.02 \
  --warmup 0 --format json -o RESULT --json none --against-json none -q

exit $failed
