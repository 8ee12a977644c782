#!/usr/bin/python3
"""A hostile trial of `perfgauge history` and its store (issue 49, items 1-4, 10 and the must-show),
on SQLite and on a real PostgreSQL server this script starts (Debian's initdb and postgres, on a
Unix socket in a temporary directory, as `nobody` when run as root).

Usage: /usr/bin/python3 test/hostile/history_trial.py PERFGAUGE [--verbose] [--only=GROUP,...]

Every case runs one command and judges it against the failure classes of issue 49:
destructive (a file or store it must leave alone changed), silent loss (something it said it
stored, or must have kept, is not there), crash (killed by a signal, an uncaught exception),
hang (past its timeout), orphan/temp (a temporary file, directory or process left behind), wrong
exit (not the status the conventions give) and misleading message (the message does not name
the input, the reason or the fix, or shows a password or a raw internal text). A case can fail
in several classes. Prints the count per class and per group, the failures, and the timings of
the pathological patterns on a 1 MB name. Not in ctest: it takes a few minutes. Needs root for
the read-only mount, the small tmpfs and `nobody`'s view (those cases are skipped otherwise and
say so).
"""

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time

PERFGAUGE = os.path.abspath(sys.argv[1])
VERBOSE = "--verbose" in sys.argv
ONLY = next((a.split("=", 1)[1].split(",") for a in sys.argv if a.startswith("--only=")), None)
ROOT = os.geteuid() == 0
CLASSES = ["destructive", "silent loss", "crash", "hang", "orphan/temp", "wrong exit",
           "misleading message"]
FAILS = {c: [] for c in CLASSES}
GROUPS = {}  # group -> [cases, failed cases]
TIMINGS = []
MESSAGES = []  # every message of a failing command, for a reader to judge (--messages=FILE)
DIR = tempfile.mkdtemp(prefix="history-trial.")
os.chmod(DIR, 0o755)
TMP = os.path.join(DIR, "tmp")
os.mkdir(TMP)
os.chmod(TMP, 0o1777)
ENV = dict(os.environ, TMPDIR=TMP, LC_ALL="C.UTF-8")
ENV.pop("PERFGAUGE_DB", None)
# Texts no message may show: a raw exception, a password, a crash report.
NEVER = ("terminate called", "std::", "basic_string", "nlohmann", "json.exception", "s3cret",
         "Segmentation", "what():")


def path(*names):
    return os.path.join(DIR, *names)


def write(name, data):
    with open(path(name), "wb" if isinstance(data, bytes) else "w") as f:
        f.write(data)
    return path(name)


def run(args, timeout=30, env=None, cwd=None, user=None, stdin=None):
    """(exit status, 128+N for a signal, or 'timeout'; stdout; stderr; seconds)"""
    if user:
        args = ["setpriv", "--reuid", user, "--regid", "nogroup", "--clear-groups"] + args
    start = time.monotonic()
    try:
        p = subprocess.run(args, env=env or ENV, cwd=cwd or DIR, timeout=timeout,
                           capture_output=True, stdin=stdin or subprocess.DEVNULL,
                           start_new_session=True)
        code = p.returncode if p.returncode >= 0 else 128 - p.returncode
        return (code, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"),
                time.monotonic() - start)
    except subprocess.TimeoutExpired as e:
        return "timeout", "", (e.stderr or b"").decode(errors="replace"), timeout


def snapshot(paths):
    out = {}
    for p in paths:
        if os.path.isdir(p):  # a reader may leave SQLite's -wal and -shm (docs/cli/history.md)
            out[p] = sorted(f for f in os.listdir(p) if not f.endswith(("-wal", "-shm")))
        elif os.path.lexists(p):
            with open(p, "rb") as f:
                out[p] = f.read()
        else:
            out[p] = None
    return out


def leftovers():
    return set(os.listdir(TMP))


def judge(group, name, failures):
    entry = GROUPS.setdefault(group, [0, 0])
    entry[0] += 1
    entry[1] += bool(failures)
    for cls, detail in failures:
        FAILS[cls].append(f"[{group}] {name}: {detail[:300]}")
    if VERBOSE:
        print(f"[{group}] {'FAIL' if failures else 'ok  '} {name} "
              f"{'; '.join(c + ': ' + d[:200] for c, d in failures)}", flush=True)


def case(group, name, args, status, needs=(), absent=(), timeout=20, protect=(), after=None,
         env=None, cwd=None, user=None, out_needs=(), stdin=None, store_dir=None):
    """Runs perfgauge ARGS; `status` an int or a set; `needs` texts stderr must hold (the input
    named, the reason, the fix); `protect` paths that must not change; `after` a function of
    (code, out, err) returning more failures; `store_dir` a directory that must gain no
    temporary files."""
    before = snapshot(protect)
    left = leftovers()
    store_files = set(os.listdir(store_dir)) if store_dir else set()
    code, out, err, seconds = run([PERFGAUGE] + args, timeout=timeout, env=env, cwd=cwd,
                                  user=user, stdin=stdin)
    failures = []
    statuses = status if isinstance(status, set) else {status}
    if code == "timeout":
        failures.append(("hang", f"no answer in {timeout} s"))
    elif code in (128 + 6, 128 + 11, 128 + 7, 128 + 8, 128 + 4) or "terminate called" in err:
        failures.append(("crash", f"exit {code}: {err[-200:]!r}"))
    elif code not in statuses:
        failures.append(("wrong exit", f"exit {code}, expected {sorted(statuses)}: {err[:200]!r}"))
    if code != "timeout":
        missing = [n for n in needs if n not in err]
        shown = [a for a in tuple(absent) + NEVER if a in err]
        if missing or shown:
            failures.append(("misleading message",
                             f"missing {missing}, shows {shown}: {err[:300]!r}"))
        if code in (1, 2) and code in statuses and not err.strip():
            failures.append(("misleading message", "no message"))
        missing_out = [n for n in out_needs if n not in out]
        if missing_out:
            failures.append(("silent loss", f"stdout lacks {missing_out}: {out[:200]!r}"))
    changed = [p for p, v in snapshot(protect).items() if v != before[p]]
    if changed:
        failures.append(("destructive", f"changed {changed}"))
    new = leftovers() - left
    if store_dir:
        new |= {f for f in set(os.listdir(store_dir)) - store_files
                if not f.endswith(("-wal", "-shm"))}
    if new:
        failures.append(("orphan/temp", f"left {sorted(new)}"))
        for f in leftovers() - left:
            shutil.rmtree(os.path.join(TMP, f), ignore_errors=True)
    if after and code != "timeout":
        failures += after(code, out, err) or []
    judge(group, name, failures)
    if code != 0:
        MESSAGES.append(f"[{group}] {name}: exit {code}: {err.strip()[:400]}")
    return code, out, err, seconds


