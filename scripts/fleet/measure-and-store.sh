#!/bin/bash
# One machine's share of a fleet measurement: measures here, with any perfgauge command line or
# a Google Benchmark binary, and adds the result to one history store (PostgreSQL, so that every
# machine writes into the same one; a SQLite file works too). The same commands on every engine:
# a Slurm array task (slurm-submit.sh passes this file to sbatch), a CI matrix job
# (docs/recipes/ci/), or by hand. The machine's fingerprint comes with the result, so the store
# keeps each machine class's series apart; labels say which job and task measured.
#
#   measure-and-store.sh [OPTIONS] [run] [perfgauge run OPTIONS...]
#   measure-and-store.sh [OPTIONS] stat [perfgauge stat OPTIONS...] [--] PROG [ARGS...]
#   measure-and-store.sh [OPTIONS] gbench BINARY [BENCHMARK FLAGS...]
#
# OPTIONS (each also from the environment; an option wins over its variable):
#   --db URI            the store (PERFGAUGE_DB): postgresql://... or a SQLite path; required
#   --label K=V         a label, repeatable (PERFGAUGE_LABELS: one label per line)
#   --commit REV        the commit (PERFGAUGE_COMMIT; default: git HEAD of the current directory)
#   --results-dir DIR   where the result waits until stored (PERFGAUGE_RESULTS_DIR; default .)
#   --perfgauge PATH    the perfgauge binary (PERFGAUGE; default: perfgauge on PATH)
#
# run and stat get --json FILE (--quiet) and --format json -o FILE from this script; a Google
# Benchmark binary (with perfgauge's adapter or without) gets --benchmark_out=FILE
# --benchmark_out_format=json. Without a command word, the arguments are perfgauge run's options
# (or $PERFGAUGE_RUN_ARGS, whitespace-separated, when there are none). A Google Benchmark file
# records no CPU facts: history add files it by a machine=NAME label, else by its host name
# (give one in a CI container, whose host name changes every job). Labels are taken whole: a label may hold spaces, '*' or '$(...)', none of which is expanded.
#
# A measurement is never lost: the result is written to the results directory (default: the
# current directory, which outlives the job, unlike its $TMPDIR) and removed only once `history
# add` has stored it. When the measurement or the add fails, or the script is interrupted, the
# result stays there, the script names it and the command that adds it later, and exits
# non-zero: the failed command's status, 128+N when interrupted by signal N. Bad input (no store,
# a malformed label, a missing program, a results directory it cannot write) is refused before
# anything is measured, exit 2.
#SBATCH --job-name=perfgauge-history
#SBATCH --ntasks=1
set -uo pipefail
me="measure-and-store.sh"
usage="usage: $me [--db URI] [--label K=V]... [--commit REV] [--results-dir DIR] [--perfgauge PATH]
       [run [RUN OPTIONS...] | stat [STAT OPTIONS...] [--] PROG [ARGS...] | gbench BINARY [FLAGS...]]"
refuse() {  # WHY: bad input, nothing measured
  echo "$me: $1" >&2
  exit 2
}

db="${PERFGAUGE_DB:-}"
db_from_env=1
commit="${PERFGAUGE_COMMIT:-}"
results_dir="${PERFGAUGE_RESULTS_DIR:-$PWD}"
perfgauge="${PERFGAUGE:-perfgauge}"
labels=()
while IFS= read -r label; do
  [ -n "$label" ] && labels+=("$label")
done <<< "${PERFGAUGE_LABELS:-}"
while [ "$#" -gt 0 ]; do
  case "$1" in
    --db | --label | --commit | --results-dir | --perfgauge)
      [ "$#" -ge 2 ] || refuse "$1 needs a value; $usage" ;;&
    --db) db="$2" db_from_env=0 && shift 2 ;;
    --label) labels+=("$2") && shift 2 ;;
    --commit) commit="$2" && shift 2 ;;
    --results-dir) results_dir="$2" && shift 2 ;;
    --perfgauge) perfgauge="$2" && shift 2 ;;
    -h | --help) echo "$usage" && exit 0 ;;
    --) shift && break ;;
    *) break ;;
  esac
done
if [ "$#" -eq 0 ] && [ -n "${PERFGAUGE_RUN_ARGS:-}" ]; then
  read -r -a run_args <<< "$PERFGAUGE_RUN_ARGS"
  set -- "${run_args[@]}"
fi
case "${1:-}" in
  run | stat | gbench) command="$1" && shift ;;
  '' | -*) command=run ;;
  *) refuse "'$1' is not a command the fleet measures: give run [OPTIONS], stat [OPTIONS] -- PROG [ARGS], or gbench BINARY [FLAGS] (a Google Benchmark binary); $usage" ;;
esac

# Everything that can be refused is refused now, before a measurement that may take an hour.
[ -n "$db" ] ||
  refuse "no store: give --db URI or set PERFGAUGE_DB (postgresql://user@host/db, or a SQLite file)"
for label in "${labels[@]}"; do
  case "$label" in
    [!=]*=*) ;;
    *) refuse "label '$label' is not KEY=VALUE (a key, '=', then the value); fix it in --label or PERFGAUGE_LABELS" ;;
  esac
done
command -v -- "$perfgauge" > /dev/null ||
  refuse "perfgauge not found as '$perfgauge': give --perfgauge PATH or set PERFGAUGE (it adds the result to the store)"
