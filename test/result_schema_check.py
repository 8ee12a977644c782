#!/usr/bin/python3
"""Validates perfgauge's JSON files against docs/schema/*.schema.json with a real validator
(Debian's python3-jsonschema).

usage: result_schema_check.py PERFGAUGE SCHEMA_DIR [SESSION_PROGRAM]
    runs tiny perfgauge commands of every kind (and SESSION_PROGRAM FILE, which writes a
    Session report), validates their files, and checks that the validator rejects each without
    a required field (so a schema that accepts anything cannot pass);
usage: result_schema_check.py --collected DIR SCHEMA_DIR
    validates every JSON file the end-to-end tests made perfgauge write, collected into DIR
    (test/support/json_outputs.hpp), by the kind its shape says; exits 1 if one does not
    validate, or if commands asked for JSON and none was collected.
"""
import json
import os
import subprocess
import sys
import tempfile

try:
    import jsonschema
except ImportError:
    sys.exit("python3-jsonschema is missing: apt-get install python3-jsonschema "
             "(scripts/install-deps.sh installs it)")


def load_schemas(schema_dir):
    schemas = {}
    for name in sorted(os.listdir(schema_dir)):
        if name.endswith(".schema.json"):
            with open(os.path.join(schema_dir, name), encoding="utf-8") as f:
                schemas[name[: -len(".schema.json")]] = json.load(f)
    return schemas


def validator_for(kind, schemas):
    store = {schema["$id"]: schema for schema in schemas.values()}
    schema = schemas[kind]
    jsonschema.Draft202012Validator.check_schema(schema)
    resolver = jsonschema.RefResolver(schema["$id"], schema, store=store)
    return jsonschema.Draft202012Validator(schema, resolver=resolver)


def kind_of(document):
    """The schema a perfgauge JSON document follows, from its shape; None: not perfgauge's
    (Google Benchmark's own JSON) or of no kind known here."""
    if not isinstance(document, dict):
        return None
    if document.get("side_by_side") is True:
        return "stat-side-by-side"
    if {"command", "events", "elapsed_seconds"} <= document.keys():
        return "stat"
    if {"context", "benchmarks"} <= document.keys():
        context = document["context"]
        return "run" if isinstance(context, dict) and "perfgauge" in context else None
    if {"baseline", "contender", "thresholds", "benchmarks"} <= document.keys():
        return "compare"
    if {"clocks", "correction"} <= document.keys():
        return "calibrate"
    if {"regions", "overhead_ns", "nested_overhead_ns"} <= document.keys():
        return "session"
    if {"noise_floor", "in_turn", "across_runs"} <= document.keys():
        return "selftest"
    if set(document.keys()) <= {"schema_version", "checks"} and "checks" in document:
        return "selftest-counters"
    return None


def read_lines(path):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().split("\n")
    except OSError:
        return []


def validate_collected(directory, schema_dir):
    schemas = load_schemas(schema_dir)
    validators = {kind: validator_for(kind, schemas) for kind in schemas}
    names = sorted(os.listdir(directory)) if os.path.isdir(directory) else []
    commands = [n for n in names if n.endswith(".cmd")]
    outputs = [n for n in names if n.endswith(".json")]
    failures, validated, skipped = [], {}, []
    for name in outputs:
        command = " ".join(read_lines(os.path.join(directory, name[:-5] + ".cmd"))).strip()
        stdout = name.endswith("-stdout.json")
        try:
            with open(os.path.join(directory, name), encoding="utf-8") as f:
                document = json.load(f)
        except (OSError, ValueError) as e:
            if stdout:  # a measured command may share stdout: counted, not judged
                skipped.append(f"{name}: stdout is not JSON alone")
            else:
                failures.append(f"{name}: not JSON ({e}); written by: {command}")
            continue
        kind = kind_of(document)
        if kind is None:
            skipped.append(f"{name}: not a perfgauge kind (Google Benchmark's, or unknown)")
            continue
        errors = sorted(validators[kind].iter_errors(document), key=str)
        for error in errors[:3]:
            path = "/".join(str(p) for p in error.absolute_path)
            failures.append(f"{name} ({kind}) at /{path}: {error.message}; written by: {command}")
        if not errors:
            validated.setdefault(kind, []).append(name)
    total = sum(len(files) for files in validated.values())
    print(f"e2e JSON outputs: {len(commands)} commands asked for JSON; validated {total} files: "
          + ", ".join(f"{kind} {len(files)}" for kind, files in sorted(validated.items())))
    for line in skipped:
        print(f"not validated: {line}")
    if commands and not outputs:
        failures.append(f"{len(commands)} commands asked for JSON but no output was collected "
                        f"into {directory}: is the collection (test/support/json_outputs.cpp) "
                        "broken?")
    if failures:
        print("\n".join(failures))
        return 1
    return 0


