#!/usr/bin/python3
"""A hostile user's trial of perfgauge (issue 38): classes 1, 2, 5, 6 and 7.

Usage: /usr/bin/python3 test/hostile/trial.py PERFGAUGE [--verbose] [--only=5,1,6,2,7]

Runs a few hundred commands against the given perfgauge binary (this branch's, or main's to see
what it fixes) and prints, per class, how many cases behaved and which did not. Not in ctest: it
takes minutes and copies the binary. Every case runs in its own scratch directory under $TMPDIR,
with memory capped (RLIMIT_AS 4 GB) so that a binary that reads /dev/zero unbounded fails
instead of taking the machine; commands that must not take long have a timeout.
"""

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

PERFGAUGE = os.path.abspath(sys.argv[1])
VERBOSE = "--verbose" in sys.argv
RESULTS = {}  # class -> [passed, failed, [failure descriptions]]
TIMINGS = {}


def limit_memory():
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


SCRATCH = None  # every case runs here (run saves results in the current directory)


def run(args, timeout=30, env=None, cwd=None, shell_prefix=None):
    """Runs args; returns (exit status or 'timeout'/128+N, stdout bytes, stderr bytes, seconds)."""
    if shell_prefix:
        args = ["/bin/sh", "-c", shell_prefix + ' exec "$@"', "sh"] + args
    start = time.monotonic()
    try:
        # A session of its own: a case that signals its process group (kill 0) must not reach
        # the trial.
        p = subprocess.run(args, capture_output=True, timeout=timeout, env=env, cwd=cwd or SCRATCH,
                           preexec_fn=limit_memory, start_new_session=True)
        code = p.returncode if p.returncode >= 0 else 128 - p.returncode
        return code, p.stdout, p.stderr, time.monotonic() - start
    except subprocess.TimeoutExpired as e:
        return "timeout", e.stdout or b"", e.stderr or b"", time.monotonic() - start


def record(cls, name, ok, detail=""):
    entry = RESULTS.setdefault(cls, [0, 0, []])
    if ok:
        entry[0] += 1
    else:
        entry[1] += 1
        entry[2].append(f"{name}: {detail}")
    if VERBOSE:
        print(f"[{cls}] {'ok  ' if ok else 'FAIL'} {name} {'' if ok else detail}", flush=True)


def clean_error(err):
    """A message a user can act on: no raw library exception, no crash report."""
    text = err.decode(errors="replace")
    return "json.exception" not in text and "terminate called" not in text and \
        "std::" not in text and "AddressSanitizer" not in text


def gbench(names):
    return json.dumps({"context": {"date": "2026-11-27T00:00:00+00:00", "num_cpus": 2},
                       "benchmarks": [{"name": n, "run_type": "iteration", "iterations": 1000,
                                       "real_time": 2.0, "cpu_time": 2.0, "time_unit": "ns"}
                                      for n in names]})


def quick_run_json(tmp):
    code, out, err, _ = run([PERFGAUGE, "run", "--workload", "memcpy", "--sizes", "1K,4K",
                             "--cache", "hot", "-r", "2", "--processes", "1", "--min-time",
                             "0.0002", "--warmup", "0", "--precision", "0", "-e", "task-clock",
                             "-q", "--format", "json"], timeout=300, cwd=tmp)
    if code != 0:
        sys.exit(f"cannot make a run result: {err.decode(errors='replace')}")
    return out


