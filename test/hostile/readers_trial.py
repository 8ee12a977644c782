#!/usr/bin/python3
"""A hostile trial of perfgauge's readers, plot scripts and fleet scripts (issue 49, items 5, 6
and 8): what a careless or hostile user gives, by class, with what must hold.

Usage: /usr/bin/python3 test/hostile/readers_trial.py PERFGAUGE FLEET_DIR [--verbose]

PERFGAUGE is the binary under test (its plotting scripts are found as it finds them: beside it
in ../share/perfgauge, else in the source tree it was built from); FLEET_DIR holds the
measure-and-store.sh and slurm-submit.sh under test. Prints, per class, the cases that behaved
and the ones that did not. Not in ctest: it takes a few minutes (each `run` measures).
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

PERFGAUGE = os.path.abspath(sys.argv[1])
FLEET = os.path.abspath(sys.argv[2])
VERBOSE = "--verbose" in sys.argv
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SMALL_RUN = os.path.join(SOURCE, "test/e2e/fixtures/small-run.json")
STAT = os.path.join(SOURCE, "test/harness/results/fixtures/stat-unversioned.json")
RESULTS = {}
DIR = tempfile.mkdtemp(prefix="readers-trial.")
TMP = os.path.join(DIR, "tmp")
os.mkdir(TMP)
ENV = dict(os.environ, TMPDIR=TMP)
TINY_BASE = ["run", "--workload", "memcpy", "--sizes", "1K", "--cache", "hot", "-r", "2",
             "--processes", "1", "--min-time", "0.0002", "--warmup", "0", "--precision", "0", "-q"]
TINY_RUN = TINY_BASE + ["-e", "task-clock"]


def path(name):
    return os.path.join(DIR, name)


def write(name, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path(name), mode) as f:
        f.write(data)
    return path(name)


def run(args, env=None, timeout=60, stdout=None, **kw):
    start = time.monotonic()
    try:
        p = subprocess.run(args, env=env or ENV, timeout=timeout, cwd=DIR,
                           stdout=stdout or subprocess.PIPE, stderr=subprocess.PIPE, **kw)
        code = p.returncode if p.returncode >= 0 else 128 - p.returncode
        out = p.stdout.decode(errors="replace") if p.stdout else ""
        return code, out, p.stderr.decode(errors="replace"), time.monotonic() - start
    except subprocess.TimeoutExpired:
        return "timeout", "", "", time.monotonic() - start


def record(cls, name, ok, detail=""):
    entry = RESULTS.setdefault(cls, [0, 0, []])
    entry[0 if ok else 1] += 1
    if not ok:
        entry[2].append(f"{name}: {detail[:300]}")
    if VERBOSE:
        print(f"[{cls}] {'ok  ' if ok else 'FAIL'} {name}", flush=True)


def expect(cls, name, args, status, text=None, absent=(), **kw):
    code, out, err, _ = run(args, **kw)
    ok = code == status and (text is None or text in err) and not any(a in err for a in absent)
    record(cls, name, ok, f"exit {code}, stderr {err.strip()[:250]!r}")
    return code, out, err


def no_traceback(err):
    return "Traceback" not in err and "KeyboardInterrupt" not in err


# ---- inputs -------------------------------------------------------------------------------

def deep(text, depth):
    brace = text.index("{")
    return text[:brace + 1] + '"deep": ' + "[" * depth + "]" * depth + ", " + text[brace + 1:]


def gbench(second_extra=None):
    entry = {"name": "BM_a", "run_name": "BM_a", "run_type": "iteration", "family_index": 0,
             "per_family_instance_index": 0, "iterations": 10, "real_time": 2.0,
             "cpu_time": 2.0, "time_unit": "ns", "repetition_index": 0}
    first = json.dumps(entry)
    entry["repetition_index"] = 1
    second = json.dumps(entry)
    if second_extra:
        field, raw = second_extra
        entry.pop(field, None)
        second = json.dumps(entry)[:-1] + f', "{field}": {raw}}}'
    return ('{"context": {"date": "2026-12-07", "num_cpus": 2}, "benchmarks": [' + first + ", "
            + second + "]}")


run_text = open(SMALL_RUN).read()
stat_text = open(STAT).read()
RUN = write("run.json", run_text)
DEEP = write("deep.json", deep(run_text, 100000))
SDEEP = write("sdeep.json", deep(stat_text, 100000))
GB = write("gb.json", gbench())
GDEEP = write("gdeep.json", deep(gbench(), 100000))
GNAN_DEEP = write("gnandeep.json", deep(gbench(("x", "NaN")), 100000))


def class_depth():
    c = "6a depth"
    cases = [
        ("compare deep run", ["compare", DEEP, RUN]),
        ("compare run deep", ["compare", RUN, DEEP]),
        ("export json", ["export", DEEP, "--format", "json"]),
        ("export csv", ["export", DEEP, "--format", "csv"]),
        ("export md", ["export", DEEP, "--format", "md"]),
        ("export bmf", ["export", DEEP, "--format", "bmf"]),
        ("export table", ["export", DEEP]),
        ("history add", ["history", "add", DEEP, "--db", path("deep.db")]),
        ("plot", ["plot", DEEP, "-o", path("deep.png")]),
        ("compare deep stat", ["compare", SDEEP, SDEEP]),
        ("export deep stat bmf", ["export", SDEEP, "--format", "bmf"]),
        ("compare deep gbench", ["compare", GDEEP, GB]),
        ("export deep gbench bmf", ["export", GDEEP, "--format", "bmf"]),
        ("plot deep gbench", ["plot", GDEEP, "-o", path("gdeep.png")]),
        ("compare deep gbench with NaN", ["compare", GNAN_DEEP, GB]),
        ("export json 65 deep", ["export", write("d65.json", deep(run_text, 64)), "--format",
                                 "json"]),
    ]
    for name, args in cases:
        expect(c, name, [PERFGAUGE] + args, 2, "JSON nested deeper than 64 levels at byte",
               timeout=30)
    expect(c, "export json 64 deep is read", [PERFGAUGE, "export",
           write("d64.json", deep(run_text, 63)), "--format", "json"], 0)
    text = run_text.replace('"benchmarks": [', '"s": "' + "[" * 5000 + '", "benchmarks": [', 1)
    expect(c, "brackets in a string are text", [PERFGAUGE, "export", write("s.json", text),
           "--format", "json"], 0)


def class_bom():
    c = "6b plot reads what compare reads"
    bom = b"\xef\xbb\xbf"
    for kind, text in (("run", run_text), ("stat", stat_text), ("gbench", gbench())):
        f = write(f"bom-{kind}.json", bom + text.encode())
        code, _, err, _ = run([PERFGAUGE, "plot", f, "-o", path(f"bom-{kind}.png")])
        record(c, f"plot BOM {kind}", code == 0 and os.path.exists(path(f"bom-{kind}.png")),
               f"exit {code} {err[-250:]!r}")
    f = path("bom-run.json")
    expect(c, "compare BOM (control)", [PERFGAUGE, "compare", f, RUN], 0)
    code, out, err, _ = run([PERFGAUGE, "export", f, "--format", "json"])
    record(c, "export BOM json", code == 0 and out.startswith("{"), f"exit {code} {err[:200]}")
    expect(c, "history add BOM", [PERFGAUGE, "history", "add", f, "--db", path("bom.db")], 0)


def script_cases():
    # The scripts the binary runs: installed beside it, else the source tree's.
    beside = os.path.join(os.path.dirname(os.path.dirname(PERFGAUGE)), "share/perfgauge")
    scripts = beside if os.path.isdir(beside) else os.path.join(SOURCE, "scripts")
    sweep = os.path.join(scripts, "plot_sweep.py")
    history = os.path.join(scripts, "history_plot.py")
    base = json.loads(run_text)
    bad_value = json.loads(run_text)
    bad_value["benchmarks"][0]["perfgauge_ns_per_item"] = "fast"
    bad_entry = json.loads(run_text)
    bad_entry["benchmarks"][0] = 7
    no_context = dict(base)
    no_context["context"] = 5
    series = ('{"series": [{"benchmark": "b", "metric": "time", "machine": "m", "unit": "ns", '
              '"runs": [{"run": 1, "commit": "a", "median": 1, "spread": 0.1}, '
              '{"run": 2, "commit": "b", "median": 2, "spread": 0.1}], "changes": []')
    return sweep, history, [
        (sweep, "a list", "[1, 2]"),
        (sweep, "a wrong value", json.dumps(bad_value)),
        (sweep, "an entry that is a number", json.dumps(bad_entry)),
        (sweep, "context a number", json.dumps(no_context)),
        (sweep, "100,000 deep", "[" * 100000 + "]" * 100000),
        (sweep, "not UTF-8", b"\xff\xfe{}"),
        (sweep, "not JSON", "{"),
        (sweep, "empty", ""),
        (history, "a series without changes", '{"series": [{"runs": []}]}'),
        (history, "an accepted index that is text",
         series + ', "accepted": [{"index": "x", "reason": "r"}]}]}'),
        (history, "series a string", '{"series": "x"}'),
    ], series


def class_python():
    c = "6c no traceback, Ctrl-C"
    sweep, history, cases, series = script_cases()
    for script, name, text in cases:
        f = write("in.json", text)
        code, _, err, _ = run(["/usr/bin/python3", script, f, "-o", path("o.png")])
        record(c, f"{os.path.basename(script)}: {name}",
               code == 2 and no_traceback(err) and f in err and err.count("\n") == 1,
               f"exit {code} {err[-300:]!r}")
    f = write("series.json", series + ', "accepted": [{"index": 1, "commit": "b", '
              '"reason": "by design"}]}]}')
    code, _, err, _ = run(["/usr/bin/python3", history, f, "-o", path("h.svg")])
    record(c, "history_plot.py: accepted drawn", code == 0 and "accepted: by design" in
           open(path("h.svg")).read() if code == 0 else False, f"exit {code} {err[-200:]!r}")
    for to in ("group", "perfgauge", "python"):
        interrupted_plot(c, to)


def plot_child(parent):
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == parent:
                    with open(f"/proc/{pid}/cmdline", "rb") as g:
                        if b"plot_sweep.py" in g.read():
                            return int(pid)
        except (OSError, IndexError, ValueError):
            pass
    return 0


def interrupted_plot(c, to):
    for leftover in os.listdir(TMP):
        shutil.rmtree(os.path.join(TMP, leftover), ignore_errors=True)
    out = path(f"int-{to}.png")
    p = subprocess.Popen([PERFGAUGE, "plot", RUN, "-o", out], env=ENV, cwd=DIR,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    child, deadline = 0, time.monotonic() + 20
    while not child and time.monotonic() < deadline and p.poll() is None:
        child = plot_child(p.pid)
        time.sleep(0.01)
    time.sleep(0.4)  # the script is running (importing matplotlib or drawing)
    if to == "group":
        os.killpg(p.pid, signal.SIGINT)
    elif to == "perfgauge":
        p.send_signal(signal.SIGINT)
    elif child:
        os.kill(child, signal.SIGINT)
    _, err = p.communicate(timeout=30)
    err = err.decode(errors="replace")
    code = p.returncode if p.returncode >= 0 else 128 - p.returncode
    ok = (code == 130 and no_traceback(err) and err.count("\n") == 1 and "SIGINT" in err
          and not os.path.exists(out) and not os.listdir(TMP))
    record(c, f"plot, SIGINT to {to}", ok,
           f"exit {code} {err[-300:]!r} left {os.listdir(TMP)}")


def class_fleet():
    c = "5 fleet"
    script = os.path.join(FLEET, "measure-and-store.sh")
    fake = write("fakepg", "#!/bin/bash\nif [ \"$1\" = run ]; then\n"
                 "  while [ $# -gt 0 ]; do [ \"$1\" = --json ] && { cp " + SMALL_RUN +
                 " \"$2\"; exit ${FAKE_RUN_STATUS:-0}; }; shift; done; exit 2\nfi\n"
                 f"exec {PERFGAUGE} \"$@\"\n")
    os.chmod(fake, 0o755)
    work = path("fleet")
    os.makedirs(work, exist_ok=True)
    for name in ("k=a b", "k=a c"):
        open(os.path.join(work, name), "w").close()
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()

    def measure(db, labels, extra=None):
        for f in os.listdir(work):
            if f.startswith("perfgauge-result-"):
                os.unlink(os.path.join(work, f))
        env = dict(ENV, PERFGAUGE=fake, PERFGAUGE_DB=db, PERFGAUGE_LABELS=labels, **(extra or {}))
        p = subprocess.run(["bash", script, "--workload", "memcpy"], env=env, cwd=work,
                           capture_output=True, timeout=60)
        kept = [f for f in os.listdir(work) if f.startswith("perfgauge-result-")]
        return p.returncode, p.stderr.decode(errors="replace"), kept

    down = f"postgresql://u:secret@127.0.0.1:{port}/db"
    code, err, kept = measure(down, "k=v")
    record(c, "store down: result kept", code != 0 and len(kept) == 1, f"exit {code} {err!r}")
    record(c, "store down: file named", bool(kept) and kept[0] in err, err)
    record(c, "store down: retry command", "add it later with:" in err, err)
    record(c, "store down: no password", "secret" not in err, err)
    db = path("fleet.db")
    code, err, kept = measure(db, "k=a *")
    listing = run([PERFGAUGE, "history", "list", "--db", db])[1]
    record(c, "label 'k=a *' as given", code == 0 and "k=a *" in listing, f"{err!r} {listing!r}")
    record(c, "stored result removed", code == 0 and not kept, f"{err!r} {kept}")
    code, err, kept = measure(db, "k=$(x) y")
    listing = run([PERFGAUGE, "history", "list", "--db", db])[1]
    record(c, "label 'k=$(x) y' as given", code == 0 and "k=$(x) y" in listing, f"{err!r}")
    code, err, kept = measure(db, "no-equals")
    record(c, "bad label: kept", code != 0 and len(kept) == 1, f"exit {code} {err!r}")
    code, err, kept = measure(db, "k=v", {"FAKE_RUN_STATUS": "1"})
    record(c, "failed run: kept", code == 1 and len(kept) == 1, f"exit {code} {err!r}")
    code, err, kept = measure(db, "k=v", {"PERFGAUGE_RESULTS_DIR": path("none")})
    record(c, "results dir missing: refused", code == 2 and not kept, f"exit {code} {err!r}")
    submit = os.path.join(FLEET, "slurm-submit.sh")
    p = subprocess.run(["bash", submit, "--db"], capture_output=True, timeout=30)
    err = p.stderr.decode(errors="replace")
    record(c, "slurm-submit --db without a value", p.returncode == 2 and "unbound" not in err,
           f"exit {p.returncode} {err!r}")


def class_leftovers():
    c = "8 leftovers"
    both = path("both.txt")
    for name, args in (("run --json /dev/stdout", TINY_RUN + ["--json", "/dev/stdout"]),
                       ("run --json /dev/fd/1", TINY_RUN + ["--json", "/dev/fd/1"]),
                       ("run --format json --json /dev/stdout",
                        TINY_RUN + ["--format", "json", "--json", "/dev/stdout"]),
                       ("selftest --json /dev/stdout", ["selftest", "--tiny", "--json",
                                                        "/dev/stdout"])):
        expect(c, name, [PERFGAUGE] + args, 2, "standard output", timeout=120)
    with open(both, "w") as f:
        code, _, err, _ = run([PERFGAUGE] + TINY_RUN + ["--json", both], stdout=f, timeout=120)
    record(c, "run --json F > F", code == 2, f"exit {code} {err[-200:]!r}")
    expect(c, "run -o F --json /dev/stdout (one stream each)",
           [PERFGAUGE] + TINY_RUN + ["-o", path("t.txt"), "--json", "/dev/stdout"], 0,
           timeout=120)
    for d in (DIR, "/usr/bin"):
        expect(c, f"PERFGAUGE_PYTHON={d}", [PERFGAUGE, "plot", RUN, "-o", path("x.png")], 1,
               "is a directory", env=dict(ENV, PERFGAUGE_PYTHON=d))
    odd = json.loads(run_text)
    odd["benchmarks"].append({"run_type": "other", "run_name": 5})
    expect(c, "export json: an entry with a numeric run_name", [PERFGAUGE, "export",
           write("odd1.json", json.dumps(odd)), "--format", "json", "--filter", "."], 0,
           absent=("json.exception",))
    odd["benchmarks"].append(7)
    expect(c, "export json: an entry that is a number", [PERFGAUGE, "export",
           write("odd2.json", json.dumps(odd)), "--format", "json", "--filter", "."], 0,
           absent=("json.exception",))
    odd = json.loads(run_text)
    odd["benchmarks"] = {"a": 1}
    expect(c, "export json: benchmarks an object", [PERFGAUGE, "export",
           write("odd3.json", json.dumps(odd)), "--format", "json"], 2, "not an array",
           absent=("json.exception",))
    for field in ("family_index", "per_family_instance_index", "repetition_index", "threads",
                  "repetitions"):
        expect(c, f"gbench NaN {field}", [PERFGAUGE, "compare",
               write("gn.json", gbench((field, "NaN"))), GB], 2, f"{field} is NaN")
    expect(c, "gbench NaN error_occurred", [PERFGAUGE, "compare",
           write("gn.json", gbench(("error_occurred", "NaN"))), GB], 2, "error_occurred is NaN")
    big = json.loads(run_text)
    big["benchmarks"][0]["perfgauge_ns_per_item"] = list(range(100000))
    code, _, err, _ = run([PERFGAUGE, "compare", write("big.json", json.dumps(big)), RUN])
    record(c, "a wrong 100,000-element value is shown short", code == 2 and len(err) < 600,
           f"exit {code}, {len(err)} bytes")
    for args in (["compare", RUN, RUN, "--min-samples", "-1"],
                 ["compare", RUN, RUN, "--min-samples=-1"],
                 ["calibrate", "--samples", "-1"], ["calibrate", "--samples=-1"]):
        expect(c, " ".join(args[:1] + args[-2:]), [PERFGAUGE] + args, 2,
               "-1: expected a non-negative integer", absent=("18446744073709551615",))
    valgrind = write("valgrind", "#!/bin/sh\nfor a; do case \"$a\" in --log-file=*) "
                     "log=\"${a#*=}\";; esac; done\necho \"valgrind: cannot create "
                     "$(dirname \"$log\")/x\" > \"$log\"\nexit 1\n")
    os.chmod(valgrind, 0o755)
    saved = path("sim.json")
    code, _, err, _ = run([PERFGAUGE] + TINY_BASE + ["--backend", "sim", "-e",
                          "task-clock,instructions", "--json", saved],
                          env=dict(ENV, PERFGAUGE_VALGRIND=valgrind), timeout=120)
    record(c, "simulation failure: message", code == 1 and "perfgauge-sim." not in err,
           f"exit {code} {err[-300:]!r}")
    record(c, "simulation failure: saved reason", os.path.exists(saved) and
           "perfgauge-sim." not in open(saved).read(), "the saved result names it")


def main():
    try:
        for cls in (class_depth, class_bom, class_python, class_fleet, class_leftovers):
            cls()
    finally:
        shutil.rmtree(DIR, ignore_errors=True)
    total = [0, 0]
    for cls, (ok, failed, failures) in RESULTS.items():
        total[0] += ok
        total[1] += failed
        print(f"{cls}: {ok + failed} cases, {failed} failed")
        for f in failures:
            print(f"    {f}")
    print(f"total: {sum(total)} cases, {total[1]} failed")


if __name__ == "__main__":
    main()
