"""sid.py: the Debian sid chroot of scripts/sid.sh as a place to build and run benchmarks.

It holds gfortran 14, 15 and 16 and GCC 16's libcaf_shmem (`gfortran-16 -fcoarray=lib ...
-lcaf_shmem`, run with `GFORTRAN_NUM_IMAGES=N ./prog`). compare.py uses it for the libcaf_shmem
column and, with `--fc sid:gfortran-N`, to build the ferrocaf column with that gfortran. It never
makes the chroot (that is `scripts/sid.sh ensure`): without it the columns are absent and the
report says why. Python 3 standard library only.
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "sid.sh"
PREFIX = "sid:"


def root():
    """Where the chroot lives (as scripts/sid.sh decides)."""
    return Path(os.environ.get("FERROCAF_SID", "/var/tmp/ferrocaf-sid"))


def missing():
    """Why the chroot cannot be used here, or "" when it can."""
    if not (root() / "usr" / "bin" / "gfortran-16").exists():
        return f"no sid chroot at {root()} (make it with `scripts/sid.sh ensure`, or set FERROCAF_SID)"
    if not list((root() / "usr" / "lib").glob("gcc/*/16/libcaf_shmem.a")):
        return f"the sid chroot at {root()} has no libcaf_shmem.a"
    if os.geteuid() != 0:
        return "running in the sid chroot needs root (chroot)"
    return ""


def wrap(cmd):
    """`cmd` run inside the chroot (same working directory; the repository is bound there)."""
    return [str(SCRIPT), "run", *cmd]


def split_fc(fc):
    """(runs in the chroot, compiler command) of a `--fc` value: `gfortran` or `sid:gfortran-14`."""
    if fc.startswith(PREFIX):
        return True, fc[len(PREFIX):]
    return False, fc