# ---------------------------------------------------------------- class 5: user patterns
def class5(tmp):
    patterns = {  # pattern -> which of (A = 'a'*n, B = 'a'*n + 'b') it keeps
        "(a|a)*b": {"B"}, "(a*)*b": {"B"}, "^(a|aa)+$": {"A"}, "^(a+)+$": {"A"},
        "(x+x+)+y": set(), "a{0,1000}b": {"B"}, "b$": {"B"}, "^a": {"A", "B"},
    }
    for n in (1000, 10_000, 50_000, 100_000, 200_000, 500_000, 1 << 20):
        names = {"A": "a" * n, "B": "a" * n + "b"}
        path = os.path.join(tmp, f"gb-{n}.json")
        with open(path, "w") as f:
            f.write(gbench(list(names.values())))
        for pattern, expected in patterns.items():
            code, out, err, seconds = run([PERFGAUGE, "export", path, "--format", "bmf",
                                           "--filter", pattern], timeout=5)
            TIMINGS[(n, pattern)] = (code, seconds)
            case = f"export --filter '{pattern}' on {n}-char names"
            if code != 0:
                record(5, case, False, f"exit {code}")
                continue
            kept = {k for k, v in names.items() if v in json.loads(out)}
            record(5, case, kept == expected, f"kept {sorted(kept)}, expected {sorted(expected)}")
    path = os.path.join(tmp, "gb-small.json")
    with open(path, "w") as f:
        f.write(gbench(["x"]))
    for pattern in ("((", "a{2,1}", "(?<=a)b", "\\", "[z-a]", "*a", "a**", "(?P<n>a",
                    "x{1001}", "(?i", "\\p{Nope}", "[[:nope:]]"):
        code, _, err, _ = run([PERFGAUGE, "export", path, "--filter", pattern], timeout=5)
        record(5, f"invalid pattern '{pattern}'",
               code == 2 and b"not a regular expression" in err and clean_error(err),
               f"exit {code}: {err[:200]!r}")


# ---------------------------------------------------------------- class 1: inputs are not outputs
def aliases(tmp, target, suffix=""):
    """Names of `target` through other paths: itself, ./, dir/../, symlink, symlink chain, hard link."""
    d, base = os.path.split(target)
    sub = os.path.join(tmp, "sub")
    os.makedirs(sub, exist_ok=True)
    out = {"same path": target, "dot path": os.path.join(d, ".", base),
           "dotdot path": os.path.join(sub, "..", base)}
    link = os.path.join(tmp, f"link-{base}{suffix}")
    chain = os.path.join(tmp, f"chain-{base}{suffix}")
    hard = os.path.join(tmp, f"hard-{base}{suffix}")
    for p in (link, chain, hard):
        if os.path.lexists(p):
            os.unlink(p)
    os.symlink(target, link)
    os.symlink(link, chain)
    os.link(target, hard)
    out.update({"symlink": link, "symlink chain": chain, "hard link": hard})
    if suffix:  # plot -o must end in .png: only the links can
        out = {k: v for k, v in out.items() if v.endswith(suffix)}
    return out


def refused(cls, case, args, protected, timeout=120, cwd=None, env=None):
    before = {p: open(p, "rb").read() for p in protected}
    code, _, err, _ = run(args, timeout=timeout, cwd=cwd, env=env)
    intact = all(open(p, "rb").read() == before[p] for p in protected)
    # Refused for that reason, not another (a bad option would also exit 2).
    why = b"would destroy" in err or b"would replace" in err
    record(cls, case, code == 2 and why and intact and clean_error(err),
           f"exit {code}, inputs intact: {intact}: {err[:200]!r}")
    for p, text in before.items():  # the next case starts from the same files
        if not intact:
            with open(p, "wb") as f:
                f.write(text)


