#!/bin/bash
# One machine's share of a fleet measurement: runs a perfgauge selection here and adds the
# result to one history store (PostgreSQL, so that every machine writes into the same one).
# The same commands on every engine: a Slurm array task (submit with slurm-submit.sh, which
# passes this file to sbatch), a CI matrix job (docs/recipes/github-actions-history.yml), or by
# hand. The machine's fingerprint comes with the result (perfgauge records it), so the store
# keeps each machine class's series apart; labels say which job and task measured.
#
#   PERFGAUGE_DB=postgresql://... [PERFGAUGE=path/to/perfgauge] [PERFGAUGE_COMMIT=REV] \
#   [PERFGAUGE_LABELS="k=v k=v"] scripts/fleet/measure-and-store.sh [perfgauge run OPTIONS...]
#
# The options are perfgauge run's (the selection: --workload, --sizes, -e, ...), also taken
# from $PERFGAUGE_RUN_ARGS (whitespace-separated) when there are none: sbatch passes the
# environment to every array task. The commit defaults to the git HEAD of the directory the
# job runs in (history add's default). Exit status: perfgauge's (the first that failed).
#SBATCH --job-name=perfgauge-history
#SBATCH --ntasks=1
set -euo pipefail
if [ -z "${PERFGAUGE_DB:-}" ]; then
  echo "measure-and-store.sh: set PERFGAUGE_DB to the history store (postgresql://...)" >&2
  exit 2
fi
perfgauge="${PERFGAUGE:-perfgauge}"
if [ "$#" -eq 0 ] && [ -n "${PERFGAUGE_RUN_ARGS:-}" ]; then
  read -r -a run_args <<< "$PERFGAUGE_RUN_ARGS"
  set -- "${run_args[@]}"
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/perfgauge-fleet.XXXXXX")"
trap 'rm -rf "$work"' EXIT
"$perfgauge" run "$@" --quiet --json "$work/result.json" > "$work/table.txt"

add=("$perfgauge" history add "$work/result.json" --db "$PERFGAUGE_DB")
if [ -n "${SLURM_JOB_ID:-}" ]; then
  add+=(--label "slurm_job=${SLURM_ARRAY_JOB_ID:-$SLURM_JOB_ID}"
        --label "slurm_task=${SLURM_ARRAY_TASK_ID:-0}")
fi
if [ -n "${GITHUB_RUN_ID:-}" ]; then
  add+=(--label "ci_run=$GITHUB_RUN_ID" --label "ci_job=${GITHUB_JOB:-}")
fi
for label in ${PERFGAUGE_LABELS:-}; do
  add+=(--label "$label")
done
if [ -n "${PERFGAUGE_COMMIT:-}" ]; then
  add+=(--commit "$PERFGAUGE_COMMIT")
fi
"${add[@]}"