# ---------------------------------------------------------------------------------- fixtures

def gbench(names, host="node-a", times=(2.0, 2.1, 1.9), executable=None):
    """Google Benchmark JSON: per name, one iteration entry per repetition."""
    entries = []
    for n in names:
        for i, t in enumerate(times):
            entries.append({"name": n, "run_name": n, "run_type": "iteration",
                            "repetitions": len(times), "repetition_index": i, "threads": 1,
                            "iterations": 100, "real_time": t, "cpu_time": t,
                            "time_unit": "ns"})
    context = {"date": "2026-12-07T12:00:00+00:00", "num_cpus": 2}
    if host:
        context["host_name"] = host
    if executable:
        context["executable"] = executable
    return json.dumps({"context": context, "benchmarks": entries})


def raw_names_gbench(raw_names, host="node-a"):
    """A Google Benchmark file whose names are raw bytes (not JSON-escaped): as Google Benchmark
    writes a name it was given."""
    text = gbench([f"@@{i}@@" for i in range(len(raw_names))], host).encode()
    for i, raw in enumerate(raw_names):
        text = text.replace(f"@@{i}@@".encode(), raw)
    return text


class Postgres:
    """A PostgreSQL server of the trial's own, on a Unix socket; databases made on demand."""

    def __init__(self):
        bins = sorted(d for d in os.listdir("/usr/lib/postgresql")
                      if os.path.exists(f"/usr/lib/postgresql/{d}/bin/postgres"))
        self.bin = f"/usr/lib/postgresql/{bins[-1]}/bin/"
        self.version = bins[-1]
        self.dir = tempfile.mkdtemp(prefix="history-trial-pg.")
        os.chmod(self.dir, 0o755)
        self.user = ["setpriv", "--reuid", "nobody", "--regid", "nogroup", "--clear-groups"] \
            if ROOT else []
        if ROOT:
            shutil.chown(self.dir, "nobody", "nogroup")
        log = open(os.path.join(self.dir, "log"), "wb")
        subprocess.run(self.user + [self.bin + "initdb", "-D", self.dir + "/data", "-A", "trust",
                                    "-U", "postgres", "-E", "UTF8", "--no-sync",
                                    "--no-instructions"], stdout=log, stderr=log, check=True)
        self.server = subprocess.Popen(self.user + [
            self.bin + "postgres", "-D", self.dir + "/data", "-k", self.dir, "-c",
            "listen_addresses=", "-c", "fsync=off", "-c", "max_connections=80"],
            stdout=log, stderr=log)
        for _ in range(300):
            if subprocess.run(["psql", "-h", self.dir, "-U", "postgres", "-c", "select 1"],
                              capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        else:
            raise SystemExit("postgres did not start: " + open(self.dir + "/log").read())
        self.count = 0

    def uri(self, db, user="postgres", extra=""):
        return f"postgresql:///{db}?host={self.dir}&user={user}{extra}"

    def sql(self, sql, db="postgres"):
        p = subprocess.run(["psql", "-h", self.dir, "-U", "postgres", "-d", db, "-At", "-c", sql],
                           capture_output=True, text=True)
        return p.stdout.strip() if p.returncode == 0 else "ERROR " + p.stderr.strip()

    def new_db(self):
        self.count += 1
        name = f"trial_{self.count}"
        self.sql(f"CREATE DATABASE {name}")
        return name

    def tables(self, db):
        return self.sql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'", db)

    def stop(self):
        self.server.send_signal(signal.SIGINT)
        self.server.wait(timeout=30)
        shutil.rmtree(self.dir, ignore_errors=True)


PG = None
RUN = open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                        "../e2e/fixtures/small-run.json")).read()


class Store:
    """One store of either engine: its --db text and what a case checks on it."""

    def __init__(self, engine, name):
        self.engine = engine
        if engine == "sqlite":
            os.makedirs(path("stores"), exist_ok=True)
            self.db = path("stores", name + ".db")
            self.dir = path("stores")
        else:
            self.name = PG.new_db()
            self.db = PG.uri(self.name)
            self.dir = None

    def runs(self):
        code, out, _, _ = run([PERFGAUGE, "history", "list", "--db", self.db])
        if code != 0:
            return -1
        return sum(1 for line in out.splitlines()[1:] if line[:5].strip().isdigit())

    def protect(self):
        return [self.db] if self.engine == "sqlite" else []

    def fingerprint(self):
        """What must not change under a reader: the file's bytes, or the server's tables."""
        if self.engine == "sqlite":
            return snapshot([self.db, self.dir])
        return PG.sql("SELECT string_agg(tablename, ',' ORDER BY tablename) FROM pg_tables "
                      "WHERE schemaname = 'public'", self.name) + PG.sql(
            "SELECT count(*) FROM runs", self.name)


def add(store, files, *extra):
    code, out, err, _ = run([PERFGAUGE, "history", "add", "--db", store.db] + list(files)
                            + list(extra))
    if code != 0:
        raise SystemExit(f"setting up {store.db}: {err}")
    return out


def engines():
    return ["sqlite", "postgresql"]


# ------------------------------------------------------------------------ A: store locations

