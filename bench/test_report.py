#!/usr/bin/env python3
"""Unit tests of compare.py's report from synthetic measurements: which ferrocaf column each
peer is compared with (report.py, "Same-compiler pairing"), the columns and legend it writes,
the rounds won beside CPU-bound processes, and the run plan (its rotating order and run counts)
and launch of the second ferrocaf column. No program is built or run.

Usage: python3 bench/test_report.py   (run by tests/bench_scripts.rs). Standard library only.
"""

import sys
import tempfile
import unittest
import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare import (BENCHMARKS, Bench, Measurements, launch_cmd, plan_groups,  # noqa: E402
                     programs, reread, rotated, run_plan, settle_round, spread_rounds,
                     write_report)
from measurements import RunsFileError, load_runs, save_runs  # noqa: E402
from modes import fast_mode, idle_row  # noqa: E402
from settle import unsettled, without_round  # noqa: E402
from report import (FERRO, FERRO_HOST, LOADED, OPENCAF, SHMEM, added_verdict,  # noqa: E402
                    pairing, table_row, verdict, write_markdown, write_svg)

BOTH = pairing((SHMEM, OPENCAF), True)
ONE = pairing((SHMEM, OPENCAF), False)
COMPILERS = {FERRO: "gfortran 16", FERRO_HOST: "gfortran 12", SHMEM: "gfortran 16",
             OPENCAF: "gfortran 12"}
BENCH = Bench("put_latency", "put_latency_syncimages", raw="raw_pingpong_8B",
              raw_prog="pingpong")


def measured(values, unit="us", loaded=None, raw=None):
    """Measurements of BENCH's result at 2 images: {runtime: value}, loaded likewise."""
    m = Measurements()
    expect = [("put_latency_syncimages", 2)]
    for rt, v in values.items():
        m.add(rt, {expect[0]: (v, unit)}, None, expect, 0)
    for rt, v in (loaded or {}).items():
        m.add(rt + LOADED, {expect[0]: (v, unit)}, None, expect, 0)
    if raw is not None:
        m.add("raw", {("raw_pingpong_8B", 2): (raw, "us")}, None, [], 0)
    return m


def loaded_rounds(rounds, unit="us"):
    """Measurements of BENCH's result at 2 images, idle 1.0 for every runtime and loaded
    `rounds`: one {runtime: value, or None for a failed run} per round."""
    m = measured({rt: 1.0 for rt in rounds[0]}, unit=unit)
    expect = [("put_latency_syncimages", 2)]
    for rnd, values in enumerate(rounds):
        for rt, v in values.items():
            if v is None:
                m.add(rt + LOADED, {}, "TIMEOUT 40s", expect, rnd)
            else:
                m.add(rt + LOADED, {expect[0]: (v, unit)}, None, expect, rnd)
    return m


class Pairing(unittest.TestCase):
    def test_opencoarrays_gets_the_host_column_only_when_there_is_one(self):
        self.assertEqual(BOTH, {SHMEM: FERRO, OPENCAF: FERRO_HOST})
        self.assertEqual(ONE, {SHMEM: FERRO, OPENCAF: FERRO})

    def test_idle_ratios_use_the_paired_column(self):
        m = measured({FERRO: 1.0, FERRO_HOST: 4.0, SHMEM: 2.0, OPENCAF: 12.0}, raw=0.5)
        row = table_row(m, BENCH, "put_latency_syncimages", 2, BOTH, 0)
        # libcaf_shmem against FERRO (2 / 1), OpenCoarrays against FERRO_HOST (12 / 4).
        self.assertEqual(row["speedups"], {SHMEM: 2.0, OPENCAF: 3.0})
        self.assertEqual(list(row["cells"]), [FERRO, FERRO_HOST, SHMEM, OPENCAF])
        self.assertIn("ferrocaf 2.0x", row["raw"])  # FERRO 1.0 over raw 0.5, not FERRO_HOST

    def test_bandwidth_ratios_use_the_paired_column(self):
        m = measured({FERRO: 10.0, FERRO_HOST: 6.0, SHMEM: 5.0, OPENCAF: 2.0}, unit="GB/s")
        row = table_row(m, BENCH, "put_latency_syncimages", 2, BOTH, 0)
        self.assertEqual(row["speedups"], {SHMEM: 2.0, OPENCAF: 3.0})

    def test_one_column_compares_every_peer_with_it(self):
        m = measured({FERRO: 1.0, SHMEM: 2.0, OPENCAF: 12.0})
        row = table_row(m, BENCH, "put_latency_syncimages", 2, ONE, 0)
        self.assertEqual(row["speedups"], {SHMEM: 2.0, OPENCAF: 12.0})
        self.assertEqual(list(row["cells"]), [FERRO, SHMEM, OPENCAF])

    def test_loaded_comparisons_use_the_paired_column(self):
        idle = {FERRO: 1.0, FERRO_HOST: 1.0, SHMEM: 1.0, OPENCAF: 1.0}
        # FERRO_HOST slows down 3x, OpenCoarrays not: a "no" although FERRO kept up with
        # both peers.
        m = measured(idle, loaded={FERRO: 1.0, FERRO_HOST: 3.0, SHMEM: 1.0, OPENCAF: 1.0})
        row = table_row(m, BENCH, "put_latency_syncimages", 2, BOTH, 2)
        self.assertEqual(verdict(row), "**no**")
        self.assertAlmostEqual(row["loaded_speedups"][OPENCAF], 1 / 3)
        # FERRO slows down 3x but libcaf_shmem 4x; FERRO_HOST keeps up with OpenCoarrays.
        m = measured(idle, loaded={FERRO: 3.0, FERRO_HOST: 1.0, SHMEM: 4.0, OPENCAF: 1.0})
        row = table_row(m, BENCH, "put_latency_syncimages", 2, BOTH, 2)
        self.assertEqual(verdict(row), "yes")
        self.assertEqual(row["loaded_speedups"], {SHMEM: 4 / 3, OPENCAF: 1.0})
        # With one column the same numbers compare FERRO (3x) with OpenCoarrays (1x).
        row = table_row(m, BENCH, "put_latency_syncimages", 2, ONE, 2)
        self.assertEqual(verdict(row), "**no**")


