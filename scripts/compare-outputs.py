#!/usr/bin/python3
"""Before/after check of a refactoring that must not change behaviour: runs two perfgauge
binaries on the same inputs and compares what each wrote (stdout, stderr, files) and its exit
status. Deterministic outputs (export on the test fixtures, events, error messages) must be
identical byte for byte; outputs holding measured times (calibrate, selftest, stat) are compared
by structure: every number replaced by N and runs of blanks by one (a table's widths follow its
numbers), JSON by its keys, types and non-numeric text (null as a number, booleans alike).

usage: scripts/compare-outputs.py OLD_PERFGAUGE NEW_PERFGAUGE [--quick] [--keep DIR]
  --quick  leave out calibrate and selftest --quick (the measuring ones, about a minute)
  --keep   keep each case's outputs in DIR (else a temporary directory, removed)
  --only S run only the cases whose name contains S
A case compared by structure that differs is also run twice with OLD: where OLD's two runs
differ in structure as well, the difference is the measurement's (a row that passed once and
failed the next time), and the diff lines of both are shown to judge.
Exit 0 when every case matches, 1 when one differs (each difference shown), 3 when only cases
whose OLD runs differ from each other are left to judge, 2 for bad usage.
"""
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = [
    "test/harness/results/fixtures/run-unversioned.json",
    "test/harness/results/fixtures/stat-unversioned.json",
    "test/e2e/fixtures/small-run.json",
]