def group_locations():
    g = "A locations"
    gb = write("loc-gb.json", gbench(["BM_a"]))
    for scheme in ("mysql://me:s3cret@h/db", "postgresql+psycopg://h/db", "POSTGRESQL://h/db",
                   "Postgres://h/db", "sqlite:///x.db", "http://h/x", "file:x.db",
                   "file:///tmp/x.db?mode=ro", "postgresql:x", "postgres:/x", "redis://h",
                   "jdbc:postgresql://h/db", " postgresql://h/db", "sqlite:x.db",
                   "pg://h/db", "postgresql:\\\\h\\db"):
        for sub in (["add", gb], ["list"], ["show"], ["check"], ["export"]):
            cwd = path(f"cwd-{GROUPS.get(g, [0])[0]}")
            os.makedirs(cwd, exist_ok=True)
            wanted, needs = 2, ["postgresql://", "SQLite file"]
            case(g, f"{' '.join(sub[:1])} --db '{scheme}'",
                 ["history"] + sub + ["--db", scheme], wanted, needs, ("s3cret",),
                 after=lambda c, o, e, cwd=cwd, scheme=scheme: [
                     ("destructive", f"made {os.listdir(cwd)}")] if os.listdir(cwd) else [],
                 cwd=cwd)
    for env_db in ("mysql://u:s3cret@h/d", "", "HTTP://x"):
        case(g, f"PERFGAUGE_DB='{env_db}' list", ["history", "list"],
             2 if env_db else {2}, ["$PERFGAUGE_DB"] if env_db else [],
             env=dict(ENV, PERFGAUGE_DB=env_db, HOME=path("home")))
    case(g, "--db ''", ["history", "list", "--db", ""], 2, ["--db", "empty"])
    case(g, "list: a directory", ["history", "list", "--db", DIR], 2, [DIR, "directory"])
    case(g, "add: a directory", ["history", "add", gb, "--db", TMP], 2, [TMP, "directory"])
    case(g, "list: /dev/null", ["history", "list", "--db", "/dev/null"], 2,
         ["/dev/null", "not a regular file"])
    case(g, "add: /dev/null", ["history", "add", gb, "--db", "/dev/null"], 2,
         ["/dev/null", "not a regular file"])
    fifo = path("fifo.db")
    os.mkfifo(fifo)
    case(g, "show: a FIFO", ["history", "show", "--db", fifo], 2, [fifo], timeout=10)
    case(g, "add: a FIFO", ["history", "add", gb, "--db", fifo], 2, [fifo], timeout=10)
    missing = path("nowhere", "h.db")
    for sub in ("list", "show", "check", "export", "report", "plot"):
        extra = {"report": ["-o", path("rep-missing")], "plot": ["-o", path("m.png")]}.get(sub, [])
        case(g, f"{sub}: a missing store", ["history", sub, "--db", missing] + extra, 2,
             [missing, "history add creates"],
             after=lambda c, o, e: [("destructive", "made the store's directory")]
             if os.path.exists(path("nowhere")) else [])
    notdb = write("notdb.db", "this is a text file, not a database\n" * 10)
    for sub in ("list", "add"):
        case(g, f"{sub}: a text file as the store", ["history", sub, "--db", notdb] +
             ([gb] if sub == "add" else []), 2, [notdb, "not a SQLite database"],
             protect=[notdb])
    other = path("other-program.db")
    con = sqlite3.connect(other)
    con.execute("CREATE TABLE schema_version (v INTEGER)")
    con.execute("CREATE TABLE users (name TEXT)")
    con.commit()
    con.close()
    for sub in ("list", "add"):
        case(g, f"{sub}: another program's SQLite with schema_version",
             ["history", sub, "--db", other] + ([gb] if sub == "add" else []), 2,
             [other, "another program"], protect=[other])
    # A server that is not there: the password never shown, the location named.
    for uri in ("postgresql://me:s3cret@127.0.0.1:1/db",
                "postgresql:///db?host=/nonexistent&password=s3cret",
                "postgres://me:s3cret@/db?host=/nonexistent&port=notaport",
                "postgresql://me:s3cret@[::1/x", "postgresql:///db?host=/nonexistent&bogus=1"):
        for sub in (["list"], ["add", gb]):
            case(g, f"{sub[0]} {uri[:40]}", ["history"] + sub + ["--db", uri], {1, 2},
                 ["postgres"], ("s3cret",), timeout=20)
    # A wrong but existing PostgreSQL database: readers leave it as it was.
    db = PG.new_db()
    PG.sql("CREATE TABLE customers (id int)", db)
    for sub in ("list", "show", "check", "export", "compare", "report"):
        extra = {"compare": ["--by", "machine"], "report": ["-o", path("rep-wrongdb")]}
        case(g, f"{sub}: a wrong PostgreSQL database", ["history", sub, "--db", PG.uri(db)] +
             extra.get(sub, []), 2, ["no perfgauge history in", "history add creates"],
             after=lambda c, o, e, db=db: [("destructive", "tables made")]
             if PG.tables(db) != "1" else [])
    case(g, "a database that does not exist", ["history", "list", "--db", PG.uri("nosuchdb")],
         {1, 2}, ["nosuchdb"])
    case(g, "a user that does not exist", ["history", "list", "--db", PG.uri(db, "nosuchuser")],
         {1, 2}, ["nosuchuser"])


# ------------------------------------------------------------- B: stores a reader cannot write

def readable_store(engine, tag):
    s = Store(engine, tag)
    files = [write(f"{tag}-{i}.json", gbench(["BM_a", "BM_b"], times=(2.0 + i / 100,) * 3))
             for i in range(4)]
    add(s, files, "--commit", "c1")
    return s


def group_read_only():
    g = "B read-only"
    if not ROOT:
        print("B read-only: skipped (needs root for nobody and mounts)")
        return
    s = readable_store("sqlite", "ro")
    os.chmod(s.db, 0o444)
    ro_dir = path("ro-dir")
    os.makedirs(ro_dir)
    shutil.copy(s.db, ro_dir)
    ro_db = os.path.join(ro_dir, os.path.basename(s.db))
    os.chmod(ro_dir, 0o555)
    for sub in (["list"], ["show"], ["check"], ["export"], ["export", "--format", "json"],
                ["compare", "--by", "machine"], ["report", "-o", path("ro-report")]):
        wanted = 2 if sub[0] == "compare" else 0  # one machine class: nothing to compare
        for who, db in (("root", ro_db), ("nobody", s.db), ("nobody", ro_db)):
            if sub[0] == "report" and who == "nobody":
                continue
            case(g, f"{sub[0]} as {who} on a 0444 store", ["history"] + sub + ["--db", db],
                 wanted, [] if wanted == 0 else ["machine class"],
                 protect=[db, os.path.dirname(db)], user="nobody" if who == "nobody" else None)
    gb = write("ro-gb.json", gbench(["BM_a"]))
    for who, db in (("nobody", s.db), ("nobody", ro_db)):
        case(g, f"add as {who} to a store it may not write", ["history", "add", gb, "--db", db],
             {1, 2}, [db], protect=[db], user="nobody" if who == "nobody" else None)
    # A read-only mount.
    mnt = path("ro-mount")
    os.makedirs(mnt)
    shutil.copy(s.db, mnt)
    mdb = os.path.join(mnt, os.path.basename(s.db))
    os.chmod(mdb, 0o644)
    if subprocess.run(["mount", "--bind", mnt, mnt]).returncode == 0 and subprocess.run(
            ["mount", "-o", "remount,ro,bind", mnt]).returncode == 0:
        for sub in (["list"], ["show"], ["check"], ["export"]):
            case(g, f"{sub[0]} on a read-only mount", ["history"] + sub + ["--db", mdb], 0,
                 protect=[mdb])
        case(g, "add on a read-only mount", ["history", "add", gb, "--db", mdb], {1, 2},
             [mdb, "read-only"], protect=[mdb])
        case(g, "accept on a read-only mount", ["history", "accept", "c1", "--reason", "r",
                                                "--db", mdb], {1, 2}, [mdb], protect=[mdb])
        case(g, "forget on a read-only mount", ["history", "forget", "1", "--db", mdb], {1, 2},
             [mdb], protect=[mdb])
        subprocess.run(["umount", mnt])
    # PostgreSQL: a read-only database, and a role that may only read.
    p = readable_store("postgresql", "ro-pg")
    PG.sql("CREATE ROLE guest LOGIN")
    PG.sql("GRANT SELECT ON ALL TABLES IN SCHEMA public TO guest", p.name)
    guest = PG.uri(p.name, "guest")
    for sub in (["list"], ["show"], ["check"], ["export"]):
        case(g, f"{sub[0]} as a PostgreSQL role that may only read",
             ["history"] + sub + ["--db", guest], 0)
    before = p.runs()
    case(g, "add as a role that may only read", ["history", "add", gb, "--db", guest], {1, 2},
         ["permission denied"],
         after=lambda c, o, e: [("silent loss", "runs changed")] if p.runs() != before else [])
    case(g, "accept as a role that may only read",
         ["history", "accept", "c1", "--reason", "r", "--db", guest], {1, 2},
         ["permission denied"])
    empty = PG.new_db()
    case(g, "add as a role that may not create tables", ["history", "add", gb, "--db",
                                                         PG.uri(empty, "guest")], {1, 2},
         ["permission denied"])
    PG.sql(f"ALTER DATABASE {p.name} SET default_transaction_read_only = on")
    case(g, "add to a read-only PostgreSQL database", ["history", "add", gb, "--db", p.db], {1, 2},
         ["read-only"])
    case(g, "list on a read-only PostgreSQL database", ["history", "list", "--db", p.db], 0)
    PG.sql(f"ALTER DATABASE {p.name} SET default_transaction_read_only = off")


