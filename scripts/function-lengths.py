#!/usr/bin/python3
"""Functions longer than a threshold (80 lines), found in well under a second.

The lines of a function's body are counted as clang-tidy's readability-function-size counts
them (scripts/function-size.sh: from the line of the opening brace to the line of the closing
one, comments and blank lines included), from universal-ctags' spans of function definitions
(name, first line, last line): the opening brace is the first '{' from the function's first
line on. clang-tidy parses every file as the compiler does, 2 to 12 minutes here; this reads
them as text, so it is the check ctest runs (label lint), and function-size.sh the one that
cannot be fooled by a macro.

Usage: scripts/function-lengths.py [--max N] PATH...   (files or folders: their .cpp and .hpp)
Prints one line per function over N lines (file:line: function: N lines) and exits 1 if there
is any, 2 when ctags cannot be run, 0 otherwise.
"""
import argparse
import pathlib
import subprocess
import sys


def sources(paths):
    for path in map(pathlib.Path, paths):
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in (".cpp", ".hpp"))
        else:
            yield path


def spans(files):
    """(file, name, first line, last line) of every function definition ctags finds."""
    command = ["ctags", "-x", "--_xformat=%{input}\t%{name}\t%{line}\t%{end}",
               "--kinds-C++=f", "--fields=+e", "--language-force=C++", "-o", "-"]
    try:
        out = subprocess.run(command + [str(f) for f in files], check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"function-lengths: ctags failed ({e}); Debian: apt-get install universal-ctags",
              file=sys.stderr)
        sys.exit(2)
    for line in out.splitlines():
        path, name, first, last = line.split("\t")
        if last:  # a definition (a declaration has no end)
            yield path, name, int(first), int(last)


def body_lines(lines, first, last):
    """clang-tidy's count: from the line of the opening brace to the line of the closing one."""
    for number in range(first, last + 1):
        if "{" in lines[number - 1]:
            return last - number
    return last - first


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max", type=int, default=80)
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args()
    files = list(sources(args.paths))
    texts = {str(f): f.read_text(errors="replace").splitlines() for f in files}
    long = []
    for path, name, first, last in spans(files):
        n = body_lines(texts[path], first, last)
        if n > args.max:
            long.append((path, first, name, n))
    for path, first, name, n in sorted(long):
        print(f"{path}:{first}: {name}: {n} lines")
    if long:
        print(f"function-lengths: {len(long)} function(s) longer than {args.max} lines",
              file=sys.stderr)
        return 1
    print(f"function-lengths: no function in {len(files)} files is longer than {args.max} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