class AddedTime(unittest.TestCase):
    def row(self, idle, loaded, unit="us", pairs=ONE):
        return table_row(measured(idle, unit=unit, loaded=loaded), BENCH,
                         "put_latency_syncimages", 2, pairs, 2)

    def test_same_added_wait_is_no_worse_although_the_ratio_is(self):
        # Idle 0.1 against 30; the load adds 1000 to both: slowdown 10001x against 34x.
        row = self.row({FERRO: 0.1, SHMEM: 30.0, OPENCAF: 30.0},
                       {FERRO: 1000.1, SHMEM: 1030.0, OPENCAF: 1030.0})
        self.assertEqual(verdict(row), "**no**")
        self.assertEqual(added_verdict(row), "yes")

    def test_more_added_time_than_a_peer_is_a_no(self):
        row = self.row({FERRO: 10.0, SHMEM: 10.0, OPENCAF: 10.0},
                       {FERRO: 40.0, SHMEM: 30.0, OPENCAF: 50.0})
        self.assertAlmostEqual(row["added"][FERRO], 30.0)
        self.assertEqual(added_verdict(row), "**no**")  # 30 > 20 * 1.1 + 1
        row = self.row({FERRO: 10.0, SHMEM: 10.0, OPENCAF: 10.0},
                       {FERRO: 32.0, SHMEM: 30.0, OPENCAF: 50.0})
        self.assertEqual(added_verdict(row), "yes")  # 22 <= 22 + 1

    def test_a_peer_that_lost_nothing_allows_a_tenth_of_the_idle_time(self):
        idle = {FERRO: 10.0, SHMEM: 10.0, OPENCAF: 10.0}
        faster = {FERRO: 10.9, SHMEM: 9.0, OPENCAF: 9.5}
        self.assertEqual(added_verdict(self.row(idle, faster)), "yes")
        slower = {FERRO: 11.5, SHMEM: 9.0, OPENCAF: 9.5}
        self.assertEqual(added_verdict(self.row(idle, slower)), "**no**")

    def test_bandwidths_compare_the_time_per_byte(self):
        # 10 -> 5 GB/s adds 0.1 ns/B; 2 -> 1.8 GB/s adds 0.0556: more added time for ferrocaf.
        row = self.row({FERRO: 10.0, SHMEM: 2.0, OPENCAF: 2.0},
                       {FERRO: 5.0, SHMEM: 1.8, OPENCAF: 1.8}, unit="GB/s")
        self.assertAlmostEqual(row["added"][FERRO], 0.1)
        self.assertEqual(added_verdict(row), "**no**")
        row = self.row({FERRO: 10.0, SHMEM: 2.0, OPENCAF: 2.0},
                       {FERRO: 8.0, SHMEM: 1.8, OPENCAF: 1.8}, unit="GB/s")
        self.assertEqual(added_verdict(row), "yes")  # 0.025 ns/B

    def test_each_peer_uses_its_paired_column_and_missing_values_are_left_out(self):
        idle = {FERRO: 1.0, FERRO_HOST: 1.0, SHMEM: 1.0, OPENCAF: 1.0}
        row = self.row(idle, {FERRO: 2.0, FERRO_HOST: 9.0, SHMEM: 2.0, OPENCAF: 9.0},
                       pairs=BOTH)
        self.assertEqual(added_verdict(row), "yes")
        row = self.row({FERRO: 1.0, SHMEM: 1.0}, {FERRO: 2.0, SHMEM: 2.0})
        self.assertEqual(added_verdict(row), "yes")  # OpenCoarrays did not run
        row = self.row({FERRO: 1.0}, {FERRO: 2.0})
        self.assertEqual(added_verdict(row), "—")