# ---------------------------------------------------------------------- C: a newer schema

def group_newer_schema():
    g = "C newer schema"
    gb = write("new-gb.json", gbench(["BM_a"]))
    for engine in engines():
        s = readable_store(engine, "newer-" + engine)
        if engine == "sqlite":
            con = sqlite3.connect(s.db)
            con.execute("PRAGMA journal_mode=DELETE")
            con.execute("INSERT INTO schema_version VALUES (99, 'future')")
            con.commit()
            con.close()
        else:
            PG.sql("INSERT INTO schema_version VALUES (99, 'future')", s.name)
        before = s.fingerprint()
        for sub in (["list"], ["show"], ["check"], ["export"], ["add", gb],
                    ["accept", "c1", "--reason", "r"], ["forget", "1"],
                    ["compare", "--by", "machine"], ["report", "-o", path("newer-report")],
                    ["plot", "-o", path("newer.png")]):
            case(g, f"{engine}: {sub[0]}", ["history"] + sub + ["--db", s.db], 2,
                 ["schema version 99", "newer perfgauge"],
                 after=lambda c, o, e, s=s, before=before: [("destructive", "store changed")]
                 if s.fingerprint() != before else [])


# ------------------------------------------------------------------------------ D: names

def group_names():
    g = "D names"
    mb = "n" * (1 << 20)
    for engine in engines():
        cases = [
            ("non-UTF-8 name", raw_names_gbench([b"BM_\xff\xfe", b"BM_ok"]), "BM_\\xFF\\xFE"),
            ("NUL in a name", gbench(["BM_a\u0000b", "BM_c"]).encode(), "BM_a\\x00b"),
            ("a truncated UTF-8 name", raw_names_gbench([b"BM_\xe2\x82"]), "BM_\\xE2\\x82"),
            ("an overlong encoding", raw_names_gbench([b"BM_\xc0\xaf"]), "BM_\\xC0\\xAF"),
            ("a surrogate", raw_names_gbench([b"BM_\xed\xa0\x80"]), "BM_\\xED\\xA0\\x80"),
            ("valid UTF-8 and a backslash", gbench(["BM_\u00e9\u4e2d\\x41"]).encode(),
             "BM_\u00e9\u4e2d\\x41"),
            ("a 1 MB name", gbench([mb]).encode(), mb),
            ("a 100 kB name of UTF-8", gbench(["\u00e9" * 50000]).encode(), "\u00e9" * 50000),
            ("a name of quotes and commas", gbench(['BM_"a",b\nc']).encode(), None),
        ]
        for name, data, stored in cases:
            s = Store(engine, f"names-{engine}-{GROUPS.get(g, [0])[0]}")
            f = write("names.json", data)
            try:
                data.decode()
            except UnicodeDecodeError:  # JSON is UTF-8: the reader refuses the file, says where
                case(g, f"{engine}: add {name} (raw in the JSON)", ["history", "add", f, "--db",
                                                                    s.db], 2, [f, "UTF-8"])
                continue

            def exported(code, out, err, s=s, stored=stored):
                if code != 0 or stored is None:
                    return []
                c, o, e, _ = run([PERFGAUGE, "history", "export", "--format", "json", "--db",
                                  s.db], timeout=60)
                try:
                    names = {m["benchmark"] for m in json.loads(o)}
                except ValueError:
                    return [("silent loss", f"export: exit {c} {e[:200]!r}")]
                return [] if stored in names else [
                    ("silent loss", f"'{stored[:40]}' not exported as stored: "
                                    f"{[n[:40] for n in names]}")]
            case(g, f"{engine}: add {name}", ["history", "add", f, "--db", s.db], 0,
                 ["\\xNN"] if "\\x" in (stored or "") and "backslash" not in name else [],
                 after=exported, timeout=60)
            case(g, f"{engine}: show after {name}", ["history", "show", "--db", s.db], 0,
                 timeout=60)
        s = Store(engine, f"names-{engine}-meta")
        gbf = write("meta.json", gbench(["BM_m"]))
        odd = write("bad-\udcff-name.json", gbench(["BM_m"]))
        for what, args, shown in (
                ("commit with 0xFF", ["--commit", "c\udcff"], "c\\xFF"),
                ("commit with a NUL-free control", ["--commit", "c\x01d"], None),
                ("label with 0xFF", ["--label", "k=v\udcff"], "k=v\\xFF"),
                ("label with '=' and ','", ["--label", "k=a=b,c"], "k=a=b,c"),
                ("a 100 kB commit", ["--commit", "c" * 100000], None),
                ("a 100 kB label", ["--label", "k=" + "v" * 100000], None)):
            code, out, err, _ = run([PERFGAUGE, "history", "add", gbf, "--db", s.db] + args,
                                    timeout=60)
            failures = []
            if code != 0:
                failures.append(("wrong exit", f"exit {code}: {err[:200]!r}"))
            elif shown:
                listed = run([PERFGAUGE, "history", "list", "--db", s.db])[1]
                if shown not in listed:
                    failures.append(("silent loss", f"list lacks {shown!r}"))
            judge(g, f"{engine}: add {what}", failures)
        case(g, f"{engine}: add a file named with 0xFF", ["history", "add", odd, "--db", s.db], 0,
             after=lambda c, o, e, s=s: [] if "bad-\\xFF-name" in run(
                 [PERFGAUGE, "history", "list", "--db", s.db])[1] else
             [("silent loss", "the escaped file name is not listed")])
        two = write("two.json", gbench(["BM_\u0000", "BM_\\x00"]))
        before = s.runs()
        case(g, f"{engine}: two names equal once escaped", ["history", "add", two, "--db", s.db],
             2, [two, "rename one"],
             after=lambda c, o, e, s=s, before=before: [("silent loss", "stored anyway")]
             if s.runs() != before else [])
        anon = write("anon.json", gbench(["BM_a"], host=None))
        case(g, f"{engine}: a file naming no machine", ["history", "add", anon, "--db", s.db], 2,
             [anon, "--label machine="])
        case(g, f"{engine}: --label machine= (empty)",
             ["history", "add", anon, "--label", "machine=", "--db", s.db], 2, ["machine"])
        for label in ("novalue", "=v", ""):
            case(g, f"{engine}: --label '{label}'", ["history", "add", gbf, "--label", label,
                                                     "--db", s.db], 2, [f"'{label}'", "KEY=VALUE"])
        bad = write("bad.json", '{"benchmarks": [')
        good = write("good.json", gbench(["BM_g"]))
        before = s.runs()
        case(g, f"{engine}: one bad file of two adds nothing",
             ["history", "add", good, bad, "--db", s.db], 2, [bad],
             after=lambda c, o, e, s=s, before=before: [("silent loss", "a run was stored")]
             if s.runs() != before else [])
        case(g, f"{engine}: add a missing file", ["history", "add", path("nope.json"), "--db",
                                                  s.db], 2, [path("nope.json")])
        case(g, f"{engine}: add a directory", ["history", "add", TMP, "--db", s.db], 2,
             [TMP, "directory"])
        case(g, f"{engine}: add /dev/zero", ["history", "add", "/dev/zero", "--db", s.db], 2,
             ["/dev/zero"], timeout=60)
        with open(good, "rb") as stdin:
            case(g, f"{engine}: add from /dev/stdin", ["history", "add", "/dev/stdin", "--db",
                                                       s.db], 0, stdin=stdin)
        with open(good, "rb") as stdin:
            case(g, f"{engine}: add '-'", ["history", "add", "-", "--db", s.db], 2,
                 ["'-'", "/dev/stdin"], stdin=stdin)
        case(g, f"{engine}: no file", ["history", "add", "--db", s.db], 2, ["which result"])


