#!/bin/bash
# The Slurm fleet recipe end to end on this machine, submitted by a non-root user as on an
# existing cluster: a PostgreSQL server (password login over TCP), munged, slurmctld and slurmd
# started here from a minimal slurm.conf in a temporary directory (SlurmUser root,
# proctrack/linuxproc, select/cons_tres), a user created for the test, and perfgauge installed
# (cmake --install) into a prefix. As that user, with the store's URI in PERFGAUGE_DB only, the
# installed share/perfgauge/fleet/slurm-submit.sh submits job arrays that measure the user's
# own program (`stat -- ./prog`), a Google Benchmark binary built with perfgauge's adapter
# (`gbench`) and a `perfgauge run` selection: every task's run must arrive in the store, once,
# labelled with its task, with the command that made it. A task whose store is down keeps its
# result, and the command it prints adds it. Every daemon started here is stopped on the way
# out, also on failure (trap), and dies with this script if it is killed (setpriv --pdeathsig);
# the user is removed.
#
# usage: slurm_fleet_test.sh BUILD_DIR GBENCH_BINARY   (root: slurmd launches the jobs as the
#        user, and the user is created here; perfgauge and the scripts come from BUILD_DIR's
#        cmake --install)
set -euo pipefail
build_dir="$(realpath "$1")"
gbench="$(realpath "$2")"

