#!/usr/bin/env python3
"""ab.py: one benchmark program against two (or more) builds of libferrocaf, alternating.

    python3 bench/ab.py --lib before=/tmp/old --lib after=target/release --images 4 \\
        --load 2 --runs 5 bench/build/ferrocaf/sync_all 0.3

Each run sets LD_LIBRARY_PATH to one build's directory (the programs have a RUNPATH, which
LD_LIBRARY_PATH overrides) and FERROCAF_NUM_IMAGES; the builds take turns, run by run, so they
see the same outside load; with --load N each run is beside N CPU-bound processes
(bench/load.py); round k starts at the k-th turn (rotated), so that no build always runs first
or right after a given one: a run's place in its round moved its time by up to 32% in A/A runs
(bench/NOTES.md, "Position bias"). `--peer NAME=EXE` adds the same program built for another
runtime (GCC 16's libcaf_shmem: run ab.py in the sid chroot, `scripts/sid.sh run python3
bench/ab.py ...`; GFORTRAN_NUM_IMAGES is set too), taking its turn with the same arguments.
Every run also yields `cpu`: the milliseconds of CPU (user + system) of the whole job, all
images included, which outside load changes far less than its timings. Prints, per build and
RESULT, the median and [min-max] over the runs; per other build, the median of its ratios to the
first build's value of the same round and in how many rounds the first build's was lower; and
the 1-minute load average before and after. Python 3 standard library only.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys

from load import Burners
from compare import RESULT_RE


def children_cpu_ms():
    """CPU milliseconds (user + system) of this process's terminated, waited-for children."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return 1e3 * (r.ru_utime + r.ru_stime)


def run(cmd, env, load):
    """{result: value} of one run of `cmd`, `cpu` (ms of the job's CPU) among them."""
    with Burners(load):
        before = children_cpu_ms()
        # The job's images are reaped by the program itself (ferrocaf's supervisor, the
        # launcher of libcaf_shmem), so their CPU is in the program's when it returns; the
        # burners are reaped later, outside this difference.
        out = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, text=True,
                             timeout=300).stdout
        values = {"cpu": children_cpu_ms() - before}
    values.update((m[0], float(m[2])) for m in RESULT_RE.findall(out))
    return values


def paired(values, names):
    """Per result and build after the first: (result, build, median ratio of its value to the
    first build's of the same round, rounds in which the first build's value was lower,
    rounds), for the results both have."""
    rows = []
    first = names[0]
    for result in sorted({r for r, _ in values}):
        base = values.get((result, first), [])
        for name in names[1:]:
            pairs = [(a, b) for a, b in zip(base, values.get((result, name), [])) if a > 0]
            if pairs:
                rows.append((result, name, statistics.median(b / a for a, b in pairs),
                             sum(a < b for a, b in pairs), len(pairs)))
    return rows


def report(values, names, images, load):
    """Prints the medians per (result, build), then the paired ratios to the first build."""
    for (result, name), v in sorted(values.items()):
        print(f"{result} {images} images, load {load}, {name}: "
              f"{statistics.median(v):.4g} [{min(v):.4g}-{max(v):.4g}] (n={len(v)})")
    for result, name, ratio, lower, rounds in paired(values, names):
        print(f"{result} {images} images, load {load}, {name}/{names[0]}: median ratio "
              f"{ratio:.3f}, {names[0]} lower in {lower}/{rounds}")


def turns(libs, peers, prog, images):
    """(name, command, environment) of each build's turn: a `NAME=DIR` of libs runs `prog`
    with LD_LIBRARY_PATH=DIR, a `NAME=EXE` of peers runs EXE with prog's arguments; every
    run gets the image count for both runtimes."""
    n = str(images)
    base = dict(os.environ, FERROCAF_NUM_IMAGES=n, GFORTRAN_NUM_IMAGES=n)
    out = [(name, prog, dict(base, LD_LIBRARY_PATH=os.path.abspath(d)))
           for name, d in (s.split("=", 1) for s in libs)]
    return out + [(name, [exe, *prog[1:]], base)
                  for name, exe in (s.split("=", 1) for s in peers)]


def rotated(plan, k):
    """The turns of round `k`: `plan` rotated left by k places, so that over len(plan)
    consecutive rounds every turn takes every place once."""
    k %= len(plan)
    return plan[k:] + plan[:k]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", action="append", required=True, help="NAME=DIR of a libferrocaf.so")
    ap.add_argument("--peer", action="append", default=[],
                    help="NAME=EXE: the program built for another runtime")
    ap.add_argument("--images", type=int, default=2)
    ap.add_argument("--load", type=int, default=0, help="CPU-bound processes beside each run")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("prog", nargs=argparse.REMAINDER, help="program and its arguments")
    args = ap.parse_args()
    plan = turns(args.lib, args.peer, args.prog, args.images)
    values = {}
    before = os.getloadavg()[0]
    for k in range(args.runs):
        for name, cmd, env in rotated(plan, k):
            for result, v in run(cmd, env, args.load).items():
                values.setdefault((result, name), []).append(v)
    print(f"# {' '.join(sys.argv)}")
    print(f"# load average (1 min) before {before:.2f}, after {os.getloadavg()[0]:.2f}")
    report(values, [name for name, _, _ in plan], args.images, args.load)


if __name__ == "__main__":
    main()
