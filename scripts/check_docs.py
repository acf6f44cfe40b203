#!/usr/bin/env python3
"""Lists what the house rules ask and the compiler does not check everywhere (docs/style.md):

  unsafe   an `unsafe` block or `unsafe impl` with no `// SAFETY:` comment on its line or in the
           comment lines just above it (clippy checks only the code its cfg compiles);
  doc      a `pub` or `pub(...)` item or field with no `///` doc comment (missing_docs checks
           only items reachable from the crate's API);
  safety   an `unsafe fn` whose doc comment has no `# Safety` section;
  cite     a `_gfortran_caf_*` entry point whose doc comment's first paragraph cites no
           statement or rule (the standard and a clause number: `Fortran 2018 11.6.3`).

Usage: scripts/check_docs.py [DIR...]   (default: src). Prints `file:line: kind: text` per
offender and exits 1 if there is any.
"""
import pathlib
import re
import sys

ITEM = re.compile(
    r"^\s*pub(\([^)]*\))?\s+(unsafe\s+)?(extern\s+\"C\"\s+)?"
    r"(fn|struct|enum|trait|type|const|static|mod|union|use)\b"
)
FIELD = re.compile(r"^\s*pub(\([^)]*\))?\s+[a-z_][a-z0-9_]*\s*:")
UNSAFE = re.compile(r"\bunsafe\s*(\{|impl\b)")
UNSAFE_FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?unsafe\s+(extern\s+\"C\"\s+)?fn\b")
ENTRY = re.compile(r"fn\s+(_gfortran_caf_\w+)")
# The standard (or TS 18508) and a clause number: `Fortran 2018 11.6.3`, `TS 18508 7.2`.
CITE = re.compile(r"(Fortran 20\d\d|TS 18508)[^.]*?\b\d+(\.\d+)+")


def above(lines, i):
    """The comment and attribute lines just above line i (nearest first)."""
    out = []
    j = i - 1
    while j >= 0:
        s = lines[j].strip()
        if s.startswith("//") or s.startswith("#[") or s.startswith("#!["):
            out.append(s)
            j -= 1
        else:
            break
    return out


def strip_strings(line):
    return re.sub(r'"(\\.|[^"\\])*"', '""', line)


def check(path):
    text = path.read_text()
    lines = text.splitlines()
    found = []
    in_test = False
    for i, raw in enumerate(lines):
        line = strip_strings(raw.split("//")[0]) if "//" in raw else strip_strings(raw)
        if UNSAFE.search(line):
            near = [raw] + above(lines, i)
            # A block opened on a `let x = unsafe {` line may carry its comment above the
            # statement; a multi-line expression's comment stands above its first line.
            k = i
            while not any("SAFETY:" in s for s in near) and k > 0 and i - k < 4:
                prev = lines[k - 1].strip()
                if prev.endswith((";", "{", "}")) or prev == "":
                    break
                k -= 1
                near += [lines[k]] + above(lines, k)
            if not any("SAFETY:" in s for s in near):
                found.append((i + 1, "unsafe", raw.strip()))
        item = ITEM.match(raw) or FIELD.match(raw)
        if item and not re.match(r"^\s*pub(\([^)]*\))?\s+(use|mod)\b", raw):
            docs = [s for s in above(lines, i) if s.startswith("///") or s.startswith("#[doc")]
            if not docs:
                found.append((i + 1, "doc", raw.strip()))
        if UNSAFE_FN.match(raw) and not raw.rstrip().endswith(";"):
            if not any("# Safety" in s for s in above(lines, i)):
                found.append((i + 1, "safety", raw.strip()))
        m = ENTRY.search(raw)
        if m and "extern" in raw:
            block = list(reversed([s for s in above(lines, i) if s.startswith("///")]))
            para = []
            for s in block:
                t = s[3:].strip()
                if not t:
                    break
                para.append(t)
            if not para or not CITE.search(" ".join(para)):
                found.append((i + 1, "cite", m.group(1)))
    return found


def main():
    roots = [pathlib.Path(a) for a in sys.argv[1:]] or [pathlib.Path("src")]
    bad = 0
    for root in roots:
        for p in sorted(root.rglob("*.rs")) if root.is_dir() else [root]:
            for line, kind, what in check(p):
                print(f"{p}:{line}: {kind}: {what}")
                bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