# ---------------------------------------------------------------------------- E: patterns

def group_patterns():
    g = "E patterns"
    mb = 1 << 20
    names = ["a" * mb, "a" * mb + "b"]
    patterns = ["(a|a)*b", "(a*)*b", "^(a|aa)+$", "^(a+)+$", "(x+x+)+y", "a{0,1000}b", "b$",
                "(.*a){20}", "(?i)A+B"]
    gbf = write("patterns.json", gbench(names, times=(2.0, 2.0, 2.0)))
    for engine in engines():
        s = Store(engine, "patterns-" + engine)
        add(s, [gbf], "--commit", "p1")
        for pattern in patterns:
            for sub in ("show", "export", "check"):
                want = 2 if pattern == "(x+x+)+y" else {0, 3}
                needs = [f"REGEX '{pattern}' matches no stored series"] \
                    if want == 2 and sub != "export" else []
                if sub == "export" and want == 2:
                    want = 0  # export of nothing is an empty table, not an error
                code, _, _, seconds = case(g, f"{engine}: {sub} '{pattern}' on a 1 MB name",
                                           ["history", sub, pattern, "--db", s.db], want, needs,
                                           timeout=20)
                TIMINGS.append((f"history {sub} '{pattern}' ({engine})", code, seconds))
        for pattern in ("((", "a{2,1}", "(?<=a)b", "\\", "(a)\\1", "x{1001}", "\\p{Nope}"):
            for sub in ("show", "export", "check"):
                case(g, f"{engine}: {sub} invalid '{pattern}'",
                     ["history", sub, pattern, "--db", s.db], 2,
                     [pattern, "not a regular expression"])
        case(g, f"{engine}: two REGEXes", ["history", "show", "a", "b", "--db", s.db], 2,
             ["one REGEX"])
    for pattern in patterns:
        code, _, _, seconds = case(g, f"export --filter '{pattern}' on a 1 MB name",
                                   ["export", gbf, "--format", "bmf", "--filter", pattern],
                                   2 if pattern == "(x+x+)+y" else 0, timeout=20)
        TIMINGS.append((f"export --filter '{pattern}'", code, seconds))


# ----------------------------------------------------------------------- F: bad options

def series_store(engine):
    s = Store(engine, "options-" + engine)
    for i, commit in enumerate(["aaa111", "aaa222", "bbb333", "ccc444", "ccc444"]):
        add(s, [write(f"opt-{i}.json", gbench(["BM_x", "BM_y"], times=(2.0 + i,) * 3))],
            "--commit", commit)
    return s