def run(binary, args, workdir, timeout=600):
    """(exit status, stdout, stderr, {file name: bytes}) of `binary args` run in `workdir`."""
    os.makedirs(workdir, exist_ok=True)
    for name in os.listdir(workdir):
        os.remove(os.path.join(workdir, name))
    p = subprocess.run([binary] + args, cwd=workdir, capture_output=True, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    files = {}
    for name in sorted(os.listdir(workdir)):
        with open(os.path.join(workdir, name), "rb") as f:
            files[name] = f.read()
    return p.returncode, p.stdout, p.stderr, files


NUMBER = re.compile(rb"[-+]?\d+(\.\d+)?(e[-+]?\d+)?")
# What a measurement decides, not the writer: a row's verdict, a figure not measured this time
# ("-"), a tolerance held to the measured spread.
MEASURED_WORDS = [(re.compile(rb"\b(ok|FAIL|pass|no pair)\b"), b"V"),
                  (re.compile(rb"(?<= )-(?= |$)|^-(?= )", re.M), b"N"),
                  (re.compile(rb" \(spread\)|, the pair's spread"), b""),
                  (re.compile(rb"correction holds|correction not fully checked|CORRECTION OFF "
                              rb"TARGET"), b"VERDICT"),
                  (re.compile(rb"N( ?(ns|%|s))(?![A-Za-z])"), b"N")]
BLANKS = re.compile(rb"[ \t]+")
DASHES = re.compile(rb"-{2,}")


def structure_of_text(data):
    """The text with every number N, runs of blanks and of dashes (rules) one, the words a
    measurement decides (MEASURED_WORDS) alike."""
    out = NUMBER.sub(b"N", data)
    for pattern, replacement in MEASURED_WORDS:
        out = pattern.sub(replacement, out)
    out = DASHES.sub(b"--", out)
    return BLANKS.sub(b" ", out)


def structure_of_json(value):
    """Keys, types and non-numeric text of a JSON value: numbers, digits in text and null (a
    figure that could not be measured this time) are N, booleans (pass flags) B."""
    if isinstance(value, dict):
        return {k: structure_of_json(v) for k, v in value.items()}
    if isinstance(value, list):
        # Arrays of measured things may differ in length (samples): keep their distinct shapes.
        shapes = []
        for v in value:
            s = structure_of_json(v)
            if s not in shapes:
                shapes.append(s)
        return shapes
    if isinstance(value, bool):
        return "B"
    if value is None or isinstance(value, (int, float)):
        return "N"
    return NUMBER.sub(b"N", value.encode()).decode()


def structure(data, is_json):
    if is_json:
        try:
            return json.dumps(structure_of_json(json.loads(data)), sort_keys=True, indent=1)
        except ValueError:
            pass
    return structure_of_text(data).decode(errors="replace")


def compare(name, args, old, new, tmp, exact=True, json_outputs=(), timeout=600):
    """One case: True when the two binaries agree."""
    a = run(old, args, os.path.join(tmp, "old"), timeout)
    b = run(new, args, os.path.join(tmp, "new"), timeout)
    problems = []
    if a[0] != b[0]:
        problems.append(f"exit status {a[0]} before, {b[0]} after")
    for what, x, y in (("stdout", a[1], b[1]), ("stderr", a[2], b[2])):
        is_json = what in json_outputs
        if exact and x != y:
            problems.append(f"{what} differs ({len(x)} bytes before, {len(y)} after)")
        elif not exact and structure(x, is_json) != structure(y, is_json):
            problems.append(f"{what}'s structure differs")
    if sorted(a[3]) != sorted(b[3]):
        problems.append(f"files {sorted(a[3])} before, {sorted(b[3])} after")
    for f in sorted(set(a[3]) & set(b[3])):
        x, y = a[3][f], b[3][f]
        if exact and x != y:
            problems.append(f"file {f} differs")
        elif not exact and structure(x, True) != structure(y, True):
            problems.append(f"file {f}'s structure differs")
    kind = "bytes" if exact else "structure"
    if problems:
        print(f"DIFFERENT  {name} ({kind}): {'; '.join(problems)}")
        outputs = [("stdout", a[1], b[1], "stdout" in json_outputs),
                   ("stderr", a[2], b[2], "stderr" in json_outputs)]
        outputs += [(f, a[3][f], b[3][f], True) for f in sorted(set(a[3]) & set(b[3]))]
        for what, x, y, is_json in outputs:
            before = x.decode(errors="replace") if exact else structure(x, is_json)
            after = y.decode(errors="replace") if exact else structure(y, is_json)
            lines = list(difflib.unified_diff(before.splitlines(), after.splitlines(),
                                              f"{what} before", f"{what} after", n=1,
                                              lineterm=""))
            for line in lines[:40]:
                print(f"  {line}")
        return False
    print(f"same       {name} ({kind}, exit {a[0]})")
    return True


def export_cases():
    for fixture in FIXTURES:
        path = os.path.join(ROOT, fixture)
        short = os.path.basename(fixture)
        for fmt in ("table", "csv", "json", "md", "markdown", "bmf"):
            yield f"export {short} --format {fmt}", ["export", path, "--format", fmt]
            yield (f"export {short} --format {fmt} --filter .", ["export", path, "--format", fmt,
                                                                 "--filter", "."])
        yield f"export {short} -o out.csv", ["export", path, "--format", "csv", "-o", "out.csv"]
        yield (f"export {short} --filter none-such", ["export", path, "--format", "table",
                                                      "--filter", "^none-such$"])
        for bad in ("xml", "answer", "MD", ""):
            yield f"export {short} --format '{bad}'", ["export", path, "--format", bad]
    yield "export (no file)", ["export", "--format", "csv"]
    yield "export --help", ["export", "--help"]


def format_error_cases():
    """--format parsing of every command that has one (the enum and its one parser)."""
    for bad in ("xml", "bmf", "answer", "markdown", "md", "json5"):
        yield f"compare --format {bad}", ["compare", "--format", bad, "a.json", "b.json"]
        yield f"run --format {bad} (bad)", ["run", "--format", bad, "--decoder", "none-such"]
        yield f"calibrate --format {bad}", ["calibrate", "--format", bad, "--samples", "1"]
        yield f"stat --format {bad}", ["stat", "--format", bad, "-e", "none-such", "--", "true"]
    yield "run --against --format answer", ["run", "--against", "/nonexistent", "--format",
                                            "answer"]
    for command in ("run", "stat", "export", "compare", "calibrate", "selftest", "events"):
        yield f"{command} --help", [command, "--help"]


def events_cases():
    yield "events", ["events"]
    yield "events --no-probe", ["events", "--no-probe"]
    yield "events -v", ["events", "-v"]
    yield "events page", ["events", "page"]
    yield "events none-such", ["events", "none-such"]
    yield "events --tracepoints --no-probe sched", ["events", "--tracepoints", "--no-probe",
                                                   "sched_switch"]
    yield "events --tracepoints sched_switch", ["events", "--tracepoints", "sched_switch"]
    yield "events --resolve", ["events", "--resolve", "task-clock,page-faults:u,cycles"]
    yield "events --resolve -v", ["events", "--resolve", "{task-clock,context-switches},"
                                  "instructions:k,r00c0", "-v"]
    yield "events --resolve bad", ["events", "--resolve", "cyclez"]
    yield "events --probe-tracepoints alone", ["events", "--probe-tracepoints"]


def main():
    args = sys.argv[1:]
    quick = "--quick" in args
    keep = None
    only = ""
    if "--only" in args:
        i = args.index("--only")
        only = args[i + 1] if i + 1 < len(args) else ""
        del args[i:i + 2]
    if "--keep" in args:
        i = args.index("--keep")
        if i + 1 >= len(args):
            sys.exit("--keep needs a directory")
        keep = args[i + 1]
        del args[i:i + 2]
    args = [a for a in args if a != "--quick"]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    old, new = (os.path.abspath(a) for a in args)
    for b in (old, new):
        if not os.access(b, os.X_OK):
            print(f"{b}: not an executable perfgauge; give the old and the new binary",
                  file=sys.stderr)
            return 2
    tmp = keep or tempfile.mkdtemp(prefix="compare-outputs-")
    cases = [(name, case, True, 600) for name, case in
             list(export_cases()) + list(format_error_cases()) + list(events_cases())]
    cases += [
        ("selftest --counters", ["selftest", "--counters", "--json", "c.json"], True, 600),
        ("stat --format json", ["stat", "-e", "task-clock,page-faults", "--format", "json",
                                "-o", "s.json", "--", "true"], False, 600),
        ("stat --format answer side by side", ["stat", "-e", "task-clock", "-r", "3", "--",
                                               "true", ":::", "true"], False, 600)]
    if not quick:
        cases += [
            ("calibrate --quick", ["calibrate", "--quick", "-q"], False, 900),
            ("calibrate --quick --format json", ["calibrate", "--quick", "-q", "--format",
                                                 "json", "-o", "cal.json"], False, 900),
            ("selftest --quick", ["selftest", "--quick", "-q", "--json", "st.json"], False,
             1800)]
    ok = True
    undecided = []
    try:
        for name, case, exact, timeout in cases:
            if only not in name:
                continue
            if compare(name, case, old, new, tmp, exact=exact, timeout=timeout):
                continue
            if exact:
                ok = False
            elif compare(name + " (OLD twice)", case, old, old, tmp, exact=False,
                         timeout=timeout):
                ok = False  # OLD agrees with itself: the difference is the change's
            else:
                print("  (OLD differs from itself too: judge the lines above)")
                undecided.append(name)
    finally:
        if keep is None:
            shutil.rmtree(tmp, ignore_errors=True)
    if not ok:
        print("DIFFERENCES FOUND")
        return 1
    if undecided:
        print(f"no difference of the change's own; to judge (OLD varies too): "
              f"{', '.join(undecided)}")
        return 3
    print("every case matches")
    return 0


if __name__ == "__main__":
    sys.exit(main())