class RoundsWon(unittest.TestCase):
    def test_rounds_are_paired_and_failures_left_out(self):
        # Medians: FERRO 3.0, SHMEM 4.0 (4/3 faster) but FERRO faster in only 3 of 5 rounds.
        rounds = [{FERRO: 1.0, SHMEM: 4.0}, {FERRO: 3.0, SHMEM: 2.0}, {FERRO: 2.0, SHMEM: 5.0},
                  {FERRO: 5.0, SHMEM: 4.5}, {FERRO: 4.0, SHMEM: 4.4}]
        pairs = {SHMEM: FERRO}
        row = table_row(loaded_rounds(rounds), BENCH, "put_latency_syncimages", 2, pairs, 2)
        self.assertEqual(row["loaded_won"], {SHMEM: (3, 5)})
        self.assertAlmostEqual(row["loaded_speedups"][SHMEM], 4.4 / 3.0)
        # A failed run leaves its round out of the pairs; an equal time is not a win.
        rounds[1][SHMEM] = None
        rounds[4][SHMEM] = 4.0
        row = table_row(loaded_rounds(rounds), BENCH, "put_latency_syncimages", 2, pairs, 2)
        self.assertEqual(row["loaded_won"], {SHMEM: (2, 4)})

    def test_idle_ratios_show_their_rounds_won_too(self):
        m = Measurements()
        expect = [("put_latency_syncimages", 2)]
        for rnd, (f, s) in enumerate([(1.0, 2.0), (2.2, 2.0), (1.5, 2.5)]):
            for rt, v in ((FERRO, f), (SHMEM, s)):
                m.add(rt, {expect[0]: (v, "us")}, None, expect, rnd)
        row = table_row(m, BENCH, "put_latency_syncimages", 2, {SHMEM: FERRO}, 0)
        self.assertEqual(row["won"], {SHMEM: (2, 3)})
        meta = {"command": "c", "facts": {}, "notes": {}, "started": datetime.datetime.now(),
                "loads": ["0.0 0 0", "0 0 0"], "factor": 1.0}
        with tempfile.TemporaryDirectory() as d:
            write_markdown(Path(d) / "P.md", meta, [row], "", {SHMEM: FERRO}, 0)
            text = (Path(d) / "P.md").read_text()
        self.assertIn("| 1.33x (2/3) |", text)

    def test_bandwidth_rounds_count_the_higher_value(self):
        rounds = [{FERRO: 40.0, SHMEM: 20.0}, {FERRO: 20.0, SHMEM: 45.0},
                  {FERRO: 46.0, SHMEM: 45.0}]
        row = table_row(loaded_rounds(rounds, unit="GB/s"), BENCH, "put_latency_syncimages", 2,
                        {SHMEM: FERRO}, 2)
        self.assertEqual(row["loaded_won"], {SHMEM: (2, 3)})

    def test_each_peer_pairs_with_its_own_column(self):
        rounds = [{FERRO: 1.0, FERRO_HOST: 9.0, SHMEM: 2.0, OPENCAF: 3.0}] * 2
        row = table_row(loaded_rounds(rounds), BENCH, "put_latency_syncimages", 2, BOTH, 2)
        self.assertEqual(row["loaded_won"], {SHMEM: (2, 2), OPENCAF: (0, 2)})


class Documents(unittest.TestCase):
    def write(self, pairs, values, load=0, m=None):
        m = m or measured(values, loaded=values if load else None)
        rows = [table_row(m, BENCH, "put_latency_syncimages", 2, pairs, load)]
        meta = {"command": "test", "facts": {}, "notes": {}, "compilers": COMPILERS,
                "started": datetime.datetime(2026, 11, 27), "loads": ["0.00", "0.00"],
                "factor": 1.0, "repeat": 3, "load_repeat": 5}
        with tempfile.TemporaryDirectory() as d:
            write_markdown(Path(d) / "p.md", meta, rows, "", pairs, load)
            write_svg(Path(d) / "p.svg", rows, pairs, COMPILERS)
            return (Path(d) / "p.md").read_text(), (Path(d) / "p.svg").read_text()

    def test_headers_name_the_column_of_each_ratio(self):
        md, svg = self.write(BOTH, {FERRO: 1.0, FERRO_HOST: 4.0, SHMEM: 2.0, OPENCAF: 12.0},
                             load=2)
        self.assertIn("| benchmark | images | ferrocaf (gfortran 16) | ferrocaf (gfortran 12) | "
                      "libcaf_shmem (gfortran 16) | OpenCoarrays (gfortran 12) | "
                      "vs libcaf_shmem (ferrocaf gfortran 16) | "
                      "vs OpenCoarrays (ferrocaf gfortran 12) | vs raw |", md)
        self.assertIn("libcaf_shmem with the ferrocaf (gfortran 16) column; OpenCoarrays with "
                      "the ferrocaf (gfortran 12) column", md)
        self.assertIn("| 2.00x (1/1) | 3.00x (1/1) |", md)
        self.assertIn("degrades no more | adds no more time | loaded vs best peer |", md)
        self.assertIn("OpenCoarrays vs ferrocaf (gfortran 12)", svg)
        self.assertIn(">2.00x<", svg)  # the smaller of the paired speedups

    def test_loaded_table_shows_each_peers_ratio_with_its_rounds(self):
        # FERRO 1 against libcaf_shmem 2 in all 5 rounds; FERRO_HOST 2 against OpenCoarrays 3
        # in 4 rounds and 4 against 3 in the last.
        rounds = [{FERRO: 1.0, FERRO_HOST: 2.0, SHMEM: 2.0, OPENCAF: 3.0}] * 4
        rounds.append({FERRO: 1.0, FERRO_HOST: 4.0, SHMEM: 2.0, OPENCAF: 3.0})
        md, _ = self.write(BOTH, None, load=2, m=loaded_rounds(rounds))
        self.assertIn("| loaded vs libcaf_shmem (ferrocaf gfortran 16) | "
                      "loaded vs OpenCoarrays (ferrocaf gfortran 12) | degrades no more | "
                      "adds no more time | loaded vs best peer |", md)
        self.assertIn("| 2.00x (5/5) | 1.50x (4/5) | yes | yes | 1.50x (4/5) |", md)
        self.assertIn("also run 5 times (`--load-repeat`)", md)
        self.assertIn("(in the first 3 rounds only)", md)
        self.assertIn("(w/r): of the r rounds in which both ran loaded", md)

    def test_one_column_keeps_one_ferrocaf_column(self):
        md, svg = self.write(ONE, {FERRO: 1.0, SHMEM: 2.0, OPENCAF: 12.0})
        self.assertIn("| benchmark | images | ferrocaf (gfortran 16) | "
                      "libcaf_shmem (gfortran 16) | OpenCoarrays (gfortran 12) | "
                      "vs libcaf_shmem (ferrocaf gfortran 16) | "
                      "vs OpenCoarrays (ferrocaf gfortran 16) | vs raw |", md)
        self.assertNotIn("gfortran 12) column", md)
        self.assertIn("OpenCoarrays vs ferrocaf (gfortran 16)", svg)