def group_options():
    g = "F options"
    for engine in engines():
        s = series_store(engine)
        db = ["--db", s.db]
        for since, needs in (("zzz", ["--since 'zzz'", "no stored run", "history list"]),
                             ("aaa", ["--since 'aaa'", "matches 2 commits"]),
                             ("", ["--since", "empty"]),
                             ("c\udcff", ["--since 'c\\xFF'"])):
            case(g, f"{engine}: check --since '{since}'", ["history", "check", "--since", since] +
                 db, 2, needs)
        for metric in ("tim", "", "TIME", "time "):
            for sub in ("show", "check", "plot"):
                extra = ["-o", path("m.png")] if sub == "plot" else []
                case(g, f"{engine}: {sub} --metric '{metric}'",
                     ["history", sub, "--metric", metric] + extra + db, 2,
                     [f"--metric '{metric}'", "stored: "])
        for value in ("-1", "nan", "inf", "abc", "1e9", "", "5%", "-0"):
            case(g, f"{engine}: check --min-change '{value}'",
                 ["history", "check", "--min-change", value] + db,
                 {0, 3} if value == "-0" else 2, [] if value == "-0" else ["--min-change"])
        for value in ("0", "1", "-0.1", "nan", "x"):
            case(g, f"{engine}: check --false-alarms '{value}'",
                 ["history", "check", "--false-alarms", value] + db, 2, ["--false-alarms"])
        before = s.fingerprint()
        unchanged = lambda c, o, e, s=s, before=before: [("destructive", "store changed")] \
            if s.fingerprint() != before else []
        for rev, needs in (("zzz", ["REV 'zzz'", "no stored run"]),
                           ("aaa", ["REV 'aaa'", "matches 2 commits", "aaa111", "aaa222"]),
                           ("", ["REV ''"]), ("AAA111", ["REV 'AAA111'"]),
                           ("c\udcff", ["REV 'c\\xFF'"])):
            case(g, f"{engine}: accept unknown rev '{rev}'",
                 ["history", "accept", rev, "--reason", "why"] + db, 2, needs, after=unchanged)
        for args, needs in ((["ccc444"], ["--reason"]), (["ccc444", "--reason", "  "], ["--reason"]),
                            (["ccc444", "--reason", "r", "BM_nope"], ["BM_nope", "matches no"]),
                            (["ccc444", "--reason", "r", "--metric", "tim"], ["--metric tim"]),
                            (["ccc444", "--reason", "r", "(("], ["((", "not a regular"]),
                            (["ccc444", "--reason", "r", "a", "b"], ["unexpected argument 'b'"]),
                            (["ccc444", "--reason", "r", "--metric", ""], ["--metric ''"])):
            case(g, f"{engine}: accept {' '.join(args[1:])[:40]}", ["history", "accept"] + args + db,
                 2, needs, after=unchanged)
        for ids, needs in ((["0"], ["'0'", "run id"]), (["-1"], ["-1"]), (["abc"], ["'abc'"]),
                           (["1.5"], ["'1.5'"]), (["99999999999999999999"], ["run id"]),
                           ([], ["which runs"])):
            case(g, f"{engine}: forget {ids}", ["history", "forget"] + ids + db, 2, needs,
                 after=unchanged)
        case(g, f"{engine}: forget a run that is not there", ["history", "forget", "4242"] + db, 2,
             ["4242"], after=unchanged)
        case(g, f"{engine}: export --format xml", ["history", "export", "--format", "xml"] + db,
             2, ["--format xml", "csv or json"])
        case(g, f"{engine}: compare without --by", ["history", "compare"] + db, 2, ["--by machine"])
        case(g, f"{engine}: compare --by host", ["history", "compare", "--by", "host"] + db, 2,
             ["--by"])
        case(g, f"{engine}: compare one class", ["history", "compare", "--by", "machine"] + db, 2,
             ["1 machine class"])
        case(g, f"{engine}: unknown subcommand", ["history", "shwo"] + db, 2, ["shwo", "show"])
        case(g, f"{engine}: list with an argument", ["history", "list", "x"] + db, 2, ["'x'"])
        case(g, f"{engine}: unknown option", ["history", "show", "--metrc", "time"] + db, 2,
             ["--metrc"])
        case(g, f"{engine}: accept, the store unchanged after", ["history", "accept", "ccc444",
                                                                 "--reason", "new compiler"] + db,
             0, out_needs=["acceptance"])


# ------------------------------------------------------------------------------ G: outputs

def group_outputs():
    g = "G outputs"
    s = series_store("sqlite")
    db = ["--db", s.db]
    existing = write("out-existing.csv", "keep me\n")
    target = write("out-target.csv", "target\n")
    link = path("out-link.csv")
    os.symlink(target, link)
    ro = path("out-ro")
    os.makedirs(ro)
    os.chmod(ro, 0o555)
    case(g, "export -o an existing file", ["history", "export", "-o", existing] + db, 0,
         after=lambda c, o, e: [] if open(existing).read().startswith("run,") else
         [("silent loss", "not replaced")])
    case(g, "export -o a symlink", ["history", "export", "-o", link] + db, 0,
         after=lambda c, o, e: [] if os.path.islink(link) and open(target).read().startswith(
             "run,") else [("destructive", "the link was replaced or its target not")])
    case(g, "export -o into a read-only directory (as nobody)",
         ["history", "export", "-o", os.path.join(ro, "x.csv")] + db, {1, 2},
         [os.path.join(ro, "x.csv")], user="nobody" if ROOT else None, store_dir=ro)
    case(g, "export -o the store", ["history", "export", "-o", s.db] + db, 2, ["history store"],
         protect=[s.db])
    store_link = path("store-link.csv")
    os.symlink(s.db, store_link)
    case(g, "export -o a symlink to the store", ["history", "export", "-o", store_link] + db, 2,
         ["history store"], protect=[s.db])
    os.link(s.db, path("store-hard.db"))
    case(g, "export -o a hard link of the store", ["history", "export", "-o",
                                                   path("store-hard.db")] + db, 2,
         ["history store"], protect=[s.db])
    case(g, "export -o a directory", ["history", "export", "-o", TMP] + db, 2, [TMP])
    case(g, "export -o ''", ["history", "export", "-o", ""] + db, 2, ["-o"])
    case(g, "export -o /dev/full", ["history", "export", "-o", "/dev/full"] + db, 1, ["/dev/full"])
    case(g, "export -o a missing directory", ["history", "export", "-o",
                                              path("nodir", "x.csv")] + db, {1, 2},
         [path("nodir", "x.csv")])
    rfile = write("report-file", "a file\n")
    case(g, "report -o a file", ["history", "report", "-o", rfile] + db, 2,
         [rfile, "not a directory"], protect=[rfile])
    rlink = path("report-link")
    os.makedirs(path("report-real"))
    os.symlink(path("report-real"), rlink)
    case(g, "report -o a symlink to a directory", ["history", "report", "-o", rlink] + db, 0,
         after=lambda c, o, e: [] if os.path.exists(path("report-real", "index.html")) else
         [("silent loss", "no index.html in the link's directory")])
    case(g, "report -o a read-only directory (as nobody)", ["history", "report", "-o", ro] + db,
         {1, 2}, [ro], user="nobody" if ROOT else None, store_dir=ro)
    case(g, "report -o under a read-only directory (as nobody)",
         ["history", "report", "-o", os.path.join(ro, "sub")] + db, {1, 2},
         [os.path.join(ro, "sub")], user="nobody" if ROOT else None, store_dir=ro)
    os.makedirs(path("rep-store"))
    shutil.copy(s.db, path("rep-store", "index.html"))
    case(g, "report -o DIR whose index.html is the store",
         ["history", "report", "-o", path("rep-store"), "--db", path("rep-store", "index.html")],
         2, ["history store"], protect=[path("rep-store", "index.html")])
    case(g, "report without -o", ["history", "report"] + db, 2, ["-o DIR"])
    case(g, "report -o with no series matching", ["history", "report", "-o", path("rep-none"),
                                                  "BM_nomatch"] + db, 2,
         ["REGEX 'BM_nomatch' matches no stored series"],
         after=lambda c, o, e: [("orphan/temp", "made the directory")]
         if os.path.exists(path("rep-none")) else [])
    case(g, "plot -o .jpg", ["history", "plot", "-o", path("x.jpg")] + db, 2, [".png"])
    case(g, "plot -o the store", ["history", "plot", "-o", s.db] + db, 2, [], protect=[s.db])
    case(g, "plot -o a read-only directory", ["history", "plot", "BM_x", "-o",
                                              os.path.join(ro, "x.png")] + db, {1, 2},
         [os.path.join(ro, "x.png")], user="nobody" if ROOT else None, store_dir=ro, timeout=60)
    # stdout closed or full
    code, _, err, _ = run(["/bin/sh", "-c", 'exec "$@" > /dev/full', "sh", PERFGAUGE, "history",
                           "list"] + db)
    judge(g, "list > /dev/full", [] if code == 1 and err.strip() else
          [("wrong exit", f"exit {code} {err[:100]!r}")])
    code, _, err, _ = run(["/bin/sh", "-c", 'exec "$@" >&-', "sh", PERFGAUGE, "history",
                           "export"] + db)
    judge(g, "export with stdout closed", [] if code == 1 and err.strip() else
          [("wrong exit", f"exit {code} {err[:100]!r}")])


