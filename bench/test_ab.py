#!/usr/bin/env python3
"""Unit tests of ab.py: the turns of builds and peers, their rotation from round to round, the
round-by-round comparison, and the job CPU of a run (its children's included, as a job's
images are).

Usage: python3 bench/test_ab.py   (run by tests/bench_scripts.rs). Standard library only.
"""

import sys
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ab import paired, rotated, run, turns  # noqa: E402

# A job: a child that burns 0.2 s of its own CPU, then the RESULT line.
JOB = """
import os, sys, time
pid = os.fork()
if pid == 0:
    while time.process_time() < 0.2:
        pass
    os._exit(0)
os.waitpid(pid, 0)
print("RESULT fake_row 2 1.5 us")
"""


class Turns(unittest.TestCase):
    def test_builds_get_their_library_and_peers_the_arguments(self):
        plan = turns(["a=/lib/a", "b=/lib/b"], ["shmem=/x/prog_shmem"], ["/x/prog", "5"], 4)
        self.assertEqual([(n, c) for n, c, _ in plan],
                         [("a", ["/x/prog", "5"]), ("b", ["/x/prog", "5"]),
                          ("shmem", ["/x/prog_shmem", "5"])])
        envs = {n: e for n, _, e in plan}
        self.assertEqual(envs["a"]["LD_LIBRARY_PATH"], "/lib/a")
        self.assertEqual(envs["b"]["LD_LIBRARY_PATH"], "/lib/b")
        for e in envs.values():
            self.assertEqual((e["FERROCAF_NUM_IMAGES"], e["GFORTRAN_NUM_IMAGES"]), ("4", "4"))


class Rotated(unittest.TestCase):
    def test_every_turn_takes_every_place_once_in_as_many_rounds(self):
        plan = ["a", "b", "shmem"]
        rounds = [rotated(plan, k) for k in range(6)]
        self.assertEqual(rounds[0], plan)
        for r in rounds:
            self.assertEqual(sorted(r), sorted(plan))
        for place in range(3):
            self.assertEqual(sorted(r[place] for r in rounds[:3]), sorted(plan))
            self.assertEqual([r[place] for r in rounds[:3]], [r[place] for r in rounds[3:]])


class Paired(unittest.TestCase):
    def test_ratios_and_rounds_won_against_the_first_build(self):
        values = {("t", "a"): [1.0, 2.0, 4.0], ("t", "b"): [2.0, 1.0, 8.0],
                  ("t", "c"): [1.0, 2.0, 4.0], ("only_a", "a"): [1.0]}
        self.assertEqual(paired(values, ["a", "b", "c"]),
                         [("t", "b", 2.0, 2, 3), ("t", "c", 1.0, 0, 3)])

    def test_a_result_the_first_build_lacks_is_not_compared(self):
        self.assertEqual(paired({("t", "b"): [1.0]}, ["a", "b"]), [])


class Run(unittest.TestCase):
    def test_a_run_counts_the_cpu_of_the_jobs_children(self):
        values = run([sys.executable, "-c", JOB], None, 0)
        self.assertEqual(values["fake_row"], 1.5)
        self.assertGreaterEqual(values["cpu"], 200.0)


if __name__ == "__main__":
    unittest.main()