class Runs(unittest.TestCase):
    def test_plan_alternates_the_host_column_with_the_others(self):
        ext = Bench("notify_cost", "notify_cost_put_post", images=(1,), ext=True)
        exes = {("put_latency", rt): Path(rt) for rt in (FERRO, FERRO_HOST, SHMEM, OPENCAF)}
        exes[("notify_cost", FERRO)] = Path("nc")
        plan = run_plan([BENCH, ext], exes, {}, (FERRO, FERRO_HOST, SHMEM, OPENCAF),
                        [1, 2], 2, 2, 2)
        order = [(name, rt, load, rnd) for name, rt, _, _, _, _, load, rnd in plan]
        first = [("put_latency", rt, load, 0) for load in (0, 2)
                 for rt in (FERRO, FERRO_HOST, SHMEM, OPENCAF)]
        second = [("put_latency", rt, load, 1) for load in (0, 2)
                  for rt in (FERRO_HOST, SHMEM, OPENCAF, FERRO)]
        self.assertEqual(order, first + second + [("notify_cost", FERRO, 0, 0),
                                                  ("notify_cost", FERRO, 2, 0),
                                                  ("notify_cost", FERRO, 0, 1),
                                                  ("notify_cost", FERRO, 2, 1)])

    def places(self, repeat, load_repeat, load=2):
        """{(load, runtime): [how often in place 0, 1, 2, 3 of its round]} and the plan."""
        rts = (FERRO, FERRO_HOST, SHMEM, OPENCAF)
        exes = {("put_latency", rt): Path(rt) for rt in rts}
        raw = {"pingpong": Path("pp")}
        plan = run_plan([BENCH], exes, raw, rts, [2], repeat, load, load_repeat)
        counts = {}
        for rnd in range(max(repeat, load_repeat)):
            for lo in (0, load):
                turn = [rt for _, rt, _, _, _, _, lo_, r in plan if r == rnd and lo_ == lo
                        and rt != "raw"]
                for place, rt in enumerate(turn):
                    counts.setdefault((lo, rt), [0] * len(rts))[place] += 1
        return counts, plan

    def test_every_runtime_takes_every_place_idle_and_loaded(self):
        counts, _ = self.places(4, 8)
        self.assertEqual({k: v for k, v in counts.items() if k[0] == 0},
                         {(0, rt): [1, 1, 1, 1] for rt in (FERRO, FERRO_HOST, SHMEM, OPENCAF)})
        self.assertEqual({k: v for k, v in counts.items() if k[0] == 2},
                         {(2, rt): [2, 2, 2, 2] for rt in (FERRO, FERRO_HOST, SHMEM, OPENCAF)})
        # 3 idle and 5 loaded rounds (the defaults) cannot be even: no place is taken more
        # than once more than another.
        counts, _ = self.places(3, 5)
        for (lo, rt), c in counts.items():
            self.assertEqual(sum(c), 3 if lo == 0 else 5)
            self.assertLessEqual(max(c) - min(c), 1, (lo, rt, c))

    def test_load_repeat_counts_the_loaded_runs_and_repeat_the_idle_ones(self):
        for repeat, load_repeat in ((3, 5), (5, 2), (1, 1)):
            _, plan = self.places(repeat, load_repeat)
            runs = [(rt, lo) for _, rt, _, _, _, _, lo, _ in plan]
            for rt in (FERRO, FERRO_HOST, SHMEM, OPENCAF):
                self.assertEqual(runs.count((rt, 0)), repeat)
                self.assertEqual(runs.count((rt, 2)), load_repeat)
            self.assertEqual(runs.count(("raw", 0)), repeat)  # raw references: idle rounds only
        # Without --load, --load-repeat changes nothing.
        _, plan = self.places(3, 5, load=0)
        self.assertEqual(len(plan), 3 * 5)
        self.assertEqual({lo for _, _, _, _, _, _, lo, _ in plan}, {0})

    def test_peers_build_a_program_any_of_whose_benchmarks_they_run(self):
        built = {b.stem: peers for b, peers in programs(BENCHMARKS)}
        self.assertEqual(len(built), len({b.stem for b in BENCHMARKS}))
        # Its FERROCAF_EVENTS variants are ferrocaf-only; the plain sweep is not.
        self.assertTrue(built["event_pingpong"])
        self.assertFalse(built["attach_pingpong"])
        self.assertFalse(built["attach_parts"])
        self.assertTrue(built["put_latency"])

    def test_host_column_runs_outside_the_chroot(self):
        cmd, env = launch_cmd(FERRO_HOST, Path("/x/prog"), 2, 0.5, BENCH, "sid:gfortran-16")
        self.assertEqual(cmd, ["/x/prog", "0.5"])
        self.assertEqual(env["FERROCAF_NUM_IMAGES"], "2")
        cmd, _ = launch_cmd(FERRO, Path("/x/prog"), 2, 0.5, BENCH, "sid:gfortran-16")
        self.assertEqual(cmd[1:], ["run", "/x/prog", "0.5"])