fail() { echo "slurm_fleet_test: FAIL: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (slurmd runs as root to launch the jobs, and a user is created; CI runs as root)"
for tool in slurmctld slurmd sbatch sinfo munged mungekey setpriv useradd userdel cc; do
  command -v "$tool" > /dev/null || PATH="$PATH:/usr/sbin" command -v "$tool" > /dev/null ||
    fail "$tool is missing: scripts/install-deps.sh installs slurm-wlm and munge"
done
export PATH="$PATH:/usr/sbin"
pg_bin="$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2> /dev/null | sort -V | tail -n 1)"
[ -x "$pg_bin/postgres" ] || fail "PostgreSQL server not found: install Debian's postgresql"

dir="$(mktemp -d /tmp/perfgauge-slurm.XXXXXX)"
chmod 755 "$dir"
user="perfgauge-fleet-$$"
pids=() created_user=""
cleanup() {
  local status=$?
  if [ -n "$created_user" ] && [ -n "${SLURM_CONF:-}" ]; then  # its jobs end before the user
    scancel --user="$created_user" 2> /dev/null || true
    for _ in $(seq 50); do
      [ -z "$(squeue -h --user="$created_user" 2> /dev/null)" ] && break
      sleep 0.2
    done
  fi
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2> /dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2> /dev/null || true; done
  if [ "$status" != 0 ]; then
    for log in "$dir"/*.log "$dir"/home/out/*.out; do
      [ -f "$log" ] && { echo "---- $log"; tail -n 20 "$log"; }
    done >&2
  fi
  if [ -n "$created_user" ]; then
    userdel "$created_user" || echo "slurm_fleet_test: could not remove user $created_user" >&2
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

# PostgreSQL, as nobody (it refuses root): the store, reached over TCP with a password, as a
# cluster's users reach a shared server; the superuser only on the Unix socket.
mkdir "$dir/pg" && chown nobody "$dir/pg"
as_nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
"${as_nobody[@]}" "$pg_bin/initdb" -D "$dir/pg/data" -U postgres --auth-local=trust \
  --auth-host=scram-sha-256 --no-sync --no-instructions > "$dir/initdb.log" 2>&1 ||
  fail "initdb failed"
pg_port="$(free_port)"
daemon --reuid=nobody --regid=nogroup --clear-groups --pdeathsig INT \
  "$pg_bin/postgres" -D "$dir/pg/data" -k "$dir/pg" -p "$pg_port" \
  -c listen_addresses=127.0.0.1 -c fsync=off > "$dir/postgres.log" 2>&1
wait_until 30 "postgres accepting connections" "$pg_bin/pg_isready" -h "$dir/pg" -p "$pg_port"
password="$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
"$pg_bin/psql" -qX -v ON_ERROR_STOP=1 -h "$dir/pg" -p "$pg_port" -U postgres -d postgres \
  -c "CREATE ROLE fleet LOGIN PASSWORD '$password'" -c "CREATE DATABASE perf OWNER fleet" \
  > "$dir/psql.log" 2>&1 || fail "could not create the store's role and database"
db="postgresql://fleet:$password@127.0.0.1:$pg_port/perf"
echo "slurm_fleet_test: $("$pg_bin/postgres" --version), the store postgresql://fleet:***@127.0.0.1:$pg_port/perf"

# munge, with a key of its own and its socket here.
mungekey --create --keyfile="$dir/munge.key"
daemon --pdeathsig TERM munged --foreground --force --key-file="$dir/munge.key" \
  --socket="$dir/munge.sock" \
  --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munge.seed"
wait_until 10 "munged's socket" test -S "$dir/munge.sock"

node="$(hostname -s)"
mkdir "$dir/state" "$dir/spool"
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
chmod 644 "$dir/slurm.conf"
export SLURM_CONF="$dir/slurm.conf"
daemon --pdeathsig TERM slurmctld -D -f "$SLURM_CONF"
daemon --pdeathsig TERM slurmd -D -f "$SLURM_CONF"
wait_until 30 "the node idle in Slurm" bash -c 'sinfo -h -o %t | grep -qx idle'

# perfgauge as a user installs it, and a user with a program of their own and a Google
# Benchmark binary built with perfgauge's adapter, in their home directory.
cmake --install "$build_dir" --prefix "$dir/prefix" > "$dir/install.log" 2>&1 ||
  fail "cmake --install failed: $(tail -n 5 "$dir/install.log")"
fleet="$dir/prefix/share/perfgauge/fleet"
[ -x "$fleet/slurm-submit.sh" ] && [ -x "$fleet/measure-and-store.sh" ] ||
  fail "the fleet scripts are not installed in $fleet"
useradd --home-dir "$dir/home" --create-home --shell /bin/bash --user-group "$user" ||
  fail "could not create the user $user"
created_user="$user"
cat > "$dir/home/prog.c" << 'C'
/* The user's own program: sums the first N squares modulo a prime. */
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char** argv) {
    unsigned long n = argc > 1 ? strtoul(argv[1], 0, 10) : 1000000, s = 0;
    for (unsigned long i = 0; i < n; ++i) s = (s + i * i) % 1000000007UL;
    printf("%lu\n", s);
    return 0;
}
C
cc -O2 -o "$dir/home/prog" "$dir/home/prog.c" || fail "could not compile the user's program"
cp "$gbench" "$dir/home/bench-varint"
mkdir "$dir/home/out"
chown -R "$user:$user" "$dir/home"
# As the user, in their home, with a login's environment: Slurm's and perfgauge's commands on
# PATH, the store's URI in PERFGAUGE_DB and nowhere else.
as_user() {
  (cd "$dir/home" && setpriv --reuid="$user" --regid="$user" --init-groups env -i \
    HOME="$dir/home" USER="$user" LOGNAME="$user" SHELL=/bin/bash SLURM_CONF="$SLURM_CONF" \
    PATH="$dir/prefix/bin:/usr/local/bin:/usr/bin:/bin" PERFGAUGE_DB="${user_db:-$db}" "$@")
}
submit() {  # TASKS MEASURE ARGS...: as the user, waits; the job id in $job
  local tasks="$1" && shift
  job="$(as_user "$fleet/slurm-submit.sh" --tasks "$tasks" --wait --output-dir out -- "$@" \
    2> "$dir/submit.err")" || fail "the array job failed: $(cat "$dir/submit.err")"
}
# check_runs JOB TASKS WHAT: every task's run in the store once, with its task's label.
check_runs() {
  local list
  list="$(as_user perfgauge history list)" || fail "history list failed"
  [ "$(grep -c "slurm_job=$1," <<< "$list")" = "$2" ] ||
    fail "$3: $(grep -c "slurm_job=$1," <<< "$list") runs of job $1 in the store, expected $2"
  for task in $(seq 0 $(($2 - 1))); do
    [ "$(grep -c "slurm_job=$1,slurm_task=$task\b" <<< "$list")" = 1 ] ||
      fail "$3: task $task's run is not there once"
  done
}

started=$SECONDS
submit 2 --label suite=own --label 'note=a b *' stat -e task-clock -r 3 -- ./prog 3000000
own_job="$job" && check_runs "$own_job" 2 "the user's program"
submit 2 --label suite=gbench gbench ./bench-varint --perfgauge_events=task-clock \
  --benchmark_filter='branchy/log-uniform/end-on-end/hot/4096$' --benchmark_min_time=0.01 \
  --benchmark_repetitions=3
gbench_job="$job" && check_runs "$gbench_job" 2 "the Google Benchmark binary"
submit 2 run --workload varint --variant branchy --cache hot --sizes 4K -e task-clock -r 3 \
  --max-time 0.05 --processes 1 --warmup 0 --precision 0
run_job="$job" && check_runs "$run_job" 2 "perfgauge run"
echo "slurm_fleet_test: three 2-task arrays ran in $((SECONDS - started)) s, as $user"
list="$(as_user perfgauge history list)"
echo "$list"
# The label with spaces and '*' went through sbatch as one word, not expanded.
grep -qF "(command: ./prog 3000000), suite=own,note=a b *,slurm_job=$own_job," <<< "$list" ||
  fail "the user's program's runs lack their command or labels"
grep -q "(command: ./bench-varint), suite=gbench,slurm_job=$gbench_job" <<< "$list" ||
  fail "the Google Benchmark runs lack their command or labels"
owner="$(stat -c %U "$dir/home/out/perfgauge-history-${own_job}_0.out")"
[ "$owner" = "$user" ] || fail "the job ran as $owner, not as $user"

# The store down: the task fails, keeps its result in the output directory, and says how to
# add it; that command, run by the user once the store is back, adds it.
port_down="$(free_port)"
if user_db="postgresql://fleet:$password@127.0.0.1:$port_down/perf" as_user \
  "$fleet/slurm-submit.sh" --tasks 1 --wait --output-dir out -- stat -e task-clock -- ./prog 1000 \
  > "$dir/down.job" 2> "$dir/down.err"; then
  fail "slurm-submit.sh --wait returned 0 with the store down"
fi
grep -qF "results not in the store, kept for a later history add" "$dir/down.err" ||
  fail "--wait did not list the kept result: $(cat "$dir/down.err")"
out="$dir/home/out/perfgauge-history-$(cat "$dir/down.job")_0.out"
retry="$(sed -n 's/.*add it later with: //p' "$out")"
[ -n "$retry" ] || fail "the task's output names no command to add its result: $(cat "$out")"
! grep -q "$password" "$out" "$dir/down.err" || fail "the store's password was printed"
echo "slurm_fleet_test: the store down, the task said: $(grep -F 'add it later with' "$out")"
as_user bash -c "$retry" > /dev/null || fail "the printed command did not add the kept result: $retry"
[ "$(as_user perfgauge history list | grep -c "slurm_job=$(cat "$dir/down.job"),")" = 1 ] ||
  fail "the kept result is not in the store after the printed command"

# A task that fails (a selection perfgauge refuses) fails the wait, and adds nothing.
before="$(as_user perfgauge history list | grep -c slurm_job=)"
if as_user "$fleet/slurm-submit.sh" --tasks 1 --wait --output-dir out -- --workload no-such-workload \
  > /dev/null 2> "$dir/failed.txt"; then
  fail "slurm-submit.sh --wait returned 0 for a failed task"
fi
grep -q "FAILED" "$dir/failed.txt" || fail "the failed task's state is not named: $(cat "$dir/failed.txt")"
[ "$(as_user perfgauge history list | grep -c slurm_job=)" = "$before" ] || fail "the failed task added a run"
echo "slurm_fleet_test: PASS (as $user: the user's program, a Google Benchmark binary and a run in PostgreSQL; a store down keeps the result; a failed task is reported)"
