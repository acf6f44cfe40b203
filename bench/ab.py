#!/usr/bin/env python3
"""ab.py: one benchmark program against two (or more) builds of libferrocaf, alternating.

    python3 bench/ab.py --lib before=/tmp/old --lib after=target/release --images 4 \\
        --load 2 --runs 5 bench/build/ferrocaf/sync_all 0.3

Each run sets LD_LIBRARY_PATH to one build's directory (the programs have a RUNPATH, which
LD_LIBRARY_PATH overrides) and FERROCAF_NUM_IMAGES; the builds take turns, run by run, so they
see the same outside load; with --load N each run is beside N CPU-bound processes
(bench/load.py). Prints, per build and RESULT, the median and [min-max] over the runs, and the
1-minute load average before and after. Python 3 standard library only.
"""

import argparse
import os
import statistics
import subprocess
import sys

from load import Burners
from compare import RESULT_RE


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lib", action="append", required=True, help="NAME=DIR of a libferrocaf.so")
    ap.add_argument("--images", type=int, default=2)
    ap.add_argument("--load", type=int, default=0, help="CPU-bound processes beside each run")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("prog", nargs=argparse.REMAINDER, help="program and its arguments")
    args = ap.parse_args()
    libs = [tuple(s.split("=", 1)) for s in args.lib]
    values = {}
    before = os.getloadavg()[0]
    for _ in range(args.runs):
        for name, d in libs:
            env = dict(os.environ, LD_LIBRARY_PATH=os.path.abspath(d),
                       FERROCAF_NUM_IMAGES=str(args.images))
            with Burners(args.load):
                out = subprocess.run(args.prog, env=env, stdout=subprocess.PIPE, text=True,
                                     timeout=300).stdout
            for m in RESULT_RE.findall(out):
                values.setdefault((m[0], name), []).append(float(m[2]))
    print(f"# {' '.join(sys.argv)}")
    print(f"# load average (1 min) before {before:.2f}, after {os.getloadavg()[0]:.2f}")
    for (result, name), v in sorted(values.items()):
        print(f"{result} {args.images} images, load {args.load}, {name}: "
              f"{statistics.median(v):.4g} [{min(v):.4g}-{max(v):.4g}] (n={len(v)})")


if __name__ == "__main__":
    main()
