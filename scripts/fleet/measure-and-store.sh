#!/bin/bash
# One machine's share of a fleet measurement: runs a perfgauge selection here and adds the
# result to one history store (PostgreSQL, so that every machine writes into the same one).
# The same commands on every engine: a Slurm array task (submit with slurm-submit.sh, which
# passes this file to sbatch), a CI matrix job (docs/recipes/github-actions-history.yml), or by
# hand. The machine's fingerprint comes with the result (perfgauge records it), so the store
# keeps each machine class's series apart; labels say which job and task measured.
#
#   PERFGAUGE_DB=postgresql://... [PERFGAUGE=path/to/perfgauge] [PERFGAUGE_COMMIT=REV] \
#   [PERFGAUGE_LABELS="k=v<newline>k=v"] [PERFGAUGE_RESULTS_DIR=DIR] \
#   scripts/fleet/measure-and-store.sh [perfgauge run OPTIONS...]
#
# The options are perfgauge run's (the selection: --workload, --sizes, -e, ...), also taken
# from $PERFGAUGE_RUN_ARGS (whitespace-separated) when there are none: sbatch passes the
# environment to every array task. The commit defaults to the git HEAD of the directory the
# job runs in (history add's default). PERFGAUGE_LABELS holds one label per line, each taken
# whole: a label may hold spaces, '*' or '$(...)', none of which is expanded.
#
# A measurement is never lost: the result is written to PERFGAUGE_RESULTS_DIR (default: the
# current directory, which outlives the job, unlike its $TMPDIR) and removed only once
# `history add` has stored it. When the run or the add fails, or the script is interrupted, the
# result stays there, the script names it and the command that adds it later, and exits
# non-zero: perfgauge's status (the first that failed), 128+N when interrupted.
#SBATCH --job-name=perfgauge-history
#SBATCH --ntasks=1
set -uo pipefail
me="measure-and-store.sh"
if [ -z "${PERFGAUGE_DB:-}" ]; then
  echo "$me: set PERFGAUGE_DB to the history store (postgresql://...)" >&2
  exit 2
fi
perfgauge="${PERFGAUGE:-perfgauge}"
if [ "$#" -eq 0 ] && [ -n "${PERFGAUGE_RUN_ARGS:-}" ]; then
  read -r -a run_args <<< "$PERFGAUGE_RUN_ARGS"
  set -- "${run_args[@]}"
fi
results_dir="${PERFGAUGE_RESULTS_DIR:-$PWD}"
if [ ! -d "$results_dir" ] || [ ! -w "$results_dir" ]; then
  echo "$me: PERFGAUGE_RESULTS_DIR=$results_dir is not a writable directory: the result" \
    "would have nowhere to stay if the store cannot take it; point it at one" >&2
  exit 2
fi
# A name of its own (perfgauge would put an interrupted run beside an existing file).
host="$(hostname -s 2> /dev/null || echo host)"
result="$results_dir/perfgauge-result-$host-$(date -u +%Y%m%dT%H%M%SZ)-$$.json"
for n in 2 3 4 5 6 7 8 9; do
  [ -e "$result" ] || break
  result="${result%.json}-$n.json"
done

labels=()
if [ -n "${SLURM_JOB_ID:-}" ]; then
  labels+=("slurm_job=${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}" "slurm_task=${SLURM_ARRAY_TASK_ID:-0}")
fi
if [ -n "${GITHUB_RUN_ID:-}" ]; then
  labels+=("ci_run=$GITHUB_RUN_ID" "ci_job=${GITHUB_JOB:-}")
fi
while IFS= read -r label; do
  [ -n "$label" ] && labels+=("$label")
done <<< "${PERFGAUGE_LABELS:-}"
add=(history add "$result" --db "$PERFGAUGE_DB")
retry=("$perfgauge" history add "$result" --db '"$PERFGAUGE_DB"')  # no password in the log
for label in "${labels[@]}"; do
  add+=(--label "$label")
  retry+=(--label "$(printf '%q' "$label")")
done
if [ -n "${PERFGAUGE_COMMIT:-}" ]; then
  add+=(--commit "$PERFGAUGE_COMMIT")
  retry+=(--commit "$(printf '%q' "$PERFGAUGE_COMMIT")")
fi
retry[0]="$(printf '%q' "$perfgauge")"
retry[3]="$(printf '%q' "$result")"

kept() {  # STATUS WHY: the result stays where it is, said with the command that adds it
  echo "$me: $2; the result is kept at $result; add it later with: ${retry[*]}" >&2
  exit "$1"
}
interrupted() {  # SIGNAL NUMBER
  trap - INT TERM HUP
  if [ -e "$result" ]; then
    kept $((128 + $2)) "interrupted by $1"
  fi
  echo "$me: interrupted by $1 before a result was written" >&2
  exit $((128 + $2))
}
trap 'interrupted SIGINT 2' INT
trap 'interrupted SIGTERM 15' TERM
trap 'interrupted SIGHUP 1' HUP

"$perfgauge" run "$@" --quiet --json "$result"
status=$?
if [ "$status" != 0 ]; then
  [ -e "$result" ] && kept "$status" "perfgauge run failed (exit $status)"
  echo "$me: perfgauge run failed (exit $status) and wrote no result" >&2
  exit "$status"
fi
"$perfgauge" "${add[@]}"
status=$?
[ "$status" = 0 ] || kept "$status" "perfgauge history add failed (exit $status)"
# Stored: the file has done its job.
rm -f -- "$result" ||
  echo "$me: stored, but could not remove $result (remove it by hand: it is in the store)" >&2