# -------------------------------------------------------- H: concurrency, kills, interrupts

def consistent(s):
    """Every stored run has its measurements: no half run."""
    code, out, _, _ = run([PERFGAUGE, "history", "list", "--db", s.db], timeout=60)
    if code != 0:
        return [("destructive", f"the store no longer reads: exit {code}")]
    bad = [line for line in out.splitlines()[1:] if line[:5].strip().isdigit()
           and line.split()[3] in ("0",)]
    return [("silent loss", f"runs without measurements: {bad[:3]}")] if bad else []


def default_signals():
    """In a child: SIGINT as a terminal gives it (a background job's is ignored, and stays so)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def stored_runs(s):
    """The store's run count, read directly (fast enough to poll)."""
    if s.engine == "postgresql":
        text = PG.sql("SELECT count(*) FROM runs", s.name)
        return int(text) if text.isdigit() else 0
    try:
        con = sqlite3.connect(f"file:{s.db}?mode=ro", uri=True, timeout=5)
        n = con.execute("SELECT count(*) FROM runs").fetchone()[0]
        con.close()
        return n
    except sqlite3.Error:
        return 0


def group_concurrency():
    g = "H concurrency"
    files = [write(f"conc-{i}.json", gbench([f"BM_{j}" for j in range(20)],
                                            times=(2.0 + i / 10,) * 5)) for i in range(16)]
    for engine in engines():
        s = Store(engine, "conc-" + engine)
        procs = [subprocess.Popen([PERFGAUGE, "history", "add", f, "--db", s.db], env=ENV,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE) for f in files]
        codes = [p.wait(timeout=300) for p in procs]
        errs = [p.stderr.read().decode(errors="replace") for p in procs]
        for p in procs:
            p.stdout.close()
            p.stderr.close()
        failed = [(c, e[:150]) for c, e in zip(codes, errs) if c != 0]
        judge(g, f"{engine}: 16 concurrent adds all succeed",
              [("silent loss", f"failed: {failed[:3]}")] if failed else [])
        n = s.runs()
        judge(g, f"{engine}: 16 concurrent adds all stored",
              [] if n == 16 else [("silent loss", f"{n} runs stored")])
        judge(g, f"{engine}: concurrent adds: consistent", consistent(s))
        # Readers beside writers.
        procs = [subprocess.Popen([PERFGAUGE, "history", "add", f, "--db", s.db], env=ENV,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                 for f in files[:6]]
        readers = [run([PERFGAUGE, "history", sub, "--db", s.db], timeout=120)
                   for sub in ("list", "show", "export", "check")]
        for p in procs:
            p.wait(timeout=300)
            p.stderr.close()
        judge(g, f"{engine}: readers beside writers",
              [("wrong exit", f"{[r[0] for r in readers]} {[r[2][:100] for r in readers]}")]
              if any(r[0] not in (0, 3) for r in readers) else [])
        # Killed adds: SIGKILL and SIGINT at several moments; the store stays whole.
        many = [write(f"kill-{i}.json", gbench([f"BM_{j}" for j in range(200)],
                                               times=(3.0,) * 20)) for i in range(12)]
        for sig in (signal.SIGKILL, signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            before = s.runs()
            for delay in (0.05, 0):
                before = s.runs()
                p = subprocess.Popen([PERFGAUGE, "history", "add"] + many + ["--db", s.db],
                                     env=ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     preexec_fn=default_signals)
                if delay:
                    time.sleep(delay)
                else:  # once the first run is stored: in the middle of the files
                    deadline = time.monotonic() + 60
                    while stored_runs(s) == before and time.monotonic() < deadline:
                        time.sleep(0.005)
                p.send_signal(sig)
                out, err = p.communicate(timeout=120)
                code = p.returncode if p.returncode >= 0 else 128 - p.returncode
                after = s.runs()
                failures = consistent(s)
                added = out.decode().count("added run")
                if sig != signal.SIGKILL and code not in (0, 128 + sig):
                    failures.append(("wrong exit", f"exit {code}: {err[-150:]!r}"))
                if sig != signal.SIGKILL and after - before != added:
                    failures.append(("silent loss", f"{after - before} runs stored, {added} said"
                                     f" ({err.decode()[-150:]!r})"))
                judge(g, f"{engine}: add {sig.name} "
                      f"{'after the first run' if not delay else f'after {delay} s'}", failures)
                code, _, err, _ = run([PERFGAUGE, "history", "add", files[0], "--db", s.db],
                                      timeout=180)
                judge(g, f"{engine}: add after a {sig.name}",
                      [] if code == 0 else [("wrong exit", f"exit {code} {err[:150]!r}")])


# ----------------------------------------------------------------------------- I: disk full

def group_disk_full():
    g = "I disk full"
    if not ROOT:
        print("I disk full: skipped (needs root for a small tmpfs)")
        return
    mnt = path("full")
    os.makedirs(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=600k", "tmpfs", mnt]).returncode:
        print("I disk full: skipped (no tmpfs)")
        return
    try:
        db = os.path.join(mnt, "h.db")
        s = Store("sqlite", "unused")
        s.db, s.dir = db, mnt
        small = write("full-small.json", gbench(["BM_a"]))
        big = write("full-big.json", gbench([f"BM_{j}_" + "x" * 200 for j in range(400)],
                                            times=tuple(1.0 + k / 7 for k in range(30))))
        case(g, "add to an empty tmpfs", ["history", "add", small, "--db", db], 0)
        statuses = []
        for i in range(6):
            before = s.runs()
            code, out, err, _ = case(g, f"add #{i} until the disk is full",
                                     ["history", "add", big, "--db", db], {0, 1},
                                     after=lambda c, o, e: consistent(s) + (
                                         [("misleading message", f"{e[:200]!r}")]
                                         if c == 1 and ("full" not in e or db not in e) else []))
            statuses.append(code)
            if code == 1:
                judge(g, f"add #{i}: nothing stored when it failed",
                      [] if s.runs() == before else [("silent loss", "a run was half stored")])
        judge(g, "the disk became full", [] if 1 in statuses else
              [("silent loss", f"never full? {statuses}")])
        for sub in ("list", "show", "check", "export"):
            case(g, f"{sub} on a full disk", ["history", sub, "--db", db], {0, 3})
        out_file = os.path.join(mnt, "export.csv")
        # Fill what is left.
        with open(out_file, "w") as f:
            pass
        try:
            with open(os.path.join(mnt, "filler"), "wb") as f:
                while True:
                    f.write(b"\0" * 4096)
                    f.flush()
        except OSError:
            pass
        case(g, "export -o onto a full disk (an empty file there)",
             ["history", "export", "-o", out_file, "--db", db], 1, [out_file],
             protect=[out_file], store_dir=mnt)
        case(g, "report -o onto a full disk", ["history", "report", "-o",
                                               os.path.join(mnt, "rep"), "--db", db], {1},
             [os.path.join(mnt, "rep")], store_dir=mnt)
        before = s.runs()
        case(g, "add onto a disk with no byte left", ["history", "add", small, "--db", db], 1,
             [db], after=lambda c, o, e: consistent(s) + (
                 [] if s.runs() == before else [("silent loss", "counted a run")]))
        if os.path.exists(os.path.join(mnt, "filler")):
            os.unlink(os.path.join(mnt, "filler"))
        case(g, "add once room is back", ["history", "add", small, "--db", db], 0)
        # TMPDIR full: history commands do not need it, except plot.
        env = dict(ENV, TMPDIR=os.path.join(mnt, "tmpdir-missing"))
        case(g, "list with a missing TMPDIR", ["history", "list", "--db", db], 0, env=env)
    finally:
        subprocess.run(["umount", "-l", mnt])


# ---------------------------------------------------------------------------- J: Ctrl-C

def group_interrupts():
    g = "J Ctrl-C"
    s = series_store("sqlite")
    fifo = path("export.fifo")
    os.mkfifo(fifo)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        p = subprocess.Popen([PERFGAUGE, "history", "export", "-o", fifo, "--db", s.db], env=ENV,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             preexec_fn=default_signals)
        time.sleep(0.5)
        p.send_signal(sig)
        try:
            _, err = p.communicate(timeout=10)
            code = p.returncode if p.returncode >= 0 else 128 - p.returncode
            err = err.decode(errors="replace")
            failures = [] if code == 128 + sig and fifo in err else [
                ("wrong exit" if code != 128 + sig else "misleading message",
                 f"exit {code} {err[:150]!r}")]
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            failures = [("hang", "export to an unread FIFO ignored the signal")]
        judge(g, f"export -o an unread FIFO, {sig.name}", failures)
    for sub in (["plot", "-o", path("int.png")], ["report", "-o", path("int-report")]):
        for delay in (0.05, 0.4):
            left = leftovers()
            p = subprocess.Popen([PERFGAUGE, "history"] + sub + ["--db", s.db], env=ENV,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 start_new_session=True, preexec_fn=default_signals)
            time.sleep(delay)
            os.killpg(p.pid, signal.SIGINT)
            _, err = p.communicate(timeout=60)
            code = p.returncode if p.returncode >= 0 else 128 - p.returncode
            failures = []
            if code not in (0, 130):
                failures.append(("wrong exit", f"exit {code} {err[-150:]!r}"))
            if leftovers() - left:
                failures.append(("orphan/temp", f"{sorted(leftovers() - left)}"))
            beside = [f for d in (DIR, path("int-report")) if os.path.isdir(d)
                      for f in os.listdir(d) if ".tmp" in f or f.startswith(".")]
            if beside:
                failures.append(("orphan/temp", f"beside the output: {beside}"))
            judge(g, f"{sub[0]}: SIGINT to the group after {delay} s", failures)
    # A 1000-run store: interrupting a reader leaves it whole.
    big = Store("sqlite", "int-big")
    files = [write(f"int-{i}.json", gbench([f"BM_{j}" for j in range(50)], times=(2.0 + i,) * 3))
             for i in range(40)]
    add(big, files, "--commit", "x")
    for sub in ("show", "check", "export", "list"):
        p = subprocess.Popen([PERFGAUGE, "history", sub, "--db", big.db], env=ENV,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             preexec_fn=default_signals)
        time.sleep(0.1)
        p.send_signal(signal.SIGINT)
        p.wait(timeout=60)
        p.stderr.close()
        judge(g, f"{sub}: SIGINT leaves the store whole", consistent(big))


GROUP_FUNCTIONS = {"A": group_locations, "B": group_read_only, "C": group_newer_schema,
                   "D": group_names, "E": group_patterns, "F": group_options,
                   "G": group_outputs, "H": group_concurrency, "I": group_disk_full,
                   "J": group_interrupts}


def stray_processes():
    out = subprocess.run(["ps", "-eo", "pid,args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if PERFGAUGE in line and "history_trial" not in line]


def main():
    global PG
    PG = Postgres()
    start = time.monotonic()
    try:
        for key, fn in GROUP_FUNCTIONS.items():
            if ONLY is None or key in ONLY:
                fn()
    finally:
        PG.stop()
        subprocess.run(["umount", "-l", path("full")], stderr=subprocess.DEVNULL)
        subprocess.run(["umount", "-l", path("ro-mount")], stderr=subprocess.DEVNULL)
        for d in (path("out-ro"), path("ro-dir")):
            if os.path.exists(d):
                os.chmod(d, 0o755)
        shutil.rmtree(DIR, ignore_errors=True)
    stray = stray_processes()
    if stray:
        FAILS["orphan/temp"].append(f"processes left: {stray}")
    cases = sum(c for c, _ in GROUPS.values())
    failed = sum(f for _, f in GROUPS.values())
    print(f"PostgreSQL {PG.version}; {cases} cases, {failed} failed, "
          f"{time.monotonic() - start:.0f} s")
    for group, (c, f) in GROUPS.items():
        print(f"  {group}: {c} cases, {f} failed")
    for cls in CLASSES:
        print(f"{cls}: {len(FAILS[cls])}")
        for f in FAILS[cls]:
            print(f"    {f}")
    for a in sys.argv:
        if a.startswith("--messages="):
            with open(a.split("=", 1)[1], "w", errors="replace") as f:
                f.write("\n".join(MESSAGES) + "\n")
    print("timings (exit status, seconds):")
    for name, code, seconds in TIMINGS:
        print(f"    {name}: exit {code}, {seconds:.3f} s")


if __name__ == "__main__":
    main()