class TwoModes(unittest.TestCase):
    """bench/modes.py's rule: extra rounds for spread rows, fast-mode medians of idle cells."""

    RTS = (FERRO, SHMEM, OPENCAF)

    def run_group(self, values):
        """The plan of BENCH at 2 images for RTS, 3 idle and 2 loaded rounds with a raw
        reference, its first group filled with `values` {runtime: [idle value per round]};
        returns (measurements, group)."""
        exes = {("put_latency", rt): Path(rt) for rt in self.RTS}
        plan = run_plan([BENCH], exes, {"pingpong": Path("pp")}, self.RTS, [2], 3, 2, 2)
        [group] = plan_groups(plan)
        m = Measurements()
        for name, rt, n, _, expect, b, load, rnd in group:
            if b is not None and load == 0:
                m.add(rt, {expect[0]: (values[rt][rnd], "us")}, None, expect, rnd)
        return m, group

    def test_raw_reference_runs_belong_to_the_group_they_precede(self):
        exes = {(stem, rt): Path(rt) for stem in ("put_latency", "sync_all") for rt in self.RTS}
        sync = Bench("sync_all", "sync_all", images=(2,), raw="raw_barrier_2",
                     raw_prog="barrier")
        plan = run_plan([BENCH, sync], exes, {"pingpong": Path("pp"), "barrier": Path("b")},
                        self.RTS, [2], 3, 0, 1)
        groups = plan_groups(plan)
        self.assertEqual(sum(groups, []), plan)
        self.assertEqual([{e[0] for e in g} for g in groups],
                         [{"raw_pingpong", "put_latency"}, {"raw_barrier", "sync_all"}])

    def test_a_spread_row_gains_rotated_idle_rounds_of_every_runtime(self):
        tight = {rt: [1.0, 1.1, 1.9] for rt in self.RTS}
        m, group = self.run_group(tight)
        self.assertEqual(spread_rounds(m, group, 7), [])
        spread = dict(tight, **{SHMEM: [1.0, 3.0, 3.1]})  # one runtime in two modes
        m, group = self.run_group(spread)
        more = spread_rounds(m, group, 7)
        self.assertEqual([(rt, load, rnd) for _, rt, _, _, _, _, load, rnd in more],
                         [(rt, 0, rnd) for rnd in range(3, 7)
                          for rt in (self.RTS * 2)[rnd % 3:rnd % 3 + 3]])
        self.assertEqual(spread_rounds(m, group, 3), [])  # --spread-runs 3: nothing added

    def test_the_fast_mode_of_a_cell_needs_two_runs_and_a_third_of_them(self):
        slow_majority = [0.13, 0.40, 0.13, 0.42, 0.38, 0.41, 0.14]
        self.assertEqual(fast_mode(slow_majority, False), [0.13, 0.13, 0.14])
        # Bandwidths: the fast mode is the higher side.
        self.assertEqual(fast_mode([20.0, 60.0, 21.0, 58.0, 62.0], True), [62.0, 60.0, 58.0])
        # One good run is not a mode, nor are 2 of 7; a tight cell has none.
        self.assertIsNone(fast_mode([0.13, 0.40, 0.42, 0.38, 0.41], False))
        self.assertIsNone(fast_mode([0.13, 0.13, 0.40, 0.42, 0.38, 0.41, 0.39], False))
        self.assertIsNone(fast_mode([1.0, 1.5, 1.9], False))

    def test_a_row_takes_fast_modes_only_if_every_spread_cell_has_one(self):
        two_modes = [0.13, 0.40, 0.13, 0.42, 0.38, 0.41, 0.14]
        tight = [0.20, 0.21, 0.25, 0.22, 0.30, 0.24, 0.23]
        row = idle_row({FERRO: tight, SHMEM: two_modes}, False)
        self.assertEqual(row, {FERRO: (0.23, 7), SHMEM: (0.13, 3)})
        # The 08:41 stencil_events row at 4 images: the peer's fast mode holds 3 of 7 runs,
        # ferrocaf's best run stands alone; neither cell may then take its fast mode.
        lone_best = [0.10, 0.40, 0.42, 0.38, 0.41, 0.39, 0.43]
        row = idle_row({FERRO: lone_best, SHMEM: two_modes}, False)
        self.assertEqual(row, {FERRO: (0.40, 7), SHMEM: (0.38, 7)})
        # The transpose row: ferrocaf within 2x, the peer's fast mode only 2 of 7 runs.
        two_of_seven = [0.13, 0.13, 0.40, 0.42, 0.38, 0.41, 0.39]
        row = idle_row({FERRO: [0.20, 0.38, 0.30], SHMEM: two_of_seven}, False)
        self.assertEqual(row, {FERRO: (0.30, 3), SHMEM: (0.39, 7)})

    def test_idle_cells_show_their_fast_mode_and_loaded_cells_their_median(self):
        m = Measurements()
        expect = [("put_latency_syncimages", 2)]
        for rnd, v in enumerate([0.13, 0.40, 0.13, 0.42, 0.38, 0.41, 0.14]):
            for key in (FERRO, FERRO + LOADED):
                m.add(key, {expect[0]: (v, "us")}, None, expect, rnd)
        value, text = m.cell("put_latency_syncimages", 2, FERRO)
        self.assertEqual(value, 0.13)
        self.assertIn("(fast mode: 3 of 7 runs)", text)
        value, text = m.cell("put_latency_syncimages", 2, FERRO + LOADED)
        self.assertEqual(value, 0.38)
        self.assertNotIn("fast mode", text)
        # A peer in the same row whose best run stands alone: the row drops the fast mode.
        for rnd, v in enumerate([0.10, 0.40, 0.42, 0.38, 0.41, 0.39, 0.43]):
            m.add(SHMEM, {expect[0]: (v, "us")}, None, expect, rnd)
        value, text = m.cell("put_latency_syncimages", 2, FERRO)
        self.assertEqual(value, 0.38)
        self.assertNotIn("fast mode", text)

    def test_the_legend_states_the_rule_and_the_runs_it_added(self):
        rows = [table_row(measured({FERRO: 1.0, SHMEM: 2.0, OPENCAF: 3.0}), BENCH,
                          "put_latency_syncimages", 2, ONE, 0)]
        meta = {"command": "c", "facts": {}, "notes": {}, "started": datetime.datetime.now(),
                "loads": ["0.0 0 0", "0 0 0"], "factor": 1.0, "repeat": 3, "load_repeat": 5,
                "spread_runs": 7, "extra_runs": 12}
        with tempfile.TemporaryDirectory() as d:
            write_markdown(Path(d) / "P.md", meta, rows, "", ONE, 0)
            text = (Path(d) / "P.md").read_text()
        self.assertIn("up to 7 runs (`--spread-runs`; 12 runs added in all)", text)
        self.assertIn("median of its fast mode", text)