def class1(tmp, run_json):
    result = os.path.join(tmp, "r.json")
    other = os.path.join(tmp, "other.json")
    for p in (result, other):
        with open(p, "wb") as f:
            f.write(run_json)
    for kind, alias in aliases(tmp, result).items():
        refused(1, f"export -o {kind} of its input", [PERFGAUGE, "export", result, "-o", alias],
                [result])
        refused(1, f"export --format bmf -o {kind}",
                [PERFGAUGE, "export", result, "--format", "bmf", "-o", alias], [result])
        refused(1, f"export --format json -o {kind}",
                [PERFGAUGE, "export", result, "--format", "json", "-o", alias], [result])
        refused(1, f"compare A B -o {kind} of B", [PERFGAUGE, "compare", other, result, "-o",
                                                   alias], [result])
        refused(1, f"compare A B --format json -o {kind} of A",
                [PERFGAUGE, "compare", result, other, "--format", "json", "-o", alias], [result])
    for kind, alias in aliases(tmp, result, ".png").items():
        refused(1, f"plot -o {kind} of its input", [PERFGAUGE, "plot", result, "-o", alias],
                [result])
    # Executables: stat's command (by path and on PATH), the --against build, perfgauge itself.
    tool = os.path.join(tmp, "tool")
    shutil.copy("/bin/true", tool)
    for kind, alias in aliases(tmp, tool).items():
        refused(1, f"stat -o {kind} of the command",
                [PERFGAUGE, "stat", "-e", "task-clock", "-o", alias, "--", tool], [tool])
        refused(1, f"stat --format json -o {kind} of the command",
                [PERFGAUGE, "stat", "-e", "task-clock", "--format", "json", "-o", alias, "--",
                 tool], [tool])
    env = dict(os.environ, PATH=tmp + ":" + os.environ.get("PATH", "/usr/bin:/bin"))
    refused(1, "stat -o the command found on PATH",
            [PERFGAUGE, "stat", "-e", "task-clock", "-o", tool, "--", "tool"], [tool], env=env)
    refused(1, "stat side by side -o the second command",
            [PERFGAUGE, "stat", "-e", "task-clock", "-o", tool, "--", "true", ":::", tool],
            [tool])
    copy = os.path.join(tmp, "pg")
    shutil.copy(PERFGAUGE, copy)
    quick = ["--workload", "memcpy", "--sizes", "4K", "--cache", "hot", "--min-time", "0.0002",
             "--warmup", "0", "--precision", "0", "-e", "task-clock", "-q"]
    for kind, alias in list(aliases(tmp, copy).items())[:4]:
        for option in ("--against-json", "--json", "-o"):
            refused(1, f"run --against B {option} {kind} of B",
                    [PERFGAUGE, "run", "--against", copy, "-r", "6", option, alias] + quick,
                    [copy], timeout=300)
    # perfgauge itself, as a copy running (so that main's binary replaces only the copy).
    for kind, alias in list(aliases(tmp, copy).items())[3:]:
        refused(1, f"run --json {kind} of perfgauge itself",
                [copy, "run", "-r", "2", "--processes", "1", "--json", alias] + quick, [copy],
                timeout=300)
        refused(1, f"run -o {kind} of perfgauge itself",
                [copy, "run", "-r", "2", "--processes", "1", "-o", alias] + quick, [copy],
                timeout=300)
        refused(1, f"calibrate -o {kind} of perfgauge itself",
                [copy, "calibrate", "--quick", "--samples", "100", "-o", alias], [copy],
                timeout=300)


