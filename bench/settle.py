"""settle.py: compare.py's rule for loaded verdicts that one round decides.

Beside CPU-bound processes most rows are bimodal for every runtime, and five loaded rounds do
not settle their verdicts (report.py's VERDICTS: "degrades no more", "adds no more time" and
whether ferrocaf's loaded median beats the best peer's): on the same runtime the count of rows
passing "degrades no more" moved between 12 and 22 of 64 from one run to the next. The rule:

  1. unsettled: a verdict of a row is unsettled if leaving out any one loaded round (every
     runtime's loaded run of that round) changes it; the idle cells stay as they are;
  2. more rounds: after a (benchmark, images) group's planned runs and its idle spread rounds
     (bench/modes.py), while any verdict of any of its rows is unsettled, every runtime of the
     group runs one more loaded round, rotated as the others, up to `--load-spread-runs`
     loaded runs each (compare.py's `settle_round`);
  3. the report marks a verdict still unsettled after that "(unsettled)" and counts settled and
     unsettled rows apart (report.py's `verdict_summary`).

A saved-runs file keeps every loaded run's round, so a re-read (`compare.py --from-runs`) finds
the same rounds and verdicts. Python 3 standard library only.
"""

from report import LOADED, VERDICTS, table_row


def without_round(m, rnd):
    """A copy of Measurements `m` without the loaded runs of round `rnd` (idle runs kept)."""
    return m.without(lambda key, r: key[2].endswith(LOADED) and r == rnd)


def loaded_rounds(m, name, n):
    """The rounds in which some runtime's loaded run of result `name` at `n` images succeeded."""
    return sorted({r for key, rounds in m.rounds.items()
                   if key[:2] == (name, n) and key[2].endswith(LOADED) for r in rounds})


def unsettled(m, b, result, n, pairs):
    """The names (of report.py's VERDICTS) of the verdicts of the loaded row of `result` of
    benchmark `b` at `n` images that leaving out some one loaded round changes (rule 1)."""
    def verdicts(meas):
        row = table_row(meas, b, result, n, pairs, True)
        return {name: judge(row) for name, judge in VERDICTS}

    full = verdicts(m)
    flipped = set()
    for rnd in loaded_rounds(m, b.label(result), n):
        left_out = verdicts(without_round(m, rnd))
        flipped |= {name for name in full if left_out[name] != full[name]}
    return {name for name, _ in VERDICTS if name in flipped}