class SavedRuns(unittest.TestCase):
    """docs/performance-runs.json: every run saved, and a report re-read from it."""

    def measurements(self):
        """put_latency at 2 images, idle and loaded, with a failed run and a raw reference."""
        m = Measurements()
        expect = [("put_latency_syncimages", 2)]
        for rnd, (f, s, o) in enumerate([(0.13, 0.40, 0.5), (0.40, 0.13, 0.6), (0.14, 0.12, 0.7)]):
            for rt, v in ((FERRO, f), (SHMEM, s), (OPENCAF, o)):
                m.add(rt, {expect[0]: (v, "us")}, None, expect, rnd, host=29.0 + 140 * (v == 0.40))
                m.add(rt + LOADED, {expect[0]: (v * 3, "us")}, None, expect, rnd)
        m.add(OPENCAF + LOADED, {}, "TIMEOUT 40s", expect, 3)
        m.add("raw", {("raw_pingpong_8B", 2): (0.05, "us")}, None, [], 0)
        return m

    def meta(self):
        return {"command": "python3 bench/compare.py --load 2", "facts": {"cpu": "x"},
                "notes": {}, "compilers": COMPILERS,
                "started": datetime.datetime(2026, 11, 28, 8, 41), "loads": ["0.00 0 0", "1 1 1"],
                "factor": 0.2, "repeat": 3, "load_repeat": 5, "spread_runs": 7, "extra_runs": 0}

    def test_a_report_re_read_from_saved_runs_is_the_report_of_the_run(self):
        selection = {"benchmarks": ["put_latency"], "images": [2], "load": 2, "pairs": ONE}
        m = self.measurements()
        with tempfile.TemporaryDirectory() as d:
            ran, again = Path(d) / "ran", Path(d) / "again"
            ran.mkdir()
            save_runs(ran / "runs.json", m, self.meta(), selection)
            write_report(ran, m, self.meta(), selection)
            m2, meta2, selection2 = load_runs(ran / "runs.json")
            self.assertEqual((m2.values, m2.errors, m2.rounds, m2.units, m2.hosts, m2.probes),
                             (m.values, m.errors, m.rounds, m.units, m.hosts, m.probes))
            self.assertEqual((meta2, selection2), (self.meta(), selection))
            reread(ran / "runs.json", again, "python3 bench/compare.py --from-runs r")
            first = (ran / "PERFORMANCE.md").read_text().splitlines()
            second = (again / "PERFORMANCE.md").read_text().splitlines()
        self.assertIn("TIMEOUT 40s", "\n".join(first))
        self.assertIn("median 29.0 ns, slow (over 29.0 ns, its fast mode's largest) around 2 of 9 "
                      "runs", "\n".join(first))
        reread_line = [line for line in second if line not in first]
        self.assertEqual(len(reread_line), 1)
        self.assertIn("`python3 bench/compare.py --from-runs r`", reread_line[0])
        self.assertEqual([line for line in second if line != reread_line[0]], first)

    def test_cells_count_their_runs_in_the_hosts_slow_mode(self):
        m = self.measurements()
        _, text = m.cell("put_latency_syncimages", 2, FERRO)
        self.assertIn("(host slow around 1 of 3 runs)", text)
        _, text = m.cell("put_latency_syncimages", 2, OPENCAF)
        self.assertNotIn("host slow", text)
        _, text = m.cell("put_latency_syncimages", 2, FERRO + LOADED)  # not probed
        self.assertNotIn("host slow", text)
        self.assertIsNone(Measurements().probe_summary())

    def test_a_host_whose_probe_reads_one_mode_has_no_slow_runs(self):
        """A host whose hand-over takes 70-110 ns every time (no second mode) is not slow, as
        a fixed threshold between two modes of another host would call it."""
        m = Measurements()
        expect = [("put_latency_syncimages", 2)]
        for rnd, host in enumerate([71.0, 98.5, 104.0, 83.0]):
            m.add(FERRO, {expect[0]: (0.13, "us")}, None, expect, rnd, host=host)
        _, text = m.cell("put_latency_syncimages", 2, FERRO)
        self.assertNotIn("host slow", text)
        self.assertEqual(m.probe_summary(),
                         "median 90.8 ns [71.0–104], one mode: no run counts as slow")

    def test_a_file_that_is_not_saved_runs_is_refused_with_its_name(self):
        with tempfile.TemporaryDirectory() as d:
            cases = {"missing.json": None, "text.json": "not json",
                     "other.json": '{"format": 99}', "shape.json": '{"format": 1, "meta": {}}'}
            for name, text in cases.items():
                path = Path(d) / name
                if text is not None:
                    path.write_text(text)
                with self.assertRaises(RunsFileError) as caught:
                    load_runs(path)
                self.assertIn(str(path), str(caught.exception))


