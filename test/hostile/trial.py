#!/usr/bin/python3
"""A hostile user's trial of perfgauge (issue 38): classes 1 to 8 (9 has its own tests).

Usage: /usr/bin/python3 test/hostile/trial.py PERFGAUGE [--verbose] [--only=5,1,6,2,7,3,4,8]

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


def gbench(names, repetition_index=False):
    """Google Benchmark JSON, one iteration entry per name; with repetition_index, as Google
    Benchmark 1.5 writes them (run_name, repetitions, repetition_index 0: one run each)."""
    def entry(n):
        e = {"name": n, "run_type": "iteration", "iterations": 1000, "real_time": 2.0,
             "cpu_time": 2.0, "time_unit": "ns"}
        if repetition_index:
            e.update(run_name=n, repetitions=1, repetition_index=0, threads=1)
        return e
    return json.dumps({"context": {"date": "2026-11-27T00:00:00+00:00", "num_cpus": 2},
                       "benchmarks": [entry(n) for n in names]})


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
            if not expected:  # matching none is an error (exit 2), said briefly
                record(5, case, code == 2 and b"matches none" in err and len(err) < 1000,
                       f"exit {code}: {err[:200]!r}")
                continue
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


# ---------------------------------------------------------------- classes 3, 4, 8: helpers
QUICK_RUN = ["run", "--workload", "memcpy", "--sizes", "1K", "--cache", "hot", "-r", "2",
             "--processes", "1", "--min-time", "0.0002", "--warmup", "0", "--precision", "0",
             "-q"]
VALGRIND = shutil.which("valgrind")


def script(tmp, name, body):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + body + "\n")
    os.chmod(path, 0o755)
    return path


def load_json(path):
    try:
        with open(path, "rb") as f:
            return json.loads(f.read().decode("utf-8"))
    except (OSError, ValueError):
        return None


def columns(result):
    """Event name -> the result's column description (context.perfgauge.events)."""
    events = ((result or {}).get("context", {}).get("perfgauge", {}).get("events", []))
    return {e.get("name"): e for e in events}


class FullFilesystem:
    """A 64 KiB tmpfs filled up (root only): yields its path, or None with the reason why not."""

    def __init__(self, tmp, name):
        self.path = os.path.join(tmp, name)
        self.mounted = False
        self.why_not = ""

    def __enter__(self):
        os.makedirs(self.path, exist_ok=True)
        p = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", self.path],
                           capture_output=True)
        if p.returncode != 0:
            self.why_not = p.stderr.decode(errors="replace").strip() or "mount refused"
            return None
        self.mounted = True
        try:
            with open(os.path.join(self.path, "filler"), "wb") as f:
                while True:
                    f.write(b"x" * 4096)
                    f.flush()
        except OSError:
            pass
        return self.path

    def __exit__(self, *exc):
        if self.mounted:
            subprocess.run(["umount", self.path], capture_output=True)
        return False


def run_interrupted(args, after, sig=signal.SIGINT, timeout=30, cwd=None):
    """Starts args, sends `sig` to it after `after` seconds; (exit status, stderr)."""
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd or SCRATCH,
                         preexec_fn=limit_memory, start_new_session=True)
    time.sleep(after)
    try:
        p.send_signal(sig)
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        return "timeout", b""
    return (p.returncode if p.returncode >= 0 else 128 - p.returncode), err