if [ "$command" = gbench ]; then
  [ "$#" -gt 0 ] || refuse "gbench needs the Google Benchmark binary to run; $usage"
  binary="$(command -v -- "$1")" && [ -f "$binary" ] ||
    refuse "gbench: '$1' is not an executable file (nor a command on PATH): give the path of the Google Benchmark binary"
  shift
  for flag in "$@"; do
    case "$flag" in
      --benchmark_out=* | --benchmark_out | --benchmark_out_format*)
        refuse "gbench: drop '$flag': this script writes the binary's JSON itself (--benchmark_out=FILE in the results directory)" ;;
    esac
  done
fi
if [ "$command" = stat ] && [ "$#" -eq 0 ]; then
  refuse "stat needs the program to measure: stat [OPTIONS] -- PROG [ARGS...]"
fi
if [ ! -d "$results_dir" ]; then
  refuse "results directory '$results_dir' (--results-dir or PERFGAUGE_RESULTS_DIR) is not a directory: a result the store cannot take would have nowhere to stay; create it or point at one"
fi
# Absolute, so that the command printed to add a kept result works from any directory.
absolute="$(CDPATH='' cd -- "$results_dir" 2> /dev/null && pwd)" ||
  refuse "results directory '$results_dir' cannot be entered: give a directory you can write"
results_dir="$absolute"
probe="$(mktemp "$results_dir/.perfgauge-probe.XXXXXX" 2> /dev/null)" ||
  refuse "results directory '$results_dir' (--results-dir or PERFGAUGE_RESULTS_DIR) is not writable here: a result the store cannot take would have nowhere to stay; point it at a directory you can write"
rm -f -- "$probe"

# A name of its own (perfgauge would put an interrupted run beside an existing file).
host="$(hostname -s 2> /dev/null || echo host)"
result="$results_dir/perfgauge-result-$host-$(date -u +%Y%m%dT%H%M%SZ)-$$.json"
for n in 2 3 4 5 6 7 8 9; do
  [ -e "$result" ] || break
  result="${result%.json}-$n.json"
done
case "$command" in
  run) measure=("$perfgauge" run "$@" --quiet --json "$result") what="perfgauge run" ;;
  stat) measure=("$perfgauge" stat --format json -o "$result" "$@") what="perfgauge stat" ;;
  gbench)
    measure=("$binary" "$@" --benchmark_out="$result" --benchmark_out_format=json)
    what="$binary" ;;
esac

[ -n "${SLURM_JOB_ID:-}" ] &&
  labels+=("slurm_job=${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}" "slurm_task=${SLURM_ARRAY_TASK_ID:-0}")
[ -n "${GITHUB_RUN_ID:-}" ] && labels+=("ci_run=$GITHUB_RUN_ID" "ci_job=${GITHUB_JOB:-}")
[ -n "${GITLAB_CI:-}" ] && labels+=("ci_run=${CI_PIPELINE_ID:-}" "ci_job=${CI_JOB_NAME:-}")
add=("$perfgauge" history add "$result" "--db=$db")
# The command that adds a kept result later, quoted for the shell, never with a password.
retry=("$(printf '%q' "$perfgauge")" history add "$(printf '%q' "$result")")
for label in "${labels[@]}"; do
  add+=("--label=$label")
  retry+=("--label=$(printf '%q' "$label")")
done
if [ -n "$commit" ]; then
  add+=("--commit=$commit")
  retry+=("--commit=$(printf '%q' "$commit")")
fi
case "$db_from_env:$db" in
  1:*) retry+=('--db="$PERFGAUGE_DB"') ;;
  0:*://*:*@* | 0:*password=*)
    retry+=('--db="$PERFGAUGE_DB"' "(with PERFGAUGE_DB set to the store's URI: its password is not printed)") ;;
  *) retry+=("--db=$(printf '%q' "$db")") ;;
esac

kept() {  # STATUS WHY: the result stays where it is, said with the command that adds it
  echo "$me: $2; the result is kept at $result; add it later with: ${retry[*]}" >&2
  exit "$1"
}
interrupted() {  # SIGNAL NUMBER
  trap - INT TERM HUP
  # Google Benchmark opens its output first and writes it at the end: empty is nothing.
  [ -e "$result" ] && [ ! -s "$result" ] && rm -f -- "$result"
  if [ -e "$result" ]; then
    kept $((128 + $2)) "interrupted by $1"
  fi
  echo "$me: interrupted by $1 before a result was written" >&2
  exit $((128 + $2))
}
trap 'interrupted SIGINT 2' INT
trap 'interrupted SIGTERM 15' TERM
trap 'interrupted SIGHUP 1' HUP

"${measure[@]}"
status=$?
if [ "$status" != 0 ]; then
  [ -e "$result" ] && [ ! -s "$result" ] && rm -f -- "$result"
  [ -e "$result" ] && kept "$status" "$what failed (exit $status) after writing its result"
  hint=""
  [ "$status" = 2 ] && [ "$command" != gbench ] &&
    hint=" (exit 2: $what refused its command line, its message is above; this script gives it the result file itself, so leave out --json, --format and -o)"
  echo "$me: $what failed (exit $status) and wrote no result$hint" >&2
  exit "$status"
fi
[ -s "$result" ] || { echo "$me: $what exited 0 but wrote no result to $result" >&2 && exit 1; }
"${add[@]}"
status=$?
[ "$status" = 0 ] || kept "$status" "perfgauge history add failed (exit $status)"
# Stored: the file has done its job (a signal now would only misreport it).
trap '' INT TERM HUP
rm -f -- "$result" ||
  echo "$me: stored, but could not remove $result (remove it by hand: it is in the store)" >&2
