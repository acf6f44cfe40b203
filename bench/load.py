"""load.py: CPU-bound processes beside a benchmark run (`compare.py --load N`).

A shared node runs other work next to a job: `Burners(n)` starts n processes that spin on the
CPU at normal priority, each in its own session, and kills them (by their own process ids) when
the `with` block ends. Python 3 standard library only.
"""

import os
import signal
import subprocess
import sys
import time

SPIN = "while True: pass"


class Burners:
    """A `with` block during which `n` CPU-bound processes run (none when n is 0)."""

    def __init__(self, n):
        self.n, self.procs = n, []

    def __enter__(self):
        self.procs = [subprocess.Popen([sys.executable, "-c", SPIN], start_new_session=True)
                      for _ in range(self.n)]
        if self.procs:
            time.sleep(0.1)  # let them reach their loop
        return self

    def __exit__(self, *exc):
        for p in self.procs:
            try:
                os.kill(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            p.wait()
        self.procs = []
        return False