# ---------------------------------------------------------------- class 6: bounded inputs
def class6(tmp, run_json):
    good = os.path.join(tmp, "good.json")
    with open(good, "wb") as f:
        f.write(run_json)
    sparse = os.path.join(tmp, "sparse.json")
    with open(sparse, "wb") as f:
        f.truncate(10 << 30)
    directory = os.path.join(tmp, "a-dir")
    os.makedirs(directory, exist_ok=True)
    commands = {
        "export": lambda x: ["export", x], "export json": lambda x: ["export", x, "--format",
                                                                      "json"],
        "export bmf": lambda x: ["export", x, "--format", "bmf"],
        "export csv": lambda x: ["export", x, "--format", "csv"],
        "compare X B": lambda x: ["compare", x, good], "compare A X": lambda x: ["compare", good,
                                                                                 x],
        "plot": lambda x: ["plot", x, "-o", os.path.join(tmp, "p.png")],
    }
    hostile = {"/dev/zero": ("/dev/zero", b"more than"), "a 10 GB file": (sparse, b"more than"),
               "a directory": (directory, b"directory")}
    for cname, make in commands.items():
        for hname, (path, said) in hostile.items():
            code, _, err, seconds = run([PERFGAUGE] + make(path), timeout=30)
            record(6, f"{cname} on {hname}", code == 2 and said in err and clean_error(err),
                   f"exit {code} after {seconds:.1f} s: {err[:160]!r}")
    # Streams: read exactly once, the same answer as from the file.
    for cname, make in commands.items():
        if cname.startswith("compare"):
            continue
        code, expected, _, _ = run([PERFGAUGE] + make(good), timeout=60)
        fifo = os.path.join(tmp, "fifo")
        if os.path.exists(fifo):
            os.unlink(fifo)
        os.mkfifo(fifo)
        shell = f'cat "{good}" > "{fifo}" &'
        code2, out, err, _ = run([PERFGAUGE] + make(fifo), timeout=60, shell_prefix=shell)
        same = out == expected if not cname == "plot" else True
        record(6, f"{cname} on a FIFO", code2 == code == 0 and same,
               f"exit {code2} (file: {code}), same output: {same}: {err[:160]!r}")
    # Bytes that are not UTF-8 in arguments: stat writes its JSON and keeps the status.
    for label, raw in {"\\xff": b"\xff", "\\xc3\\x28": b"\xc3\x28", "surrogate": b"\xed\xa0\x80",
                       "\\xf8": b"\xf8\x88\x80\x80\x80", "overlong": b"\xc0\xaf"}.items():
        arg = os.fsdecode(b"arg-" + raw)
        for fmt in ("json", "csv", "md", "table"):
            out_path = os.path.join(tmp, "stat-out")
            code, _, err, _ = run([PERFGAUGE, "stat", "-e", "task-clock", "--format", fmt, "-o",
                                   out_path, "--", "/bin/sh", "-c", "exit 3", arg], timeout=30)
            ok = code == 3 and clean_error(err)
            if ok and fmt == "json":
                try:
                    json.loads(open(out_path, "rb").read().decode("utf-8"))
                except ValueError as e:
                    ok = False
                    err = str(e).encode()
            record(6, f"stat --format {fmt} with a {label} argument", ok,
                   f"exit {code}: {err[:160]!r}")
    # Result files with bytes that are not UTF-8: refused with a message, never an exception.
    bad = os.path.join(tmp, "bad-utf8.json")
    with open(bad, "wb") as f:
        f.write(gbench(["x"]).encode().replace(b'"x"', b'"x\xff"'))
    for cname, make in commands.items():
        code, _, err, _ = run([PERFGAUGE] + make(bad), timeout=30)
        record(6, f"{cname} on a result with a non-UTF-8 name", code == 2 and clean_error(err),
               f"exit {code}: {err[:160]!r}")


# ---------------------------------------------------------------- class 2: ignored signals
def class2(tmp):
    for name in ("HUP", "INT", "TERM"):
        number = getattr(signal, "SIG" + name)
        bit = 1 << (number - 1)
        cmd = f'kill -{name} $PPID; sleep 0.3; grep SigIgn /proc/$$/status; echo survived'
        for who in ("perfgauge", "its group"):
            target = "$PPID" if who == "perfgauge" else "0"
            command = cmd.replace("$PPID;", target + ";", 1)
            code, out, err, _ = run([PERFGAUGE, "stat", "-e", "task-clock", "--", "/bin/sh",
                                     "-c", command], timeout=30,
                                    shell_prefix=f"trap '' {name};")
            text = out.decode(errors="replace")
            mask = int(text.split("SigIgn:")[1].split()[0], 16) if "SigIgn:" in text else 0
            record(2, f"SIG{name} ignored at start, sent to {who}",
                   code == 0 and "survived" in text and mask & bit,
                   f"exit {code}, SigIgn {mask:x}: {err[-160:]!r}")
        # Not ignored: still an interruption, 128+N.
        code, out, err, _ = run([PERFGAUGE, "stat", "-e", "task-clock", "--", "/bin/sh", "-c",
                                 f"kill -{name} $PPID; sleep 5"], timeout=30)
        record(2, f"SIG{name} not ignored still interrupts", code == 128 + number,
               f"exit {code}: {err[-160:]!r}")
        # An ignored signal stays ignored for what perfgauge runs with -r, --prepare too.
        code, out, err, _ = run([PERFGAUGE, "stat", "-e", "task-clock", "-r", "3", "--prepare",
                                 "grep SigIgn /proc/$$/status >&2", "--", "/bin/sh", "-c",
                                 "grep SigIgn /proc/$$/status"], timeout=30,
                                shell_prefix=f"trap '' {name};")
        text = out.decode(errors="replace") + err.decode(errors="replace")
        masks = [int(part.split()[0], 16) for part in text.split("SigIgn:")[1:]]
        record(2, f"SIG{name} ignored at start stays ignored for CMD and --prepare",
               code == 0 and len(masks) >= 3 and all(m & bit for m in masks),
               f"exit {code}, masks {masks}")


