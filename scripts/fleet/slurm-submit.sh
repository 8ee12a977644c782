#!/bin/bash
# Submits a fleet measurement to Slurm as any user who may submit jobs: a job array with one task
# per node of the partition, each task a whole node (--exclusive: nothing else runs beside the
# measurement), running measure-and-store.sh there, so that every node's result arrives in one
# history store.
#
#   slurm-submit.sh [--db URI] [--partition P] [--tasks N] [--wait] [--perfgauge PATH]
#       [--output-dir DIR] [-- MEASURE ARGS...]
#
# MEASURE ARGS are measure-and-store.sh's, passed to every task as they are (sbatch hands them
# to the script: no word is split or expanded): `run OPTIONS...`, `stat [OPTIONS] -- PROG ARGS`,
# `gbench BINARY FLAGS...`, with `--label K=V` before them; relative paths are taken from the
# directory this is run in (the tasks start there). The store is --db, else $PERFGAUGE_DB: it
# reaches the tasks in their environment (sbatch --export=ALL), not on a command line.
# --tasks defaults to the partition's node count (sinfo). Slurm places the tasks; on an idle
# partition of N nodes, N exclusive tasks land one per node (`perfgauge history list` shows
# each run's machine). Prints the job id; --wait returns when every task has ended: 0 when all
# completed, 1 (naming their states) when any did not. Slurm does the scheduling: nothing here
# retries or places work. A task whose result the store cannot take keeps it in
# $PERFGAUGE_RESULTS_DIR (default: --output-dir), named in its output and by --wait.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
usage="usage: slurm-submit.sh [--db URI] [--partition P] [--tasks N] [--wait] [--perfgauge PATH] [--output-dir DIR] [-- MEASURE ARGS...]"
db="${PERFGAUGE_DB:-}" partition="" tasks="" wait=0 perfgauge="${PERFGAUGE:-perfgauge}" output_dir="$PWD"
while [ "$#" -gt 0 ]; do
  case "$1" in
    --db|--partition|--tasks|--perfgauge|--output-dir)
      if [ "$#" -lt 2 ]; then echo "slurm-submit.sh: $1 needs a value; $usage" >&2; exit 2; fi ;;&
    --db) db="$2"; shift 2 ;;
    --partition) partition="$2"; shift 2 ;;
    --tasks) tasks="$2"; shift 2 ;;
    --wait) wait=1; shift ;;
    -h|--help) echo "$usage"; exit 0 ;;
    --perfgauge) perfgauge="$2"; shift 2 ;;
    --output-dir) output_dir="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "slurm-submit.sh: unknown option '$1' (the measurement's arguments go after --); $usage" >&2; exit 2 ;;
  esac
done
if [ -z "$db" ]; then
  echo "slurm-submit.sh: no store: give --db URI or set PERFGAUGE_DB (postgresql://user@host/db); $usage" >&2
  exit 2
fi
for tool in sbatch sinfo scontrol; do
  command -v "$tool" > /dev/null ||
    { echo "slurm-submit.sh: $tool not found: run this on a Slurm submit host (PATH with Slurm's commands)" >&2; exit 2; }
done
partition_args=()
if [ -n "$partition" ]; then partition_args=(--partition "$partition"); fi
if [ -z "$tasks" ]; then
  tasks="$(sinfo -h "${partition_args[@]}" -o %D | awk '{n += $1} END {print n + 0}')"
fi
case "$tasks" in
  ''|*[!0-9]*|0) echo "slurm-submit.sh: --tasks must be a positive count (got '$tasks')" >&2; exit 2 ;;
esac
if [ ! -d "$output_dir" ] || [ ! -w "$output_dir" ]; then
  echo "slurm-submit.sh: --output-dir $output_dir is not a writable directory: the tasks' output and kept results go there; create it or give another" >&2; exit 2
fi
output_dir="$(CDPATH='' cd -- "$output_dir" && pwd)"
# The measurement's arguments travel as the batch script's arguments, word for word; the store
# in the environment. A result the store could not take stays beside the tasks' output.
results_dir="${PERFGAUGE_RESULTS_DIR:-$output_dir}"
job="$(PERFGAUGE_DB="$db" PERFGAUGE="$perfgauge" PERFGAUGE_RESULTS_DIR="$results_dir" \
  sbatch --parsable --array="0-$((tasks - 1))" --exclusive "${partition_args[@]}" --export=ALL \
  --output="$output_dir/perfgauge-history-%A_%a.out" "$here/measure-and-store.sh" "$@")"
job="${job%%;*}"  # "ID;cluster" on a multi-cluster setup
echo "$job"
[ "$wait" = 1 ] || exit 0
# Until every task has ended, asking each second (sbatch --wait backs off to half a minute
# between its polls). Ended tasks stay in scontrol's view for MinJobAge (300 s by default).
while :; do
  states="$(scontrol -o show job "$job" | grep -o 'JobState=[A-Z_]*' | sort -u)" ||
    { echo "slurm-submit.sh: scontrol cannot show job $job" >&2; exit 1; }
  grep -qE '=(PENDING|RUNNING|COMPLETING|CONFIGURING|SUSPENDED|REQUEUED|RESIZING)$' <<< "$states" ||
    break
  sleep 1
done
if [ "$states" != "JobState=COMPLETED" ]; then
  ended="${states//JobState=/}"
  echo "slurm-submit.sh: job $job's tasks ended as: ${ended//$'\n'/ }" \
    "(their output: $output_dir/perfgauge-history-${job}_*.out)" >&2
  kept=("$results_dir"/perfgauge-result-*.json)
  if [ -e "${kept[0]}" ]; then
    echo "slurm-submit.sh: results not in the store, kept for a later history add" \
      "(each task's output says how):" "${kept[@]}" >&2
  fi
  exit 1
fi