class Settling(unittest.TestCase):
    """bench/settle.py's rule: more loaded rounds while one round decides a loaded verdict."""

    RTS = (FERRO, SHMEM, OPENCAF)
    IDLE = {FERRO: 1.0, SHMEM: 2.0, OPENCAF: 2.0}
    # ferrocaf 2 in three of five loaded rounds and 5 in two; without round 0 its median is
    # 3.5: it then degrades more than libcaf_shmem (2.5x), but still adds less time (2.5
    # against 3) and is still ahead loaded.
    ONE_ROUND_DECIDES = {FERRO: [2.0, 2.0, 2.0, 5.0, 5.0], SHMEM: [5.0] * 5, OPENCAF: [6.0] * 5}
    STEADY = {FERRO: [2.0] * 5, SHMEM: [5.0] * 5, OPENCAF: [6.0] * 5}
    LOADED = {FERRO: 5.0, SHMEM: 5.0, OPENCAF: 6.0}  # a loaded round with ferrocaf at 5

    def run_group(self, loaded):
        """The plan of BENCH at 2 images for RTS, 3 idle and 5 loaded rounds, its group filled
        with IDLE and `loaded` {runtime: [loaded value per round]}; returns (m, group)."""
        exes = {("put_latency", rt): Path(rt) for rt in self.RTS}
        plan = run_plan([BENCH], exes, {}, self.RTS, [2], 3, 2, 5)
        [group] = plan_groups(plan)
        m = Measurements()
        for _, rt, _, _, expect, _, load, rnd in group:
            value = loaded[rt][rnd] if load else self.IDLE[rt]
            m.add(rt + (LOADED if load else ""), {expect[0]: (value, "us")}, None, expect, rnd)
        return m, group

    def fill(self, m, entries, values):
        """Records the loaded runs `entries` with `values` {runtime: value}."""
        for _, rt, _, _, expect, _, _, rnd in entries:
            m.add(rt + LOADED, {expect[0]: (values[rt], "us")}, None, expect, rnd)

    def test_leaving_out_one_round_copies_only_the_other_loaded_runs(self):
        m, _ = self.run_group(self.ONE_ROUND_DECIDES)
        out = without_round(m, 0)
        key = ("put_latency_syncimages", 2, FERRO)
        self.assertEqual(out.values[key], m.values[key])  # idle runs of round 0 kept
        loaded = ("put_latency_syncimages", 2, FERRO + LOADED)
        self.assertEqual((out.values[loaded], out.rounds[loaded]),
                         ([2.0, 2.0, 5.0, 5.0], [1, 2, 3, 4]))
        self.assertEqual(len(m.values[loaded]), 5)

    def test_a_verdict_one_round_decides_is_unsettled_and_gets_rounds_up_to_the_cap(self):
        m, group = self.run_group(self.ONE_ROUND_DECIDES)
        self.assertEqual(unsettled(m, BENCH, "put_latency_syncimages", 2, ONE),
                         {"degrades no more"})
        more = settle_round(m, group, 7, ONE)
        self.assertEqual([(rt, load, rnd) for _, rt, _, _, _, _, load, rnd in more],
                         [(rt, 2, 5) for rt in rotated(list(self.RTS), 5)])
        self.fill(m, more, self.LOADED)  # 2, 2, 2, 5, 5, 5: still one round away
        ran = [*group, *more]
        more = settle_round(m, ran, 7, ONE)
        self.assertEqual({rnd for *_, rnd in more}, {6})
        self.fill(m, more, dict(self.LOADED, **{FERRO: 2.0}))
        ran += more
        self.assertTrue(unsettled(m, BENCH, "put_latency_syncimages", 2, ONE))
        self.assertEqual(settle_round(m, ran, 7, ONE), [])  # 7 loaded runs each: the cap
        # A cap not above --load-repeat adds none.
        m, group = self.run_group(self.ONE_ROUND_DECIDES)
        self.assertEqual(settle_round(m, group, 5, ONE), [])
        self.assertEqual(settle_round(m, group, 3, ONE), [])

    def test_a_settled_row_gets_no_rounds(self):
        m, group = self.run_group(self.STEADY)
        self.assertEqual(unsettled(m, BENCH, "put_latency_syncimages", 2, ONE), set())
        self.assertEqual(settle_round(m, group, 11, ONE), [])

    def test_rounds_stop_once_the_verdicts_settle(self):
        m, group = self.run_group(self.ONE_ROUND_DECIDES)
        more = settle_round(m, group, 11, ONE)
        self.fill(m, more, dict(self.LOADED, **{FERRO: 2.0}))  # 4 of 6 runs at 2
        ran = [*group, *more]
        self.assertEqual(unsettled(m, BENCH, "put_latency_syncimages", 2, ONE), set())
        self.assertEqual(settle_round(m, ran, 11, ONE), [])

    def report(self, m, meta=None):
        """PERFORMANCE.md of `m` (BENCH at 2 images, loaded) as write_report writes it."""
        meta = meta or {"command": "c", "facts": {}, "notes": {}, "compilers": COMPILERS,
                        "started": datetime.datetime(2026, 11, 28), "loads": ["0 0 0", "0 0 0"],
                        "factor": 1.0, "repeat": 3, "load_repeat": 5, "load_spread_runs": 11,
                        "load_extra_runs": 6}
        selection = {"benchmarks": ["put_latency"], "images": [2], "load": 2, "pairs": ONE}
        with tempfile.TemporaryDirectory() as d:
            write_report(Path(d), m, meta, selection)
            return (Path(d) / "PERFORMANCE.md").read_text()

    def test_the_report_marks_unsettled_verdicts_and_counts_them_apart(self):
        md = self.report(self.run_group(self.ONE_ROUND_DECIDES)[0])
        self.assertIn("| yes (unsettled) | yes | 2.50x (3/5) |", md)
        self.assertIn("- `degrades no more`: yes on 1 row (0 settled, 1 unsettled) of 1.", md)
        self.assertIn("- `adds no more time`: yes on 1 row (1 settled, 0 unsettled) of 1.", md)
        self.assertIn("each runtime had 11 loaded runs (`--load-spread-runs`; 6 loaded runs "
                      "added in all)", md)
        self.assertIn("marked \"(unsettled)\" changes when one loaded round", md)
        md = self.report(self.run_group(self.STEADY)[0])
        self.assertNotIn(" (unsettled) |", md)
        self.assertIn("- `degrades no more`: yes on 1 row (1 settled, 0 unsettled) of 1.", md)

    def test_the_report_counts_rows_that_degrade_more_yet_stay_ahead_loaded(self):
        md = self.report(self.run_group(dict(self.STEADY, **{FERRO: [3.0] * 5}))[0])
        self.assertIn("- `degrades no more`: **no** on 1 row (1 settled, 0 unsettled) of 1.", md)
        self.assertIn("- `loaded vs best peer`: yes on 1 row", md)
        self.assertIn("loaded median still beats every peer's on 1:", md)
        md = self.report(self.run_group(self.STEADY)[0])
        self.assertNotIn("still beats every peer's", md)

    def test_saved_runs_keep_the_extra_rounds_and_older_files_re_read(self):
        m, group = self.run_group(self.ONE_ROUND_DECIDES)
        more = settle_round(m, group, 11, ONE)
        self.fill(m, more, self.LOADED)
        meta = {"command": "c", "facts": {}, "notes": {}, "compilers": COMPILERS,
                "started": datetime.datetime(2026, 11, 28), "loads": ["0 0 0", "0 0 0"],
                "factor": 1.0, "repeat": 3, "load_repeat": 5, "load_spread_runs": 11,
                "load_extra_runs": 3}
        selection = {"benchmarks": ["put_latency"], "images": [2], "load": 2, "pairs": ONE}
        with tempfile.TemporaryDirectory() as d:
            runs = Path(d) / "runs.json"
            save_runs(runs, m, meta, selection)
            m2, meta2, _ = load_runs(runs)
            self.assertEqual((m2.values, m2.rounds), (m.values, m.rounds))
            self.assertEqual(meta2["load_extra_runs"], 3)
            ran = self.report(m, meta).splitlines()
            again = self.report(m2, meta2).splitlines()
            # A file saved before the rule: no load_spread_runs nor load_extra_runs.
            older = {k: v for k, v in meta.items() if not k.startswith("load_")}
            save_runs(runs, m, older, selection)
            reread(runs, Path(d) / "older", "python3 bench/compare.py --from-runs r")
            old_md = (Path(d) / "older" / "PERFORMANCE.md").read_text()
        self.assertEqual(again, ran)
        self.assertIn("| **no** (unsettled) |", "\n".join(ran))
        self.assertIn("| **no** (unsettled) |", old_md)
        self.assertIn("one round decides it", old_md)
        self.assertNotIn("loaded runs added in all", old_md)


