"""Extracts the files the guest's init sent over the serial console.

    unframe.py CONSOLE_LOG OUT_DIR

Each file arrives as '@@PG-BEGIN NAME SIZE', base64 lines, '@@PG-END NAME'. Lines that are not
base64 (a kernel message printed in between) are skipped; a file whose decoded size is not
SIZE is reported and left out, so a garbled transfer is never taken for a result."""
import base64
import os
import re
import sys

B64 = re.compile(r"^[A-Za-z0-9+/]+=*$")


def main(console_path, out_dir):
    text = open(console_path, "rb").read().decode("utf-8", "replace").replace("\r", "")
    bad = 0
    name = None
    size = 0
    chunks = []
    for line in text.split("\n"):
        if line.startswith("@@PG-BEGIN "):
            _, name, size = line.split(" ", 2)
            size = int(size)
            chunks = []
        elif line.startswith("@@PG-END ") and name is not None:
            data = base64.b64decode("".join(chunks)) if chunks else b""
            if len(data) != size or ".." in name.split("/"):
                print(f"unframe: {name}: got {len(data)} bytes of {size}", file=sys.stderr)
                bad += 1
            else:
                path = os.path.join(out_dir, name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "wb") as f:
                    f.write(data)
            name = None
        elif name is not None and B64.match(line):
            chunks.append(line)
    if "@@PG-DONE" not in text:
        print("unframe: the guest stopped before sending everything", file=sys.stderr)
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
