#!/usr/bin/python3
"""The man page and bash completion that scripts/cli_docs.py makes from perfgauge's --help:
every option of every command's --help is in both, the page is valid roff, and the completion
completes commands, options, history's subcommands, workloads, variants and event names (the
last two asked of the binary, as a user's TAB would).

usage: cli_docs_check.py PERFGAUGE CLI_DOCS_PY
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)


def run(*args, **kw):
    return subprocess.run(args, capture_output=True, text=True, check=False, **kw)


def flags_in_help(text):
    """Every option the help's table lists, found independently of cli_docs.py's parser: the
    names at the start of each table row."""
    table = text.split("\noptions:\n", 1)[1] if "\noptions:\n" in text else ""
    names = [re.split(r"  +| arg\b", line[2:])[0] for line in table.splitlines()
             if line.startswith("  -")]
    return {f for n in names for f in re.findall(r"(?<![\w-])(--?[A-Za-z0-9][\w-]*)", n)}


def complete(script, words):
    """What TAB offers after `words` (the last one being completed)."""
    line = " ".join(words)
    program = f"""
source {script}
COMP_WORDS=({' '.join(repr(w) for w in words)})
COMP_CWORD={len(words) - 1}
COMP_LINE={line!r}
_perfgauge
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    out = run("bash", "-c", program)
    check(out.returncode == 0, f"completion of {words} failed: {out.stderr.strip()}")
    return [w for w in out.stdout.splitlines() if w]


def main():
    binary, generator = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        man, script = os.path.join(tmp, "perfgauge.1"), os.path.join(tmp, "perfgauge.bash")
        made = run("/usr/bin/python3", generator, binary, "--man", man, "--completion", script,
                   "--date", "2026-12-07")
        if made.returncode != 0:
            sys.exit(f"cli_docs.py failed: {made.stderr}")
        page = open(man, encoding="utf-8").read()
        completion = open(script, encoding="utf-8").read()

        # Every command and every option of its --help, in both.
        top = run(binary, "--help").stdout
        commands = re.findall(r"^  ([a-z]+) ", top.split("commands:")[1], re.M)
        check(len(set(commands)) == 11, f"commands found in --help: {sorted(set(commands))}")
        plain = page.replace("\\-", "-").replace("\\e", "\\")
        history = run(binary, "history", "--help").stdout.split("subcommands:")[1]
        subcommands = re.findall(r"^  ([a-z]+)\b", history.split("\n\n")[0], re.M)
        check(len(subcommands) == 10, f"history subcommands in its --help: {subcommands}")
        pages = [[c] for c in dict.fromkeys(commands) if c != "history"]
        pages += [["history", s] for s in subcommands]
        for words in pages:
            command = " ".join(words)
            check(f".SS {command}\n" in plain, f"no section for {command} in the man page")
            flags = flags_in_help(run(binary, *words, "--help").stdout)
            check(flags, f"no options read from '{command} --help'")
            key = re.escape(":".join(words))
            row = re.search(rf"^    \[{key}\]=\"(.*)\"$", completion, re.M)
            check(row is not None, f"no completion row for {command}")
            for flag in flags:
                check(flag in plain, f"{command} {flag}: not in the man page")
                check(row and flag in row.group(1).split(), f"{command} {flag}: not completed")

        # Valid roff: groff's warnings are errors (when groff is there to judge).
        if shutil.which("groff"):
            lint = run("groff", "-man", "-Tutf8", "-ww", "-z", man)
            check(lint.returncode == 0 and not lint.stderr.strip(),
                  f"groff warns about the man page: {lint.stderr.strip()}")
        else:
            print("cli_docs_check: groff not installed, roff not linted")

        # The completion, as bash runs it (PATH so that COMP_WORDS[0] is this binary).
        pg = binary
        check(complete(script, [pg, "st"]) == ["stat"], "perfgauge st<TAB>")
        check(set(complete(script, [pg, "h"])) == {"help", "history"}, "perfgauge h<TAB>")
        check(complete(script, [pg, "help", "sel"]) == ["selftest"], "perfgauge help sel<TAB>")
        check(complete(script, [pg, "run", "--wor"]) == ["--workload"], "run --wor<TAB>")
        check(complete(script, [pg, "run", "--workload", "varint,m"]) == ["varint,memcpy"],
              "run --workload varint,m<TAB>")
        variants = complete(script, [pg, "run", "--variant", "b"])
        check({"branchy", "bmi2"} <= set(variants), f"run --variant b<TAB>: {variants}")
        check("instructions" in complete(script, [pg, "stat", "-e", "inst"]),
              "stat -e inst<TAB>")
        check("cycles,instructions" in complete(script, [pg, "stat", "-e", "cycles,inst"]),
              "stat -e cycles,inst<TAB>")
        check(set(complete(script, [pg, "history", "a"])) == {"add", "accept"},
              "history a<TAB>")
        check("--min-change" in complete(script, [pg, "history", "check", "--min"]),
              "history check --min<TAB>")
        check(complete(script, [pg, "stat", "--", "./x", "--wor"]) == [],
              "after stat's --, the command's words are not perfgauge's")
    for f in failures:
        print("FAIL:", f)
    print(f"cli_docs_check: {len(failures)} failure(s)")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
