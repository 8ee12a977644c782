#!/usr/bin/python3
"""The structure of a perfgauge JSON result (run, stat or a comparison), one line per fact, for
before_after.sh: every key path (arrays collapsed to []), and the strings that name things
(benchmarks, events, units, sources, notes) with their digits masked, since times differ from
run to run. With "counts", simulated values are kept exactly (callgrind is deterministic).
Usage: json_structure.py structure|counts FILE"""
import json
import re
import sys

# Strings kept as they are (digits masked): what names a benchmark, an event or a unit, and the
# words of notes and warnings. Anything else is only a key with a type.
NAMING = {"run_name", "unit", "source", "kind", "event", "events", "label", "notes",
          "warnings", "reason", "fix", "counted", "time_unit", "verdict", "benchmark",
          "command", "labels", "aggregate_name", "run_type"}
# Keys whose values are machine-, time- or run-specific whatever the build.
VOLATILE = {"date", "host_name", "executable", "in_turn_with", "seed", "token", "library_build_type",
            "caches", "cpu_gaps", "mhz_per_cpu", "num_cpus", "load_avg"}
# Keys present or not as the samples fell on a loaded machine: a benchmark's drift test (enough
# samples in a process), its unstable flag, a disturbed sample's mark.
NOISY_KEYS = {"perfgauge_drift", "perfgauge_unstable", "perfgauge_disturbed", "perfgauge_precision"}


# Warnings a loaded machine gives or not, whatever the build: disturbed samples, drift, precision
# not reached, interruptions seen by the CPU-gap probe.
NOISE = re.compile(r"disturbed|drift|imprecise|precision|interruption|steal|gaps|load", re.I)


def masked(text):
    return re.sub(r"\d+(\.\d+)?", "#", text)


def walk(value, path, out, exact, naming=False):
    if isinstance(value, dict):
        out.add(f"{path} {{}}")
        for key, child in value.items():
            if key in NOISY_KEYS:
                continue
            if key in VOLATILE:
                out.add(f"{path}.{key} (volatile)")
                continue
            walk(child, f"{path}.{key}", out, exact, naming or key in NAMING)
    elif isinstance(value, list):
        out.add(f"{path} []")
        for child in value:
            walk(child, f"{path}[]", out, exact, naming)
    elif isinstance(value, str):
        if naming and NOISE.search(value):
            out.add(f"{path} (noise)")
        else:
            out.add(f"{path} = {masked(value)}" if naming else f"{path} str")
    elif isinstance(value, bool):
        out.add(f"{path} = {value}")
    else:  # a statistic is null when a loaded machine disturbed every sample
        out.add(f"{path} value")


def simulated(doc, out):
    """The simulated counts, exactly: a deterministic simulation. A run's: each benchmark's
    median entry, per simulated event; a stat result's: every object whose source is sim."""
    perfgauge = doc.get("context", {}).get("perfgauge", {})
    names = [e["name"] for e in perfgauge.get("events", []) if e.get("source") == "sim"]
    for b in doc.get("benchmarks", []):
        if b.get("aggregate_name") == "median":
            for n in names:
                out.add(f"sim {b['run_name']} {n} {b.get(n)} raw {b.get('perfgauge_raw_' + n)}")

    def walk_sim(value, path):
        if isinstance(value, dict):
            if value.get("source") == "sim":
                numbers = {k: v for k, v in value.items() if isinstance(v, (int, float))}
                out.add(f"sim {path} {value.get('name')} {sorted(numbers.items())}")
            for k, v in value.items():
                walk_sim(v, f"{path}.{k}")
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk_sim(v, f"{path}[{i}]")

    walk_sim(doc.get("commands", doc.get("results", [])), "$")


def main():
    exact, path = sys.argv[1], sys.argv[2]
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    out = set()
    walk(doc, "$", out, exact)
    if exact == "counts":
        simulated(doc, out)
    print("\n".join(sorted(out)))


main()
