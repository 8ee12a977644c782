#!/bin/bash
# The Slurm fleet recipe end to end on this machine: a PostgreSQL server, munged, slurmctld and
# slurmd started here from a minimal slurm.conf in a temporary directory (SlurmUser root,
# proctrack/linuxproc, select/cons_tres), then scripts/fleet/slurm-submit.sh submits an
# 8-task array of tiny perfgauge runs and waits: every task's run must arrive in the store,
# labelled with its task. Every daemon started here is stopped on the way out, also on failure
# (trap), and dies with this script if it is killed (setpriv --pdeathsig).
#
# usage: slurm_fleet_test.sh PERFGAUGE SOURCE_DIR        (root: slurmd launches the jobs)
set -euo pipefail
perfgauge="$(realpath "$1")"
source_dir="$(realpath "$2")"
tasks=8

fail() { echo "slurm_fleet_test: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (slurmd runs as root to launch the jobs; CI runs as root)"
for tool in slurmctld slurmd sbatch sinfo munged mungekey setpriv; do
  command -v "$tool" > /dev/null || PATH="$PATH:/usr/sbin" command -v "$tool" > /dev/null ||
    fail "$tool is missing: scripts/install-deps.sh installs slurm-wlm and munge"
done
export PATH="$PATH:/usr/sbin"
pg_bin="$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2> /dev/null | sort -V | tail -n 1)"
[ -x "$pg_bin/postgres" ] || fail "PostgreSQL server not found: install Debian's postgresql"

dir="$(mktemp -d /tmp/perfgauge-slurm.XXXXXX)"
chmod 755 "$dir"
pids=()
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2> /dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null || true; done
  if [ "$status" != 0 ]; then
    for log in "$dir"/*.log "$dir"/out/*.out; do
      [ -f "$log" ] && { echo "---- $log"; tail -n 20 "$log"; }
    done >&2
  fi
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE
# Started in the background, stopped by cleanup, and killed with this script (pdeathsig).
# setpriv's own options go first: a later change of user would clear the death signal.
daemon() { setpriv "$@" >> "$dir/daemons.log" 2>&1 & pids+=("$!"); }
free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
wait_until() {  # SECONDS WHAT COMMAND...
  local deadline=$((SECONDS + $1)) what="$2"; shift 2
  until "$@" > /dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] || fail "$what did not happen within the time allowed"
    sleep 0.2
  done
}

# PostgreSQL, as nobody (it refuses root), listening on a Unix socket only.
mkdir "$dir/pg" && chown nobody "$dir/pg"
as_nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
"${as_nobody[@]}" "$pg_bin/initdb" -D "$dir/pg/data" -A trust -U postgres --no-sync \
  --no-instructions > "$dir/initdb.log" 2>&1 || fail "initdb failed"
daemon --reuid=nobody --regid=nogroup --clear-groups --pdeathsig INT \
  "$pg_bin/postgres" -D "$dir/pg/data" -k "$dir/pg" -p 5432 \
  -c listen_addresses= -c fsync=off > "$dir/postgres.log" 2>&1
db="postgresql:///postgres?host=$dir/pg&port=5432&user=postgres"
wait_until 30 "postgres accepting connections" "$pg_bin/pg_isready" -h "$dir/pg" -p 5432

# munge, with a key of its own and its socket here.
mungekey --create --keyfile="$dir/munge.key"
daemon --pdeathsig TERM munged --foreground --force --key-file="$dir/munge.key" \
  --socket="$dir/munge.sock" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge.seed"
wait_until 10 "munged's socket" test -S "$dir/munge.sock"

node="$(hostname -s)"
mkdir "$dir/state" "$dir/spool" "$dir/out"
cat > "$dir/slurm.conf" << CONF
ClusterName=perfgauge
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
AuthType=auth/munge
AuthInfo=socket=$dir/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=fleet Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
daemon --pdeathsig TERM slurmctld -D -f "$SLURM_CONF"
daemon --pdeathsig TERM slurmd -D -f "$SLURM_CONF"
wait_until 30 "the node idle in Slurm" bash -c 'sinfo -h -o %t | grep -qx idle'

# The recipe, as a user runs it (tiny runs: one benchmark, task-clock only, three samples).
# Its tasks are exclusive, so on this one node they run one after another.
started=$SECONDS
cd "$dir"
PERFGAUGE="$perfgauge" "$source_dir/scripts/fleet/slurm-submit.sh" --db "$db" --tasks "$tasks" \
  --wait --output-dir "$dir/out" -- --workload varint --variant branchy --cache hot \
  --sizes 4K -e task-clock -r 3 --max-time 0.05 --processes 1 --warmup 0 --precision 0 \
  > "$dir/job_id" || fail "the array job failed (sbatch --wait)"
echo "slurm_fleet_test: the $tasks-task array ran in $((SECONDS - started)) s"

# Every task's run arrived, once, with its task's label.
list="$("$perfgauge" history list --db "$db")" || fail "history list failed"
echo "$list"
runs="$(echo "$list" | grep -c "slurm_job=$(cat "$dir/job_id")")" || true
[ "$runs" = "$tasks" ] || fail "$runs runs of the job in the store, expected $tasks"
for task in $(seq 0 $((tasks - 1))); do
  [ "$(echo "$list" | grep -c "slurm_task=$task\$")" = 1 ] || fail "task $task's run is not there once"
done

# A task that fails (a selection perfgauge refuses) fails the wait, and adds nothing.
if PERFGAUGE="$perfgauge" "$source_dir/scripts/fleet/slurm-submit.sh" --db "$db" --tasks 1 \
  --wait --output-dir "$dir/out" -- --workload no-such-workload > /dev/null 2> "$dir/failed.txt"; then
  fail "slurm-submit.sh --wait returned 0 for a failed task"
fi
grep -q "FAILED" "$dir/failed.txt" || fail "the failed task's state is not named: $(cat "$dir/failed.txt")"
[ "$("$perfgauge" history list --db "$db" | grep -c slurm_job=)" = "$tasks" ] ||
  fail "the failed task added a run"
echo "slurm_fleet_test: PASS ($tasks runs in the store; a failed task is reported)"
