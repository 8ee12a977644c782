"""Checks the CI matrix recipes of docs/fleet.md (docs/recipes/ci/*.yml) against the tree.

Each file must parse as YAML and be the matrix it claims to be (GitHub Actions: a job whose
strategy.matrix lists two or more runner kinds, runs-on following it; GitLab CI: a job with
parallel:matrix); the store must come from a secret or CI/CD variable, never a URI in the file.
In every shell line of every job: each `perfgauge COMMAND [SUBCOMMAND]` must be a command
perfgauge has and each option it is given one that command's --help lists;
each `measure-and-store.sh` call must name run, stat or gbench with options perfgauge (or the
Google Benchmark binary, by its --help) accepts; each script path must exist in the tree and each
build/ path must be a target the job builds. docs/fleet.md must name every file.

--self-test first breaks the recipes in memory (a misspelled subcommand, option, script path,
measure command; a URI in the file) and requires each breakage to be found.

usage: ci_recipes_check.py PERFGAUGE SOURCE_DIR [GBENCH_BINARY] [--self-test]
"""

import functools
import pathlib
import re
import shlex
import subprocess
import sys

import yaml

SCRIPT_OPTIONS = {"--db", "--label", "--commit", "--results-dir", "--perfgauge"}
DIRECT_COMMANDS = {"perfgauge"}


@functools.cache
def help_text(*argv):
    """The --help of a command line, or None when it is no command (non-zero exit)."""
    done = subprocess.run([*argv, "--help"], capture_output=True, text=True, timeout=60)
    return done.stdout + done.stderr if done.returncode == 0 else None


def options_of(tokens):
    """The option names among TOKENS: '--x' of '--x=v', '-e' of '-e'."""
    return [t.split("=", 1)[0] for t in tokens if t.startswith("-") and t != "--"]


def unknown_options(help_, tokens):
    return [o for o in options_of(tokens) if not re.search(rf"(^|[\s\[,]){re.escape(o)}\b", help_)]


class Checker:
    def __init__(self, perfgauge, source, gbench):
        self.perfgauge, self.source, self.gbench = perfgauge, source, gbench
        self.problems, self.checked = [], 0

    def problem(self, where, what):
        self.problems.append(f"{where}: {what}")

    def perfgauge_command(self, where, tokens):
        """perfgauge COMMAND [SUB] OPTIONS...: the command exists, its options too."""
        words = [t for t in tokens if not t.startswith("-")]
        command = words[:2] if words[:1] == ["history"] else words[:1]
        help_ = help_text(self.perfgauge, *command) if command else None
        self.checked += 1
        if help_ is None:
            return self.problem(where, f"'perfgauge {' '.join(command)}' is no perfgauge command")
        for option in unknown_options(help_, tokens):
            self.problem(where, f"'perfgauge {' '.join(command)}' has no option {option}")

    def measure_and_store(self, where, tokens, targets):
        """measure-and-store.sh [SCRIPT OPTIONS] run|stat|gbench ...: as the script takes it."""
        i = 0
        while i < len(tokens) and tokens[i] in SCRIPT_OPTIONS:
            i += 2
        kind, rest = (tokens[i], tokens[i + 1:]) if i < len(tokens) else ("run", [])
        self.checked += 1
        if kind == "run":
            self.perfgauge_command(where, ["run", *rest])
        elif kind == "stat":
            if "--" not in rest or rest.index("--") == len(rest) - 1:
                return self.problem(where, "stat names no program after --")
            self.perfgauge_command(where, ["stat", *rest[: rest.index("--")]])
        elif kind == "gbench":
            if not rest:
                return self.problem(where, "gbench names no binary")
            self.build_path(where, rest[0], targets)
            help_ = help_text(self.gbench) if self.gbench else None
            if self.gbench and help_ is None:
                return self.problem(where, f"{self.gbench} --help failed")
            for option in unknown_options(help_, rest[1:]) if help_ else []:
                self.problem(where, f"the Google Benchmark binary has no flag {option}")
        else:
            self.problem(where, f"measure-and-store.sh measures run, stat or gbench, not '{kind}'")

    def build_path(self, where, path, targets):
        if path.startswith("build/"):
            self.checked += 1
            if pathlib.PurePath(path).name not in targets:
                self.problem(where, f"{path}: not a target the job builds ({sorted(targets)})")

    def shell_line(self, where, line, targets):
        line = re.sub(r"\$\{\{[^}]*\}\}", "EXPR", line)
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError as e:
            return self.problem(where, f"not a shell line ({e}): {line}")
        if tokens[:1] == ["bash"] and len(tokens) > 1:
            tokens = tokens[1:]
        if not tokens:
            return
        program = tokens[0]
        if program.startswith("scripts/"):
            self.checked += 1
            if not (self.source / program).is_file():
                return self.problem(where, f"{program} does not exist in the tree")
        if program.endswith("/measure-and-store.sh"):
            self.measure_and_store(where, tokens[1:], targets)
        elif pathlib.PurePath(program).name in DIRECT_COMMANDS:
            self.build_path(where, program, targets)
            self.perfgauge_command(where, tokens[1:])

    def job_lines(self, where, lines):
        """Each job's shell lines, with the targets its cmake --build lines make."""
        targets = set()
        for line in lines:
            tokens = line.split()
            if "--target" in tokens:
                targets.update(tokens[tokens.index("--target") + 1:])
        for line in lines:
            self.shell_line(where, line, targets)
        return targets

    def github(self, where, doc):
        jobs = doc.get("jobs") or {}
        matrices = [j for j in jobs.values() if len(next(iter(
            ((j.get("strategy") or {}).get("matrix") or {"": []}).values()))) >= 2]
        if not matrices or not all("matrix." in str(j.get("runs-on")) for j in matrices):
            self.problem(where, "no job runs on a matrix of two or more runner kinds")
        for name, job in jobs.items():
            if "secrets.PERFGAUGE_DB" not in str((job.get("env") or {}).get("PERFGAUGE_DB", "")):
                self.problem(f"{where} {name}", "PERFGAUGE_DB does not come from a secret")
            lines = [line for step in job.get("steps", []) for line in
                     str(step.get("run", "")).splitlines()]
            targets = self.job_lines(f"{where} {name}", lines)
            perfgauge = (job.get("env") or {}).get("PERFGAUGE")
            if perfgauge:
                self.build_path(f"{where} {name} env", perfgauge, targets)

    def gitlab(self, where, doc):
        jobs = {k: v for k, v in doc.items() if isinstance(v, dict) and "script" in v}
        if not any(len(((j.get("parallel") or {}).get("matrix") or [{}])[0].get(
                next(iter(((j.get("parallel") or {}).get("matrix") or [{"": []}])[0])), [])) >= 2
                for j in jobs.values()):
            self.problem(where, "no job runs on a parallel:matrix of two or more runner kinds")
        for name, job in jobs.items():
            flat = []
            for item in job["script"]:  # a YAML anchor's list comes in as one item
                flat.extend(item if isinstance(item, list) else [item])
            self.job_lines(f"{where} {name}", [str(line) for line in flat])

    def recipe(self, name, text):
        where = f"docs/recipes/ci/{name}"
        try:
            doc = yaml.safe_load(text)
        except yaml.YAMLError as e:
            return self.problem(where, f"not YAML: {e}")
        if re.search(r"postgres(ql)?://", str(doc)):  # comments may show the form
            self.problem(where, "a store URI in the file (it belongs in a secret)")
        (self.gitlab if "gitlab" in name else self.github)(where, doc)


