#!/usr/bin/python3
"""The README is the front door: at most 12,000 bytes, and no timings. A figure measured on some
machine (seconds, minutes, microseconds, a speedup) is true of that machine on that day only, so
it lives in docs/measurements.md, dated, with its machine and command; the README links there.

usage: readme_front_door_check.py [--self-test] README.md

--self-test first proves the check finds each kind of breakage (an oversize text, every kind of
timing) and passes text that only looks like one (x86, 0x19, 4K,1M, C++20, "a second build").
Exit 0 when the README passes, 1 when it does not (each problem on its own line), 2 on bad usage.
"""
import re
import sys

MAX_BYTES = 12_000

# A number with a time unit: "63.52 ms", "3 s", "2 min 38 s", "1.1 µs", "98-116 s".
NUMBER = r"\d(?:[\d.,']*\d)?"
UNIT = (r"(?:ns|µs|us|ms|s|secs?|seconds?|milliseconds?|microseconds?|nanoseconds?|mins?|"
        r"minutes?|h|hrs?|hours?)")
TIMING_PATTERNS = [
    ("a time", re.compile(rf"{NUMBER}\s*{UNIT}(?![\w])")),
    # Durations in words ("about a minute", "a few seconds"): "second" alone is left out, as in
    # "a second build".
    ("a duration", re.compile(r"\b(?:minutes?|hours?|seconds|(?:milli|micro|nano)seconds?)\b",
                              re.I)),
    # Speedups and measured changes: "4.4x slower", "2.4x", "3 times faster", "+339.8%".
    ("a speedup", re.compile(rf"(?<![\w.]){NUMBER}\s*[x×](?![\w])")),
    ("a speedup", re.compile(rf"{NUMBER}\s+times\s+(?:faster|slower)", re.I)),
    ("a measured change", re.compile(rf"(?<![\w])[+\-−]{NUMBER}%")),
]


def problems_in(text):
    """Every reason the text fails, one string each (empty when it passes)."""
    problems = []
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        problems.append(f"README.md is {size:,} bytes, over the {MAX_BYTES:,}-byte limit: move "
                        f"detail to a page under docs/ and link it from the README")
    for number, line in enumerate(text.split("\n"), start=1):
        for kind, pattern in TIMING_PATTERNS:
            match = pattern.search(line)
            if match:
                problems.append(f"README.md:{number} quotes {kind} ('{match.group(0)}'): a "
                                f"measurement belongs in docs/measurements.md (dated, with its "
                                f"machine and command); link there instead")
                break
    return problems


def self_test():
    """The check must find each breakage and pass each near miss; returns its own failures."""
    must_fail = [
        "x" * (MAX_BYTES + 1),
        "time 63.52 ms against 275.2 ms",
        "it builds in 98-116 s on two idle cores",
        "then measures for about a minute",
        "4-6 minutes of CPU time",
        "one read() costs ~1.1 µs",
        "B ran 4.4x slower than A",
        "bmi2 is 2.4x faster at 1M",
        "avx512 runs 3 times faster",
        "CHANGE +339.8%",
        "2 min 38 s from a fresh clone",
    ]
    must_pass = [
        "x" * MAX_BYTES,
        "an x86-64 guest, family 0x19, C++20, -O3",
        "perfgauge run --sizes 4K,1M --variant branchy,bmi2,avx2 --max-time 1",
        "a second build; 2 vCPUs; 5 users; -r 10 runs; the 95% interval",
        "for (long i = 0; i < 1'000'000; ++i) data.push_back(i);",
        "`-e task-clock,instructions,branch-misses` and `--min-change 5`",
    ]
    failures = [f"self-test: not caught: {text[:60]!r}" for text in must_fail
                if not problems_in(text)]
    failures += [f"self-test: wrongly flagged: {text[:60]!r}: {problems_in(text)}"
                 for text in must_pass if problems_in(text)]
    return failures


def main(argv):
    args = argv[1:]
    run_self_test = "--self-test" in args
    args = [a for a in args if a != "--self-test"]
    if len(args) != 1:
        print("usage: readme_front_door_check.py [--self-test] README.md", file=sys.stderr)
        return 2
    if run_self_test:
        failures = self_test()
        if failures:
            print("\n".join(failures))
            return 1
    try:
        with open(args[0], encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print(f"readme_front_door_check.py: cannot read '{args[0]}': {e}; give the path of "
              f"the README.md to check", file=sys.stderr)
        return 2
    problems = problems_in(text)
    if problems:
        print("\n".join(problems))
        return 1
    print(f"README.md: {len(text.encode('utf-8')):,} bytes (at most {MAX_BYTES:,}), "
          f"no timing quoted")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
