"""modes.py: compare.py's rule for idle cells whose runs fall into two modes.

On the 2-core test machine, a whole program run of a 2-image ping-pong is sometimes 3–5× slower
than the next, at every size and for every runtime alike (bench/NOTES.md, "The idle 2-image slow
mode"). A median of 3 runs then reports whichever mode 2 of the 3 runs drew, and that draw, not
the runtime, decided such cells. The rule, applied to every runtime of a row the same way:

  1. spread: an idle row whose runs of any runtime spread more than SPREAD× (worst over best)
     after the planned rounds gets more rounds of all its runtimes, rotated as the others, up
     to `--spread-runs` runs each (compare.py's `spread_rounds`);
  2. fast mode: an idle cell whose runs spread more than SPREAD× is split at the largest ratio
     between two consecutive runs (sorted best first); the better side is the fast mode if it
     holds at least two runs, and the cell is the median of the fast mode (otherwise of all
     runs). The table shows how many runs the fast mode held.

Why the fast mode and not the median of all runs: the slow mode is a property of the run (the
machine), not of the runtime, and with half the runs slow a median of 7 still draws it about
half the time. Why not the minimum: one lucky run would decide; the fast mode needs two. Loaded
cells keep the median of all runs: there the spread is what the load does to each runtime, and
the rounds-won figure pairs them run by run. Python 3 standard library only.
"""

import statistics

SPREAD = 2.0  # worst over best run beyond which a cell's runs count as two modes
FAST_MODE_MIN = 2  # runs the better side needs to count as a mode


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
    """The runs of the fast mode (see the module's rule 2): all runs unless they spread more
    than SPREAD× and the better side of the largest gap holds FAST_MODE_MIN runs or more."""
    if spread(values, higher) <= SPREAD:
        return list(values)
    ranked = sorted(values, reverse=higher)  # best first
    gaps = [worse_ratio(a, b, higher) for a, b in zip(ranked, ranked[1:])]
    cut = gaps.index(max(gaps)) + 1
    return ranked[:cut] if cut >= FAST_MODE_MIN else list(values)


def idle_value(values, higher):
    """(the value of an idle cell, runs in its fast mode)."""
    fast = fast_mode(values, higher)
    return statistics.median(fast), len(fast)
