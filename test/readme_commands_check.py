#!/usr/bin/python3
"""One command list: `perfgauge --help` is the source. The README's command table must name the
same commands, each with its page under docs/cli/, every command must answer --help, and the
formats the overview gives a command must be the ones that command's own --help lists.

usage: readme_commands_check.py PERFGAUGE README.md DOCS_CLI_DIR
"""
import os
import re
import subprocess
import sys


def run_help(perfgauge, *args):
    done = subprocess.run([perfgauge, *args, "--help"], capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{perfgauge} {' '.join(args)} --help exited {done.returncode}: {done.stderr}")
    return done.stdout


def commands_in_help(text):
    """Names in the 'commands:' block: lines indented by exactly two spaces."""
    block = text.split("commands:\n", 1)
    if len(block) != 2:
        sys.exit("perfgauge --help has no 'commands:' block")
    names = []
    for line in block[1].split("\n"):
        if not line.strip():
            if names:
                break
            continue
        match = re.match(r"^  ([a-z][a-z-]*)\b", line)
        if match and match.group(1) not in names:
            names.append(match.group(1))
    return names


def commands_in_readme(text):
    section = re.search(r"^## Commands\n(.*?)^## ", text, re.M | re.S)
    if not section:
        sys.exit("README.md has no '## Commands' section")
    return re.findall(r"^\| \[`([a-z-]+)`\]\((docs/cli/[a-z-]+\.md)\) \|", section.group(1), re.M)


def main():
    perfgauge, readme_path, docs_cli = sys.argv[1:4]
    overview = run_help(perfgauge)
    in_help = commands_in_help(overview)
    rows = commands_in_readme(open(readme_path, encoding="utf-8").read())
    in_readme = [name for name, _ in rows]
    problems = []
    if sorted(in_help) != sorted(in_readme):
        problems.append(f"perfgauge --help lists {sorted(in_help)}, README.md's command table "
                        f"{sorted(in_readme)}: missing from the README "
                        f"{sorted(set(in_help) - set(in_readme))}, not in --help "
                        f"{sorted(set(in_readme) - set(in_help))}")
    for name, link in rows:
        if link != f"docs/cli/{name}.md":
            problems.append(f"README.md links {name} to {link}")
        if not os.path.isfile(os.path.join(docs_cli, f"{name}.md")):
            problems.append(f"no page docs/cli/{name}.md for {name}")
    for name in in_help:
        own = run_help(perfgauge, name)
        # 'export R.json --format csv|md|json|table|bmf': the overview's formats must be the
        # command's own.
        for line in overview.split("\n"):
            match = re.match(rf"^  {name}\b.*--format ([a-z|]+)", line)
            if not match:
                continue
            listed = set(match.group(1).split("|"))
            own_match = re.search(r"--format ([a-z|]+)", own)
            own_formats = set(own_match.group(1).split("|")) if own_match else set()
            if listed != own_formats:
                problems.append(f"perfgauge --help gives {name} the formats {sorted(listed)}, "
                                f"perfgauge {name} --help {sorted(own_formats)}")
    if problems:
        print("\n".join(problems))
        return 1
    print(f"{len(in_help)} commands agree: {' '.join(in_help)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