def main():
    if sys.argv[1] == "--collected":
        return validate_collected(sys.argv[2], sys.argv[3])
    perfgauge, schema_dir = os.path.abspath(sys.argv[1]), sys.argv[2]
    session_program = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
    schemas = load_schemas(schema_dir)
    work = tempfile.mkdtemp(prefix="perfgauge-schema-")
    tiny_run = ["--workload", "varint,memcpy", "--variant", "branchy,bmi2", "--cache", "hot",
                "--sizes", "64", "--max-time", "0.2", "-q"]
    # (kind, file, command): each command writes the file; all are tiny.
    jobs = [
        ("run", "run.json", ["run", *tiny_run, "-e", "task-clock", "--backend", "perf",
                             "--json", "run.json"]),
        ("run", "run-counters.json", ["run", *tiny_run, "-e", "task-clock,instructions",
                                      "--processes", "1", "--json", "run-counters.json"]),
        ("run", "export.json", ["export", "run.json", "--format", "json", "-o", "export.json"]),
        ("compare", "compare-files.json", ["compare", "run.json", "run-counters.json",
                                           "--format", "json", "-o", "compare-files.json"]),
        ("compare", "compare-variants.json", ["compare", "run-counters.json", "--baseline",
                                              "branchy", "--contender", "bmi2", "--format",
                                              "json", "-o", "compare-variants.json"]),
        ("stat", "stat.json", ["stat", "-r", "3", "-e", "task-clock,page-faults", "--format",
                               "json", "-o", "stat.json", "--", "true"]),
        ("stat-side-by-side", "side.json", ["stat", "-r", "3", "-e", "task-clock", "--format",
                                            "json", "-o", "side.json", "--", "true", ":::",
                                            "sh", "-c", "exit 0"]),
        ("compare", "compare-stat.json", ["compare", "stat.json", "stat.json", "--format",
                                          "json", "-o", "compare-stat.json"]),
        ("calibrate", "calibrate.json", ["calibrate", "--quick", "--format", "json", "-o",
                                         "calibrate.json"]),
        ("selftest-counters", "counters.json", ["selftest", "--counters", "--json",
                                                "counters.json"]),
    ]
    if session_program:
        jobs.append(("session", "session.json", [session_program, "session.json"]))
    failures = []
    validated = {}
    for kind, name, args in jobs:
        program = [] if args[0] == session_program else [perfgauge]
        done = subprocess.run([*program, *args], cwd=work, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
        if done.returncode != 0:
            failures.append(f"perfgauge {' '.join(args)} exited {done.returncode}: {done.stderr}")
            continue
        with open(os.path.join(work, name), encoding="utf-8") as f:
            document = json.load(f)
        errors = sorted(validator_for(kind, schemas).iter_errors(document), key=str)
        for error in errors[:5]:
            path = "/".join(str(p) for p in error.absolute_path)
            failures.append(f"{name} ({kind}): at /{path}: {error.message}")
        if not errors:
            validated.setdefault(kind, []).append(name)
        # The same document without any one field the schema requires must be rejected; and
        # with a version this schema does not describe.
        for field in schemas[kind].get("required", []):
            broken = {k: v for k, v in document.items() if k != field}
            if validator_for(kind, schemas).is_valid(broken):
                failures.append(f"{kind} schema accepted {name} without '{field}'")
        newer = dict(document, schema_version=document.get("schema_version", 1) + 1)
        if validator_for(kind, schemas).is_valid(newer):
            failures.append(f"{kind} schema accepted {name} with schema_version "
                            f"{newer['schema_version']}")
    expected = set(schemas) - ({"session"} if not session_program else set())
    # selftest takes minutes: its file is validated where its end-to-end test writes it
    # (--collected)
    expected.discard("selftest")
    for kind in sorted(expected):
        if kind not in validated:
            failures.append(f"no file of kind {kind} was validated")
    total = sum(len(files) for files in validated.values())
    print(f"validated {total} JSON files: " +
          ", ".join(f"{kind} {len(files)} ({' '.join(files)})"
                    for kind, files in sorted(validated.items())))
    if failures:
        print("\n".join(failures))
        return 1
    subprocess.run(["rm", "-rf", work], check=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
