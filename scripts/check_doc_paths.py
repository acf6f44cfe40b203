#!/usr/bin/env python3
"""Checks that what a document names exists: every file path (`src/abi/sync.rs`, or a tail of
one such as `accessor/get.rs` or `world.rs`) is a file of the repository (or one of the few outside files in EXTERNAL), and every
`_gfortran_caf_*` entry point is defined in src/.

Usage: scripts/check_doc_paths.py [DOC...]   (default: docs/ARCHITECTURE.md). Prints
`doc:line: missing file|entry point: NAME` per stale reference and exits 1 if there is any.
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
PATH = re.compile(r"(?<![\w/.-])([\w.-]+/)*[\w-]+\.(rs|c|h|sh|py|f90|inc|toml)\b")
ENTRY = re.compile(r"\b_gfortran_caf_\w+")
# Files the documents name that are not ours: GCC's and MPI's headers, a user's program.
EXTERNAL = {"libcaf.h", "mpi.h", "prog.f90"}


def tracked():
    out = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    return out.split()


def main():
    docs = [pathlib.Path(a) for a in sys.argv[1:]] or [ROOT / "docs/ARCHITECTURE.md"]
    files = tracked()
    src = "\n".join((ROOT / f).read_text() for f in files if f.startswith("src/") and f.endswith(".rs"))
    defined = set(re.findall(r"fn\s+(_gfortran_caf_\w+)", src))
    stale = 0
    for doc in docs:
        for n, line in enumerate(doc.read_text().splitlines(), 1):
            for m in PATH.finditer(line):
                name = m.group(0)
                if name.startswith("http") or "://" in line[max(0, m.start() - 12): m.start()]:
                    continue
                if name in EXTERNAL or name in files or any(f.endswith("/" + name) for f in files):
                    continue
                print(f"{doc}:{n}: missing file: {name}")
                stale += 1
            for m in ENTRY.finditer(line):
                name = m.group(0)
                # `_gfortran_caf_send*` and the like name a family.
                if name in defined or (line[m.end():m.end() + 1] == "*"
                                       and any(d.startswith(name) for d in defined)):
                    continue
                print(f"{doc}:{n}: missing entry point: {name}")
                stale += 1
    sys.exit(1 if stale else 0)


if __name__ == "__main__":
    main()