# ---------------------------------------------------------------- class 7: children
def class7(tmp):
    orphan = os.path.join(tmp, "orphan")
    command = ('n=0; for f in /proc/[0-9]*/status; do '
               'grep -qs "^PPid:.$PPID\\$" $f && grep -qs "^State:.Z" $f && n=$((n+1)); done; '
               'echo zombies=$n; (sleep 0 & echo $! > "$0"); o=$(cat "$0"); '
               'while [ -e /proc/$o ] && ! grep -qs "^State:.Z" /proc/$o/status; do sleep 0.01; '
               'done')
    for runs in (3, 10, 30, 100):
        code, out, err, _ = run([PERFGAUGE, "stat", "-e", "task-clock", "-r", str(runs), "--",
                                 "/bin/sh", "-c", command, orphan], timeout=300)
        counts = [int(x) for x in out.decode().replace("zombies=", " ").split()]
        record(7, f"stat -r {runs}: adopted orphans reaped as they end",
               code == 0 and len(counts) == runs and max(counts) == 0,
               f"exit {code}, most zombies seen {max(counts) if counts else None}")
    for runs in (2, 3, 10):
        script = os.path.join(tmp, "once.sh")
        with open(script, "w") as f:
            f.write('#!/bin/sh\nrm "$0"\n')
        os.chmod(script, 0o700)
        out_path = os.path.join(tmp, "once.json")
        code, _, err, _ = run([PERFGAUGE, "stat", "-e", "task-clock", "-r", str(runs), "--format",
                               "json", "-o", out_path, "--", script], timeout=60)
        reps = json.load(open(out_path)).get("repetitions") if os.path.exists(out_path) else None
        record(7, f"stat -r {runs}: a run that could not exec is not counted",
               code == 127 and reps == 1, f"exit {code}, repetitions {reps}")
        if os.path.exists(out_path):
            os.unlink(out_path)


def main():
    global SCRATCH
    tmp = tempfile.mkdtemp(prefix="perfgauge-hostile-")
    SCRATCH = tmp
    try:
        run_json = quick_run_json(tmp)
        classes = {"5": lambda: class5(tmp), "1": lambda: class1(tmp, run_json),
                   "6": lambda: class6(tmp, run_json), "2": lambda: class2(tmp),
                   "7": lambda: class7(tmp)}
        only = [a.split("=", 1)[1] for a in sys.argv if a.startswith("--only=")]
        for name, fn in classes.items():
            if not only or name in only[0].split(","):
                fn()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    total = sum(p + f for p, f, _ in RESULTS.values())
    print(f"perfgauge: {PERFGAUGE}")
    print(f"{total} cases")
    for cls in sorted(RESULTS):
        passed, failed, failures = RESULTS[cls]
        print(f"class {cls}: {passed + failed} cases, {failed} failed")
        for line in failures:
            print(f"    {line}")
    worst = max((s for (n, _), (c, s) in TIMINGS.items() if n == 1 << 20), default=None)
    if worst is not None:
        print(f"export --filter on 1 MiB names: slowest of {len(TIMINGS) // 7} patterns "
              f"{worst:.2f} s")
    return 0 if all(f == 0 for _, f, _ in RESULTS.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
