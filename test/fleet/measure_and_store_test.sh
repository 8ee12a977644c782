#!/bin/bash
# scripts/fleet/measure-and-store.sh never loses a measurement: when `history add` fails (the
# store down, a bad label) or the run fails after writing its result, the result stays where
# the script says, with the command that adds it later, and the script exits non-zero; labels
# reach the store as given (never glob-expanded or word-split); a stored result is removed.
# `perfgauge run` is stood in for by a wrapper that writes a fixed result (the run itself is
# tested elsewhere; this tests what the script does around it); history add is the real one,
# into a SQLite store here or a PostgreSQL URI whose port nothing listens on.
#
# usage: measure_and_store_test.sh PERFGAUGE SOURCE_DIR
set -euo pipefail
perfgauge="$(realpath "$1")"
source_dir="$(realpath "$2")"
script="$source_dir/scripts/fleet/measure-and-store.sh"
fail() { echo "measure_and_store_test: FAIL: $*" >&2; exit 1; }

dir="$(mktemp -d "${TMPDIR:-/tmp}/perfgauge-fleet-test.XXXXXX")"
trap 'rm -rf "$dir"' EXIT
cat > "$dir/perfgauge" << EOF
#!/bin/bash
# run: the fixture to --json's file (exit \${FAKE_RUN_STATUS:-0}); anything else: perfgauge.
if [ "\$1" = run ]; then
  while [ "\$#" -gt 0 ]; do
    [ "\$1" = --json ] && { cp "$source_dir/test/e2e/fixtures/small-run.json" "\$2"; exit "\${FAKE_RUN_STATUS:-0}"; }
    shift
  done
  exit 2
fi
exec "$perfgauge" "\$@"
EOF
chmod +x "$dir/perfgauge"
mkdir "$dir/work" "$dir/results"
touch "$dir/work/k=a b" "$dir/work/k=a c"  # what an unquoted 'k=a *' would expand to
closed_port="$(/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
labels=$'k=a *\nq=$(x) y'

measure() {  # DB: runs the script in $dir/work, its stderr in $dir/err, its status in $status
  set +e
  (cd "$dir/work" && PERFGAUGE="$dir/perfgauge" PERFGAUGE_DB="$1" PERFGAUGE_LABELS="$labels" \
    PERFGAUGE_RESULTS_DIR="$dir/results" bash "$script" --workload memcpy > "$dir/out" 2> "$dir/err")
  status=$?
  set -e
}
kept_file() { ls "$dir/results"/perfgauge-result-*.json 2> /dev/null || true; }

# 1. The store is down: the result is kept, named with the command that adds it; non-zero.
measure "postgresql://u:secret@127.0.0.1:$closed_port/db"
[ "$status" != 0 ] || fail "exit 0 with the store down"
kept="$(kept_file)"
[ -n "$kept" ] && [ "$(echo "$kept" | wc -l)" = 1 ] || fail "no result kept: $(cat "$dir/err")"
grep -qF "the result is kept at $kept" "$dir/err" || fail "the kept file is not named: $(cat "$dir/err")"
grep -qF "add it later with: " "$dir/err" || fail "no retry command: $(cat "$dir/err")"
! grep -q secret "$dir/err" || fail "the password is in the message: $(cat "$dir/err")"
# The retry command, run as printed (with the store back: a SQLite one here), stores it.
retry="$(sed -n 's/.*add it later with: //p' "$dir/err")"
(cd "$dir/work" && PERFGAUGE_DB="$dir/store.db" eval "$retry") > /dev/null ||
  fail "the printed retry command failed: $retry"
list="$("$perfgauge" history list --db "$dir/store.db")"
grep -qF 'k=a *' <<< "$list" && grep -qF 'q=$(x) y' <<< "$list" ||
  fail "the retried run lacks its labels as given: $list"
rm -f "$kept"

# 2. The store takes it: labels as given, the file removed once stored, exit 0.
measure "$dir/store.db"
[ "$status" = 0 ] || fail "exit $status with the store up: $(cat "$dir/err")"
[ -z "$(kept_file)" ] || fail "a stored result was left behind: $(kept_file)"
[ "$("$perfgauge" history list --db "$dir/store.db" | grep -cF 'k=a *,q=$(x) y')" = 2 ] ||
  fail "labels were expanded or split: $("$perfgauge" history list --db "$dir/store.db")"

# 3. A label history add refuses: kept, non-zero.
labels="no-equals-sign"
measure "$dir/store.db"
[ "$status" = 2 ] || fail "exit $status for a bad label (history add's 2 expected)"
[ -n "$(kept_file)" ] || fail "the result was lost with a bad label"
grep -qF "the result is kept at $(kept_file)" "$dir/err" || fail "not named: $(cat "$dir/err")"
rm -f "$(kept_file)"

# 4. The run fails after writing its result (a failed simulation keeps the native one): kept,
# not added, the run's status.
labels="k=v"
before="$("$perfgauge" history list --db "$dir/store.db" | wc -l)"
export FAKE_RUN_STATUS=1
measure "$dir/store.db"
unset FAKE_RUN_STATUS
[ "$status" = 1 ] || fail "exit $status when the run failed"
[ -n "$(kept_file)" ] || fail "the failed run's result was lost"
[ "$("$perfgauge" history list --db "$dir/store.db" | wc -l)" = "$before" ] ||
  fail "a failed run was added"
rm -f "$(kept_file)"

# 5. Nowhere to keep a result: refused before measuring.
set +e
PERFGAUGE="$dir/perfgauge" PERFGAUGE_DB="$dir/store.db" PERFGAUGE_RESULTS_DIR="$dir/none" \
  bash "$script" > /dev/null 2> "$dir/err"
status=$?
set -e
[ "$status" = 2 ] && grep -q "PERFGAUGE_RESULTS_DIR=$dir/none is not a writable directory" "$dir/err" ||
  fail "a missing PERFGAUGE_RESULTS_DIR: exit $status, $(cat "$dir/err")"
echo "measure_and_store_test: PASS"
