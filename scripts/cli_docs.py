#!/usr/bin/python3
"""The man page perfgauge.1 and the bash completion script, made from the built binary's own
help: `perfgauge --help` lists the commands (registry.cpp's table) and `perfgauge COMMAND
--help` prints each command's text and its option table (the Boost.Program_options
descriptions the command parses with). Reading the rendered help rather than a second copy of
the options means the page and the completion cannot drift from what --help says.

usage: cli_docs.py PERFGAUGE --man OUT.1 --completion OUT.bash [--date YYYY-MM-DD]
"""
import argparse
import datetime
import functools
import os
import re
import subprocess
import sys

OPTION_LINE = re.compile(r"^  (-[A-Za-z0-9] \[ )?(--?[A-Za-z0-9][A-Za-z0-9-]*)")


@functools.cache  # the page and the completion read the same texts: each is run once
def help_text(binary, *args):
    out = subprocess.run([binary, *args, "--help"] if args else [binary, "--help"],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        sys.exit(f"cli_docs.py: '{binary} {' '.join(args)} --help' exited {out.returncode}: "
                 f"{out.stderr.strip()}")
    return out.stdout


def commands(top_help):
    """Command names and their synopsis blocks, in the order the usage text lists them."""
    names, blocks, inside = [], {}, False
    for line in top_help.splitlines():
        if line == "commands:":
            inside = True
            continue
        if inside and not line.strip():
            break
        if inside and re.match(r"^  [a-z]", line):
            name = line.split()[0]
            if name not in blocks:
                names.append(name)
                blocks[name] = []
            blocks[name].append(line)
        elif inside and names:
            blocks[names[-1]].append(line)
    return names, blocks


def split_help(text):
    """(usage line, description paragraphs, option entries) of one command's --help. An
    option entry is (names with argument, description); the table is Boost's: the names
    column, then the description, continued on lines indented to its column."""
    lines = text.rstrip("\n").splitlines()
    usage = lines[0] if lines and lines[0].startswith("usage:") else ""
    body = lines[1:] if usage else lines
    try:
        cut = body.index("options:")
    except ValueError:
        cut = len(body)
    description = "\n".join(body[:cut]).strip("\n")
    table = body[cut + 1:]
    # Boost puts every description at one column, found from the continuation lines; names
    # longer than that column push their description to the next line.
    continued = [len(l) - len(l.lstrip()) for l in table if l.strip() and not OPTION_LINE.match(l)]
    column = min(continued) if continued else 0
    options = []
    for line in table:
        if OPTION_LINE.match(line):
            fits = column and len(line) > column and line[column - 1] == " "
            names, what = (line[:column], line[column:]) if fits else (line, "")
            options.append([names.strip(), what.strip()])
        elif options and line.strip():
            options[-1][1] = (options[-1][1] + " " + line.strip()).strip()
    return usage, description, [tuple(o) for o in options]


def long_and_short(names):
    """['-r', '--repeat'] of '-r [ --repeat ] arg (=10)'."""
    return re.findall(r"(?<![\w-])(--?[A-Za-z0-9][A-Za-z0-9-]*)", names.split(" arg")[0])


def option_heading(names):
    """'-r [ --repeat ] arg (=10)' as '-r, --repeat ARG (default: 10)', as man pages write it."""
    match = re.match(r"^(-\w) \[ (--[\w-]+) \](.*)$", names) or re.match(r"^(--?[\w-]+)()(.*)$", names)
    flags = ", ".join(f for f in match.group(1, 2) if f)
    rest = re.sub(r"\barg\b", "ARG", match.group(3))
    rest = re.sub(r"\(=(.*)\)$", r"(default: \1)", rest.strip())
    return (flags + " " + rest).strip()


def roff(text):
    """Plain text as roff: backslashes and leading dots/quotes escaped, hyphens kept ASCII."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(("\\&" + l) if l.startswith((".", "'")) else l for l in text.split("\n"))


def paragraphs(text):
    out = []
    for block in re.split(r"\n\s*\n", text.strip("\n")):
        lines = block.split("\n")
        if any(l.startswith("  ") for l in lines):
            out.append(".PP\n.nf\n" + roff(block) + "\n.fi")
        else:
            out.append(".PP\n" + roff(" ".join(l.strip() for l in lines)))
    return "\n".join(out)


def man_page(binary, date):
    top = help_text(binary)
    names, blocks = commands(top)
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.split()
    version = version[-1] if version else ""
    parts = [
        f'.TH PERFGAUGE 1 "{date}" "perfgauge {version}" "User Commands"',
        ".SH NAME",
        "perfgauge \\- performance counters around timed code, workloads, comparisons, history",
        ".SH SYNOPSIS",
        ".B perfgauge\n.I COMMAND\n[\\fIOPTIONS\\fR]",
        ".br\n.B perfgauge help\n.I COMMAND",
        ".SH DESCRIPTION",
        paragraphs(top.split("commands:")[0].split("\n", 1)[1]),
        ".SH COMMANDS",
        ".nf\n" + roff("\n".join(l for n in names for l in blocks[n])) + "\n.fi",
    ]
    for words in command_pages(binary, names):
        usage, description, options = split_help(help_text(binary, *words))
        parts.append(f".SS {roff(' '.join(words))}")
        parts.append(".PP\n.nf\n" + roff(usage.removeprefix("usage: ")) + "\n.fi")
        parts.append(paragraphs(description))
        for names_text, what in options:
            parts.append(".TP\n.B " + roff(option_heading(names_text)) + "\n" + roff(what))
    tail = top.split("commands:")[1].split("\n\n", 1)[1] if "\n\n" in top else ""
    parts += [".SH EXIT STATUS", paragraphs(tail), ".SH SEE ALSO",
              "The documentation in the source tree: docs/cli/COMMAND.md, docs/library.md."]
    return "\n".join(p for p in parts if p) + "\n"


COMPLETION = r'''# bash completion for perfgauge; made by scripts/cli_docs.py from perfgauge's own --help.
# Workloads, variants and event names are asked of perfgauge itself when completed.

_perfgauge_commands="@COMMANDS@"
_perfgauge_history="@HISTORY@"
declare -A _perfgauge_options=(
@OPTIONS@
)

_perfgauge_variants() {
    "$1" list 2>/dev/null | awk '/^VARIANT /{on=1; next} on && NF==0{exit} on{print $1}'
}

_perfgauge_events() {
    "$1" events --no-probe 2>/dev/null | awk '/^EVENT /{on=1; next} on && NF==0{exit} on{print $1}'
}

# A comma-separated list: complete its last item, keeping what comes before it.
_perfgauge_list() {
    local cur=$1 words=$2 head="" item=$1
    if [[ $cur == *,* ]]; then head=${cur%,*},; item=${cur##*,}; fi
    local w
    COMPREPLY=()
    for w in $words; do
        [[ $w == "$item"* ]] && COMPREPLY+=("$head$w")
    done
    compopt -o nospace 2>/dev/null
}

_perfgauge() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local pg=${COMP_WORDS[0]} command="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --) return 0 ;;  # stat's command: the shell's own completion is not ours to guess
            -*) ;;
            *) command=${COMP_WORDS[i]}; break ;;
        esac
    done
    if [[ -z $command ]]; then
        COMPREPLY=($(compgen -W "$_perfgauge_commands help --help --version" -- "$cur"))
        return 0
    fi
    case $prev in
        --workload) _perfgauge_list "$cur" "varint memcpy"; return 0 ;;
        --variant) _perfgauge_list "$cur" "$(_perfgauge_variants "$pg") all"; return 0 ;;
        -e|--events|--event) _perfgauge_list "$cur" "$(_perfgauge_events "$pg")"; return 0 ;;
        -o|--output|--json|--against-json|--db|--prepare) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
    esac
    if [[ $command == help ]]; then
        COMPREPLY=($(compgen -W "$_perfgauge_commands" -- "$cur"))
    elif [[ $command == history && $COMP_CWORD -eq $((i + 1)) && $cur != -* ]]; then
        COMPREPLY=($(compgen -W "$_perfgauge_history" -- "$cur"))
    elif [[ $cur == -* ]]; then
        local key=$command
        # history's options are its subcommand's: the word after history.
        if [[ $command == history && $COMP_CWORD -gt $((i + 1)) ]]; then
            key="history:${COMP_WORDS[i + 1]}"
        fi
        COMPREPLY=($(compgen -W "${_perfgauge_options[$key]}" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
    return 0
}
complete -F _perfgauge perfgauge
'''


def history_subcommands(binary):
    text = help_text(binary, "history")
    block = text.split("subcommands:")[1] if "subcommands:" in text else ""
    return [l.split()[0] for l in block.splitlines() if re.match(r"^  [a-z]", l)]


def command_pages(binary, names):
    """Every command's words, history's subcommands after history itself."""
    for name in names:
        yield [name]
        if name == "history":
            yield from (["history", sub] for sub in history_subcommands(binary))


def completion(binary):
    names, _ = commands(help_text(binary))
    rows = []
    for words in command_pages(binary, names):
        _, _, options = split_help(help_text(binary, *words))
        flags = [f for names_text, _ in options for f in long_and_short(names_text)]
        rows.append(f'    [{":".join(words)}]="{" ".join(flags)}"')
    return (COMPLETION.replace("@COMMANDS@", " ".join(names))
            .replace("@HISTORY@", " ".join(history_subcommands(binary)))
            .replace("@OPTIONS@", "\n".join(rows)))


def write(path, text):
    """Whole or not at all: a half page never stands where the build expects a page."""
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("binary")
    parser.add_argument("--man", required=True)
    parser.add_argument("--completion", required=True)
    parser.add_argument("--date", default=os.environ.get("SOURCE_DATE_EPOCH"))
    args = parser.parse_args()
    date = args.date
    if date is None or date.isdigit():
        stamp = int(date) if date is not None else None
        day = (datetime.datetime.fromtimestamp(stamp, datetime.timezone.utc)
               if stamp is not None else datetime.datetime.now(datetime.timezone.utc))
        date = day.strftime("%Y-%m-%d")
    elif not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        parser.error(f"--date {date!r}: give YYYY-MM-DD (or SOURCE_DATE_EPOCH seconds)")
    write(args.man, man_page(args.binary, date))
    write(args.completion, completion(args.binary))


if __name__ == "__main__":
    main()