def kill_child_when_seen(marker, deadline):
    """Polls /proc for a process whose command line holds `marker` and SIGKILLs it (the marker
    names a private directory: nobody else's process matches)."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open(f"/proc/{pid}/cmdline", "rb") as f:
                    if marker in f.read():
                        os.kill(int(pid), signal.SIGKILL)
                        return True
            except OSError:
                continue
        time.sleep(0.005)
    return False


# ---------------------------------------------------------------- class 3: failed stages
def sim_failure_case(tmp, case, env_extra, expect_reason=None):
    saved = os.path.join(tmp, "sim.json")
    if os.path.exists(saved):
        os.unlink(saved)
    env = dict(os.environ, **env_extra)
    code, out, err, _ = run([PERFGAUGE] + QUICK_RUN + ["--backend", "sim", "-e",
                                                       "task-clock,instructions", "--json",
                                                       saved], timeout=300, env=env)
    cols = columns(load_json(saved))
    native = cols.get("task-clock", {}).get("counted") is True
    sim = cols.get("instructions", {})
    why = sim.get("refusal", {}).get("reason", "")
    ok = (code == 1 and native and sim.get("counted") is False and "simulation" in why and
          len(out) > 0 and clean_error(err) and (expect_reason is None or expect_reason in why))
    record(3, f"run --backend sim, {case}: native kept, sim not counted, exit 1", ok,
           f"exit {code}, native {native}, sim counted {sim.get('counted')!r} {why[:120]!r}, "
           f"table {len(out)} bytes: {err[-200:]!r}")


def class3(tmp):
    fails = script(tmp, "valgrind-fails", 'echo "valgrind: broken on purpose" >&2; exit 1')
    killed = script(tmp, "valgrind-killed", "kill -9 $$")
    gone = script(tmp, "valgrind-gone", 'exec /nonexistent/valgrind "$@"')
    terminated = script(tmp, "valgrind-term", "kill -TERM $$")
    sim_failure_case(tmp, "valgrind exits 1", {"PERFGAUGE_VALGRIND": fails})
    sim_failure_case(tmp, "valgrind killed by SIGKILL", {"PERFGAUGE_VALGRIND": killed})
    sim_failure_case(tmp, "valgrind killed by SIGTERM", {"PERFGAUGE_VALGRIND": terminated})
    sim_failure_case(tmp, "valgrind's program missing", {"PERFGAUGE_VALGRIND": gone})
    if VALGRIND:
        sim_failure_case(tmp, "TMPDIR missing", {"TMPDIR": os.path.join(tmp, "no-such-dir")})
        emfile = script(tmp, "valgrind-emfile", f'ulimit -n 10; exec {VALGRIND} "$@"')
        sim_failure_case(tmp, "EMFILE (ulimit -n 10)", {"PERFGAUGE_VALGRIND": emfile})
        with FullFilesystem(tmp, "full-tmp") as full:
            if full:
                sim_failure_case(tmp, "TMPDIR full", {"TMPDIR": full})
    # --processes 3 with the second measuring process killed: the others' samples are kept.
    saved = os.path.join(tmp, "procs.json")
    args = [PERFGAUGE, "run", "--workload", "memcpy", "--sizes", "1K,4K", "--cache", "hot", "-r",
            "6", "--processes", "3", "--min-time", "0.002", "--warmup", "0", "--precision", "0",
            "-e", "task-clock", "-q", "--json", saved]
    private_tmp = os.path.join(tmp, "procs-tmp")
    os.makedirs(private_tmp, exist_ok=True)
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=SCRATCH,
                         start_new_session=True, env=dict(os.environ, TMPDIR=private_tmp))
    # The second of three gets its request as JSON: ..."count":3,"index":1,"result_path":"TMP...
    killed_child = kill_child_when_seen(
        b'"count":3,"index":1,"result_path":"' + private_tmp.encode(), 120)
    out, err = p.communicate(timeout=300)
    result = load_json(saved)
    warnings = " ".join((result or {}).get("context", {}).get("perfgauge", {})
                        .get("warnings", [])) if result else ""
    benches = [b for b in (result or {}).get("benchmarks", []) if b.get("run_type") != "aggregate"]
    record(3, "run --processes 3 with process 2 killed: the others' samples merged, exit 1",
           killed_child and p.returncode == 1 and result is not None and len(benches) > 0 and
           "measuring process 2 of 3" in warnings + err.decode(errors="replace"),
           f"killed {killed_child}, exit {p.returncode}, result {result is not None}, "
           f"warnings {warnings[:160]!r}: {err[-200:]!r}")
    # plot: a finished picture is kept when stderr cannot take the note.
    run_json = os.path.join(tmp, "plot-input.json")
    code, out, _, _ = run([PERFGAUGE] + QUICK_RUN[:4] + ["1K,4K"] + QUICK_RUN[5:] +
                          ["--format", "json", "--json", "none"], timeout=120)
    with open(run_json, "wb") as f:
        f.write(out)
    for label, prefix in (("full (/dev/full)", "exec 2>/dev/full;"), ("closed", "exec 2>&-;")):
        picture = os.path.join(tmp, "kept.png")
        if os.path.exists(picture):
            os.unlink(picture)
        code, _, _, _ = run([PERFGAUGE, "plot", run_json, "-o", picture], timeout=120,
                            shell_prefix=prefix)
        png = os.path.exists(picture) and open(picture, "rb").read(8) == b"\x89PNG\r\n\x1a\n"
        record(3, f"plot keeps the picture when stderr is {label}", png,
               f"exit {code}, picture written: {png}")
    # The output stage: a JSON that cannot be written on a full file system must not stop the
    # table or -o (issue 38's must-show), and the reverse.
    fixture = FullFilesystem(tmp, "full-out")
    with fixture as full:
        if not full:
            print(f"class 3: full file system cases skipped: {fixture.why_not}")
            return
        table = os.path.join(tmp, "table.txt")
        for stage, extra, kept in (
                ("--json on a full file system", ["--json", os.path.join(full, "r.json"), "-o",
                                                  table], table),
                ("-o on a full file system", ["--json", os.path.join(tmp, "kept.json"), "-o",
                                              os.path.join(full, "t.txt")],
                 os.path.join(tmp, "kept.json"))):
            for p in (table, os.path.join(tmp, "kept.json")):
                if os.path.exists(p):
                    os.unlink(p)
            code, out, err, _ = run([PERFGAUGE] + QUICK_RUN + ["-e", "task-clock"] + extra,
                                    timeout=120)
            failed_name = extra[1] if stage.startswith("--json") else extra[3]
            ok = (code == 1 and os.path.exists(kept) and os.path.getsize(kept) > 0 and
                  failed_name.encode() in err and clean_error(err))
            record(3, f"run {stage}: the other output written, exit 1, the failed one named", ok,
                   f"exit {code}, other kept {os.path.exists(kept)}: {err[-200:]!r}")


# ---------------------------------------------------------------- class 4: unique names
def class4(tmp, run_json):
    selections = {
        "--sizes 4K,4096": ["--workload", "memcpy", "--sizes", "4K,4096", "--cache", "hot"],
        "--sizes 1K,1024,1k": ["--workload", "memcpy", "--sizes", "1K,1024,1k", "--cache", "hot"],
        "--sizes 4K,4K": ["--workload", "memcpy", "--sizes", "4K,4K", "--cache", "hot"],
        "--cache hot,hot": ["--workload", "memcpy", "--sizes", "4K", "--cache", "hot,hot"],
        "--workload memcpy,memcpy": ["--workload", "memcpy,memcpy", "--sizes", "4K", "--cache",
                                     "hot"],
        "--variant branchy,branchy": ["--workload", "varint", "--variant", "branchy,branchy",
                                      "--sizes", "4K", "--cache", "hot", "--dist", "uniform"],
    }
    for label, selection in selections.items():
        code, out, err, _ = run([PERFGAUGE, "run", "-r", "2", "--processes", "1", "--min-time",
                                 "0.0002", "--warmup", "0", "--precision", "0", "-e",
                                 "task-clock", "-q", "--format", "json", "--json", "none"] +
                                selection, timeout=300)
        result = load_json_bytes(out)
        # One median entry per benchmark (the iteration entries are one per sample).
        names = [b.get("run_name") for b in (result or {}).get("benchmarks", [])
                 if b.get("run_type") == "aggregate" and b.get("aggregate_name") == "median"]
        record(4, f"run {label}: folded, every benchmark name once",
               code == 0 and names and len(names) == len(set(names)) and len(err) > 0,
               f"exit {code}, names {names}: {err[-160:]!r}")
    # Readers refuse colliding benchmark names instead of merging them. Two Google Benchmark
    # entries of one name with the same repetition_index are two benchmarks (entries with no
    # repetition_index are how Google Benchmark before 1.5 wrote repetitions: below).
    collide_gb = os.path.join(tmp, "collide-gb.json")
    with open(collide_gb, "w") as f:
        f.write(gbench(["x", "x"], repetition_index=True))
    run_result = json.loads(run_json)
    run_result["benchmarks"] = run_result["benchmarks"] + run_result["benchmarks"]
    collide_run = os.path.join(tmp, "collide-run.json")
    with open(collide_run, "w") as f:
        json.dump(run_result, f)
    good = os.path.join(tmp, "good4.json")
    with open(good, "wb") as f:
        f.write(run_json)
    for kind, path in (("Google Benchmark", collide_gb), ("perfgauge run", collide_run)):
        for cname, args in (("export", ["export", path]),
                            ("export --format json", ["export", path, "--format", "json"]),
                            ("compare X X", ["compare", path, path]),
                            ("compare good X", ["compare", good, path]),
                            ("plot", ["plot", path, "-o", os.path.join(tmp, "c.png")])):
            if cname == "compare good X" and kind == "Google Benchmark":
                continue
            code, _, err, _ = run([PERFGAUGE] + args, timeout=60)
            record(4, f"{cname} on a {kind} result with colliding names: refused",
                   code == 2 and clean_error(err) and b"two benchmarks are named" in err,
                   f"exit {code}: {err[:160]!r}")
    # Every reader agrees on Google Benchmark's repetitions of the old form (no index): one
    # benchmark with two samples, read alike by compare, export and plot.
    repeated_gb = os.path.join(tmp, "repeated-gb.json")
    with open(repeated_gb, "w") as f:
        f.write(gbench(["x", "x"]))
    for cname, args in (("export --format bmf", ["export", repeated_gb, "--format", "bmf"]),
                        ("compare X X", ["compare", repeated_gb, repeated_gb]),
                        ("plot", ["plot", repeated_gb, "-o", os.path.join(tmp, "r.png")])):
        code, out, err, _ = run([PERFGAUGE] + args, timeout=60)
        record(4, f"{cname} on Google Benchmark repetitions without repetition_index: read",
               code == 0 and clean_error(err), f"exit {code}: {err[:160]!r}")


def load_json_bytes(data):
    try:
        return json.loads(data.decode("utf-8"))
    except ValueError:
        return None


# ---------------------------------------------------------------- class 8: statuses, messages
def class8(tmp, run_json):
    for args in (["run", "--seed", "-1"], ["run", "--sim-items", "-1"], ["run", "--sim-jobs", "-1"],
                 ["run", "-r", "-1"], ["run", "--processes", "-1"], ["stat", "-r", "-1", "--",
                                                                     "true"],
                 ["calibrate", "--samples", "-1"], ["run", "--pairs", "-1", "--against",
                                                    "/bin/true"]):
        # A run that takes -1 measures: keep it small (the case fails on its status then).
        tiny = []
        if args[0] == "run":
            tiny = ["--workload", "memcpy", "--sizes", "1K", "--cache", "hot", "--min-time",
                    "0.0002", "--warmup", "0", "--precision", "0", "-q", "-e", "task-clock",
                    "--json", "none"]
            tiny += [] if "-r" in args else ["-r", "2"]
            tiny += [] if "--processes" in args or "--against" in args else ["--processes", "1"]
        code, _, err, _ = run([PERFGAUGE] + args + tiny, timeout=60)
        record(8, f"{' '.join(args[:3])}: -1 is refused as not positive",
               code == 2 and b"18446744073709551615" not in err and clean_error(err) and
               (b"positive" in err or b"non-negative" in err or b"at least" in err or
                b"must be" in err),
               f"exit {code}: {err[:160]!r}")
    # Every list of formats is complete: a command that accepts bmf lists it.
    formats_good = os.path.join(tmp, "formats.json")
    with open(formats_good, "wb") as f:
        f.write(run_json)
    for command in ("run", "stat", "export", "compare"):
        tail = {"stat": ["--", "true"], "export": [formats_good],
                "compare": [formats_good, formats_good]}.get(command, [])
        _, help_out, _, _ = run([PERFGAUGE, command, "--help"], timeout=30)
        code, _, err, _ = run([PERFGAUGE, command, "--format", "nope"] + tail, timeout=30)
        # compare writes table, csv, json or md: bmf is export's (and run's, where --help says)
        accepts = b"bmf" in help_out or command == "export"
        record(8, f"{command} --format nope lists every format", code == 2 and
               (not accepts or b"bmf" in err), f"exit {code}: {err[:200]!r}")
    # A misconfigured PERFGAUGE_VALGRIND is named under --backend auto too.
    for value in ("/nonexistent/valgrind", tmp):
        env = dict(os.environ, PERFGAUGE_VALGRIND=value)
        for args in (QUICK_RUN + ["-e", "task-clock,instructions", "--json", "none"],
                     ["stat", "-e", "task-clock,instructions", "--", "true"]):
            code, out, err, _ = run([PERFGAUGE] + args, timeout=120, env=env)
            record(8, f"{args[0]} --backend auto with PERFGAUGE_VALGRIND={value}: named",
                   b"PERFGAUGE_VALGRIND" in out + err and clean_error(err),
                   f"exit {code}: {err[-200:]!r}")
    env = dict(os.environ, PERFGAUGE_PYTHON="/nonexistent/python3")
    good = os.path.join(tmp, "good8.json")
    with open(good, "wb") as f:
        f.write(run_json)
    code, _, err, _ = run([PERFGAUGE, "plot", good, "-o", os.path.join(tmp, "p8.png")],
                          timeout=60, env=env)
    record(8, "plot with a missing PERFGAUGE_PYTHON: named", b"PERFGAUGE_PYTHON" in err,
           f"exit {code}: {err[:160]!r}")
    # A full or missing TMPDIR is exit 1 (the work could not be done), naming the user's file.
    picture = os.path.join(tmp, "p8.png")
    with FullFilesystem(tmp, "full8") as full:
        tmpdirs = {"missing": os.path.join(tmp, "no-such-tmp")}
        if full:
            tmpdirs["full"] = full
        for label, tmpdir in tmpdirs.items():
            env = dict(os.environ, TMPDIR=tmpdir)
            code, _, err, _ = run([PERFGAUGE, "plot", good, "-o", picture], timeout=120, env=env)
            record(8, f"plot with a {label} TMPDIR: exit 1, no scratch path named",
                   code == 1 and b"perfgauge-plot" not in err and clean_error(err),
                   f"exit {code}: {err[-200:]!r}")
            if VALGRIND:
                code, _, err, _ = run([PERFGAUGE] + QUICK_RUN + ["--backend", "sim", "-e",
                                                                 "instructions", "--json",
                                                                 "none"], timeout=300, env=env)
                record(8, f"run --backend sim with a {label} TMPDIR: exit 1",
                       code == 1 and clean_error(err), f"exit {code}: {err[-200:]!r}")
    # Messages name the file the user gave, never perfgauge's scratch copy of a stream.
    stat_json = os.path.join(tmp, "stat8.json")
    run([PERFGAUGE, "stat", "-e", "task-clock", "--format", "json", "-o", stat_json, "--",
         "true"], timeout=30)
    for label, path in (("a stat result", stat_json), ("a run result", good)):
        fifo = os.path.join(tmp, "fifo8")
        if os.path.exists(fifo):
            os.unlink(fifo)
        os.mkfifo(fifo)
        code, _, err, _ = run([PERFGAUGE, "plot", fifo, "--counters", "no-such-counter", "-o",
                               picture], timeout=60, shell_prefix=f'cat "{path}" > "{fifo}" &')
        record(8, f"plot of {label} through a FIFO, refused: no scratch path named",
               code == 2 and b"perfgauge-plot" not in err and clean_error(err),
               f"exit {code}: {err[-200:]!r}")
    # Interrupted while saving: 128+N, promptly, never a hang or exit 0/1.
    for fmt in ("table", "json", "csv"):
        fifo = os.path.join(tmp, "fifo-save")
        if os.path.exists(fifo):
            os.unlink(fifo)
        os.mkfifo(fifo)
        code, err = run_interrupted([PERFGAUGE, "stat", "-e", "task-clock", "--format", fmt, "-o",
                                     fifo, "--", "true"], after=2.0)
        record(8, f"stat --format {fmt} -o FIFO without reader, SIGINT while saving: 130",
               code == 130 and clean_error(err), f"exit {code}: {err[-200:]!r}")
    fifo = os.path.join(tmp, "fifo-export")
    os.mkfifo(fifo)
    code, err = run_interrupted([PERFGAUGE, "export", good, "-o", fifo], after=1.0,
                                sig=signal.SIGTERM)
    record(8, "export -o FIFO without reader, SIGTERM while saving: 143", code == 143,
           f"exit {code}: {err[-200:]!r}")
    # plot accepts every result kind compare reads.
    gb = os.path.join(tmp, "gb8.json")
    with open(gb, "w") as f:
        f.write(gbench(["BM_a/64", "BM_a/512", "BM_a/4096"]))
    code, _, err, _ = run([PERFGAUGE, "plot", gb, "-o", picture], timeout=60)
    record(8, "plot of a Google Benchmark JSON (compare reads it)", code == 0,
           f"exit {code}: {err[-200:]!r}")


def main():
    global SCRATCH
    tmp = tempfile.mkdtemp(prefix="perfgauge-hostile-")
    SCRATCH = tmp
    try:
        run_json = quick_run_json(tmp)
        classes = {"5": lambda: class5(tmp), "1": lambda: class1(tmp, run_json),
                   "6": lambda: class6(tmp, run_json), "2": lambda: class2(tmp),
                   "7": lambda: class7(tmp), "3": lambda: class3(tmp),
                   "4": lambda: class4(tmp, run_json), "8": lambda: class8(tmp, run_json)}
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