def check(perfgauge, source, gbench, texts):
    checker = Checker(perfgauge, source, gbench)
    for name, text in texts.items():
        checker.recipe(name, text)
    return checker


def self_test(perfgauge, source, gbench, texts):
    """Each breakage, made in memory, must be found."""
    breakages = [("history check", "history chek"), ("--metric task-clock", "--metrik task-clock"),
                 ("scripts/fleet/measure-and-store.sh", "scripts/fleet/measure-and-stor.sh"),
                 ("--label what=run\n", "--label what=run bench\n"),
                 ("--sizes 4K,256K", "--size 4K,256K"), ("-r 10 --", "-r 10 --repeats 3 --"),
                 ("--perfgauge_events", "--perfgauge_event"),
                 ("--target perfgauge perfgauge-bench-varint", "--target perfgauge"),
                 ("  PERFGAUGE_COMMIT: $CI", "  PERFGAUGE_DB: postgresql://u:p@h/db\n  PERFGAUGE_COMMIT: $CI")]
    missed = []
    for old, new in breakages:
        for name, text in texts.items():
            if old not in text or (old == "--perfgauge_events" and not gbench):
                continue
            if not check(perfgauge, source, gbench, {name: text.replace(old, new)}).problems:
                missed.append(f"{name}: '{old}' -> '{new}'")
    return missed


def main(argv):
    self_testing = "--self-test" in argv
    argv = [a for a in argv if a != "--self-test"]
    perfgauge, source = argv[1], pathlib.Path(argv[2])
    gbench = argv[3] if len(argv) > 3 and argv[3] else None
    recipes = sorted((source / "docs/recipes/ci").glob("*.yml"))
    texts = {p.name: p.read_text() for p in recipes}
    fleet_doc = (source / "docs/fleet.md").read_text()
    problems = [f"docs/fleet.md does not name docs/recipes/ci/{n}" for n in texts
                if f"docs/recipes/ci/{n}" not in fleet_doc]
    if len(texts) < 2:
        problems.append(f"expected a GitHub Actions and a GitLab CI recipe, found {sorted(texts)}")
    checker = check(perfgauge, source, gbench, texts)
    problems += checker.problems
    if self_testing:
        problems += [f"self-test: a breakage went unnoticed: {m}" for m in
                     self_test(perfgauge, source, gbench, texts)]
    for p in problems:
        print(f"FAIL: {p}", file=sys.stderr)
    print(f"ci_recipes_check: {len(texts)} recipes, {checker.checked} commands and paths checked, "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
