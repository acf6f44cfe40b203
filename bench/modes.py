"""modes.py: compare.py's rule for idle cells whose runs fall into two modes.

On the 2-core test machine, a whole program run of a 2-image ping-pong is sometimes 3–5× slower
than the next, at every size and for every runtime alike (bench/NOTES.md, "The idle 2-image slow
mode"). A median of 3 runs then reports whichever mode 2 of the 3 runs drew, and that draw, not
the runtime, decided such cells. The rule, applied to every runtime of a row the same way:

  1. spread: an idle row whose runs of any runtime spread more than SPREAD× (worst over best)
     after the planned rounds gets more rounds of all its runtimes, rotated as the others, up
     to `--spread-runs` runs each (compare.py's `spread_rounds`);
  2. fast mode: an idle cell whose runs spread more than SPREAD× is split at the largest ratio
     between two consecutive runs (sorted best first); the better side is the cell's fast mode
     if it holds at least FAST_MODE_MIN runs and at least FAST_MODE_SHARE of the cell's runs;
  3. per row: if every idle cell of a row that spreads more than SPREAD× has a fast mode, each
     of those cells is the median of its fast mode, and the table shows how many runs it held;
     otherwise (a spread cell without one) every cell of the row is the median of all its runs.

Why the fast mode and not the median of all runs: the slow mode is a property of the run (the
machine), not of the runtime, and with half the runs slow a median of 7 still draws it about
half the time. Why not the minimum: one lucky run would decide; the fast mode needs two runs
and a third of them. Why per row: a peer's fast mode set against all runs of a runtime whose
best runs stand alone would compare a selection with a median (the 08:41 run of 2026-11-28 had
stencil_events and transpose at 4 images flip from ahead to behind that way). Loaded
cells keep the median of all runs: there the spread is what the load does to each runtime, and
the rounds-won figure pairs them run by run. Python 3 standard library only.
"""

import statistics

SPREAD = 2.0  # worst over best run beyond which a cell's runs count as two modes
FAST_MODE_MIN = 2  # runs the better side needs to count as a mode
FAST_MODE_SHARE = 1 / 3  # share of a cell's runs the better side needs to count as a mode


def worse_ratio(a, b, higher):
    """How many times worse `b` is than `a` (both > 0): b/a for times, a/b for bandwidths."""
    return a / b if higher else b / a


def spread(values, higher):
    """Worst run over best run (1.0 for fewer than two runs or non-positive values)."""
    if len(values) < 2 or min(values) <= 0:
        return 1.0
    best, worst = (max(values), min(values)) if higher else (min(values), max(values))
    return worse_ratio(best, worst, higher)


def fast_mode(values, higher):
    """The runs of the cell's fast mode (the module's rule 2), or None: the runs spread no more
    than SPREAD×, or the better side of the largest gap is too small to be a mode."""
    if spread(values, higher) <= SPREAD:
        return None
    ranked = sorted(values, reverse=higher)  # best first
    gaps = [worse_ratio(a, b, higher) for a, b in zip(ranked, ranked[1:])]
    cut = gaps.index(max(gaps)) + 1
    return ranked[:cut] if cut >= max(FAST_MODE_MIN, FAST_MODE_SHARE * len(values)) else None


def idle_row(cells, higher):
    """{runtime: (value, runs it is the median of)} for the idle cells of one row, given as
    {runtime: [values of its runs]} (rule 3): fast-mode medians where every spread cell has a
    fast mode, else medians of all runs."""
    spread_cells = {rt: fast_mode(v, higher) for rt, v in cells.items()
                    if spread(v, higher) > SPREAD}
    if any(fast is None for fast in spread_cells.values()):
        spread_cells = {}
    picked = {rt: spread_cells.get(rt) or values for rt, values in cells.items()}
    return {rt: (statistics.median(v), len(v)) for rt, v in picked.items() if v}


def host_slow_above(probes):
    """The reading (ns) of the host's hand-over probe (bench/raw/handover.c) above which a run
    counts as made in the host's slow mode: the largest reading of the fast mode of all the
    probes' readings (rule 2), or None when they form one mode. The 2-vCPU EPYC VM read 24-42
    ns in its fast mode and 157-384 in its slow one (bench/NOTES.md); the 2-vCPU Xeon VM reads
    70-110 ns with no second mode, so a fixed threshold would call every run there slow."""
    fast = fast_mode(probes, False)
    return max(fast) if fast else None