class Twins(unittest.TestCase):
    TWIN = Bench("attach_pingpong", ("attach_pingpong_8B",), images=(2,), ext=True,
                 twins=(("attach_pingpong_8B", "attach_post_8B"),))

    def test_a_twin_is_expected_of_every_run_and_has_no_row(self):
        plan = run_plan([self.TWIN], {("attach_pingpong", FERRO): Path("ap")}, {}, (FERRO,),
                        [2], 2, 0, 0)
        self.assertEqual([e[4] for e in plan],
                         [[("attach_pingpong_8B", 2), ("attach_post_8B", 2)]] * 2)

    def test_the_row_compares_its_runs_with_the_twins_of_the_same_runs(self):
        m = Measurements()
        expect = [("attach_pingpong_8B", 2), ("attach_post_8B", 2)]
        # Runs 0 and 2: the attached put faster; run 1 slower; run 3 failed (left out).
        for rnd, (a, p) in enumerate(((0.30, 0.40), (0.50, 0.40), (0.20, 0.25))):
            m.add(FERRO, {expect[0]: (a, "us"), expect[1]: (p, "us")}, None, expect, rnd)
        m.add(FERRO, {}, "TIMEOUT 40s", expect, 3)
        row = table_row(m, self.TWIN, "attach_pingpong_8B", 2, ONE, False)
        # Ratios 0.75, 1.25 and 0.8: median 0.8, faster in 2 of 3.
        self.assertEqual(row["raw"], "same runs: attach_post_8B 0.400 us, attach_pingpong_8B "
                                     "0.80x of it (faster in 2/3)")
        plain = table_row(m, Bench("attach_pingpong", ("attach_pingpong_8B",), images=(2,)),
                          "attach_pingpong_8B", 2, ONE, False)
        self.assertEqual(plain["raw"], "—")


if __name__ == "__main__":
    unittest.main()
