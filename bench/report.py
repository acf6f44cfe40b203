"""report.py: the tables of compare.py: docs/PERFORMANCE.md and docs/performance.svg.

Rows come from `table_row` (one result of one benchmark at one image count, every runtime);
with --load, each row also carries the loaded medians, each runtime's degradation (loaded
time / idle time, or idle bandwidth / loaded bandwidth) and added time (loaded time minus idle
time, per byte for bandwidths) and, per peer, the rounds won: in how
many of the rounds (compare.py's `run_plan`) in which both ran loaded the paired ferrocaf
column's run was faster than the peer's. Python 3 standard library only.

Same-compiler pairing: there may be two ferrocaf columns, FERRO (built with `--fc`) and
FERRO_HOST (built with the host's gfortran, the compiler OpenCoarrays is built with). Every
comparison of ferrocaf with a peer (idle speedup, slowdown under load, loaded speedup, the
chart) uses the ferrocaf column `pairs[peer]` (see `pairing`), so that it compares runtimes and
not the code two gfortran versions generate for the same statement. `vs raw` always uses FERRO.
"""

import math
import os
import statistics

from modes import FAST_MODE_MIN, SPREAD

FERRO, SHMEM, OPENCAF, RAW = "ferrocaf", "libcaf_shmem", "OpenCoarrays", "raw"
FERRO_HOST = "ferrocaf host"  # ferrocaf built with the host's gfortran, beside a `--fc` column
PEERS = (SHMEM, OPENCAF)
LOADED = " loaded"  # suffix of a runtime's key for the runs beside CPU-bound processes


def fmt(x):
    if x >= 100:
        return f"{x:.0f}"
    if x >= 10:
        return f"{x:.1f}"
    if x >= 1:
        return f"{x:.2f}"
    return f"{x:.3f}"


def higher_is_better(unit):
    return unit.endswith("/s")


def speedup(unit, ferro, other):
    """How many times better `ferro` is than `other` (None if either is missing)."""
    if ferro is None or other is None or ferro <= 0 or other <= 0:
        return None
    return ferro / other if higher_is_better(unit) else other / ferro


def pairing(peers, same_compiler):
    """{peer: the ferrocaf column it is compared with}: OpenCoarrays with FERRO_HOST when that
    column exists (`same_compiler`), every other peer with FERRO (the `--fc` column)."""
    return {p: FERRO_HOST if same_compiler and p == OPENCAF else FERRO for p in peers}


def ferro_columns(pairs):
    """The ferrocaf columns of the table: FERRO, then FERRO_HOST if a peer is paired with it."""
    return (FERRO, *([FERRO_HOST] if FERRO_HOST in pairs.values() else []))


def table_row(m, b, result, n, pairs, load):
    """One row of the report: result `result` of benchmark b at n images; `pairs` as made by
    `pairing` (its keys are the peers, in column order)."""
    name = b.label(result)
    unit = m.units.get(name, "us")
    runtimes = (*ferro_columns(pairs), *pairs)
    vals = {rt: m.cell(name, n, rt) for rt in runtimes}
    fv = vals[FERRO][0]
    raw, raw_name = "—", b.raw_for(result)
    if raw_name and n in b.raw_images:
        rv, rt_ = m.cell(raw_name, n, RAW)
        if rv and fv:
            rel = rv / fv if higher_is_better(unit) else fv / rv
            raw = f"{raw_name} {rt_.split(' [')[0]}; ferrocaf {rel:.1f}x"
        else:
            raw = rt_
    twin = twin_text(m, b, result, n)
    raw = twin if raw == "—" and twin else "; ".join(t for t in (raw, twin) if t)
    row = {"name": name, "images": n, "cells": {rt: v[1] for rt, v in vals.items()},
           "pairs": dict(pairs),
           "speedups": {p: speedup(unit, vals[f][0], vals[p][0]) for p, f in pairs.items()},
           "won": {p: rounds_won(m, name, n, unit, f, p) for p, f in pairs.items()},
           "raw": raw}
    if load:
        loaded = {rt: m.cell(name, n, rt + LOADED) for rt in runtimes}
        # Slowdown: how many times worse the loaded run is than the idle one.
        row["loaded"] = {rt: v[1] for rt, v in loaded.items()}
        row["degrade"] = {rt: speedup(unit, vals[rt][0], loaded[rt][0]) for rt in loaded}
        row["added"] = {rt: added_time(unit, vals[rt][0], loaded[rt][0]) for rt in loaded}
        row["idle_time"] = {rt: op_time(unit, vals[rt][0]) for rt in runtimes}
        row["loaded_speedups"] = {p: speedup(unit, loaded[f][0], loaded[p][0])
                                  for p, f in pairs.items()}
        row["loaded_won"] = {p: rounds_won(m, name, n, unit, f + LOADED, p + LOADED)
                             for p, f in pairs.items()}
    return row


def twin_text(m, b, result, n):
    """The `vs raw` column's comparison of `result` with its twin (compare.py's `Bench.twins`)
    in the FERRO column's idle runs at `n` images: the twin's cell, then the median over the
    runs that printed both of the result's time over the twin's (bandwidths: the twin's
    bandwidth over the result's; < 1: the result better) and in how many of them the result
    was the better; "" when `result` has no twin."""
    twin = b.twin_for(result)
    if not twin:
        return ""
    name, tname = b.label(result), b.label(twin)
    unit = m.units.get(name, "us")
    mine, its = m.by_round(name, n, FERRO), m.by_round(tname, n, FERRO)
    both = sorted(set(mine) & set(its))
    cell = m.cell(tname, n, FERRO)[1].split(" [")[0]
    if not both:
        return f"same runs: {tname} {cell}"
    ratios = [1.0 / x for x in (speedup(unit, mine[k], its[k]) for k in both) if x]
    if not ratios:
        return f"same runs: {tname} {cell}"
    won = sum(r < 1 for r in ratios)
    return (f"same runs: {tname} {cell}, {name} {statistics.median(ratios):.2f}x of it "
            f"(faster in {won}/{len(both)})")


def op_time(unit, v):
    """The time of one operation of a value `v` (bandwidths: the time per byte, 1/v, the same
    bytes for every runtime, so comparable across columns); None if `v` is missing."""
    if v is None or v <= 0:
        return None
    return 1.0 / v if higher_is_better(unit) else v


def added_time(unit, idle, loaded):
    """The time the load added to one operation (loaded minus idle, as `op_time`), or None."""
    a, b = op_time(unit, idle), op_time(unit, loaded)
    return None if a is None or b is None else b - a


def rounds_won(m, name, n, unit, ferro, peer):
    """(rounds in which `ferro`'s run was better than `peer`'s run of the same round, rounds
    in which both have a value): the runtimes' keys in Measurements `m`."""
    a, b = m.by_round(name, n, ferro), m.by_round(name, n, peer)
    both = sorted(set(a) & set(b))
    return sum(speedup(unit, a[k], b[k]) > 1 for k in both), len(both)


def best_speedup(speedups):
    """Speedup over the best peer (the smallest speedup), or None."""
    known = [s for s in speedups.values() if s]
    return min(known) if known else None


def best_peer(speedups):
    """The peer of `best_speedup` (the first of equals), or None."""
    known = [(s, p) for p, s in speedups.items() if s]
    return min(known, key=lambda sp: sp[0])[1] if known else None


def with_rounds(ratio, won):
    """A ratio and its rounds won, e.g. "3.40x (5/5)"."""
    return x(ratio) + (f" ({won[0]}/{won[1]})" if ratio is not None and won[1] else "")


def verdict(row):
    """Whether ferrocaf slowed down under load no more than every peer, each peer against its
    paired ferrocaf column: slowdown(pairs[p]) <= max(1, slowdown(p)) * 1.1 for every peer p
    where both are known ("—" if there is no such peer)."""
    d = row["degrade"]
    known = [(d[f], d[p]) for p, f in row["pairs"].items() if d[f] and d[p]]
    if not known:
        return "—"
    return "yes" if all(df <= max(1.0, dp) * 1.1 for df, dp in known) else "**no**"


def added_verdict(row):
    """Whether the load added to ferrocaf's time no more than to every peer's, each peer
    against its paired ferrocaf column: added(pairs[p]) <= max(0, added(p)) * 1.1 + 0.1 *
    idle(pairs[p]) for every peer p where both are known ("—" if there is no such peer). The
    same allowances as `verdict` (a peer that lost nothing lets ferrocaf lose 10% of its idle
    time), but in added time rather than in ratios to each runtime's own idle time, which
    makes the fastest runtime look worst when the load adds the same wait to all."""
    a, idle = row["added"], row["idle_time"]
    known = [(a[f], a[p], idle[f]) for p, f in row["pairs"].items()
             if a[f] is not None and a[p] is not None and idle[f] is not None]
    if not known:
        return "—"
    return "yes" if all(af <= max(0.0, ap) * 1.1 + 0.1 * i for af, ap, i in known) else "**no**"


def ahead(row):
    """Whether ferrocaf's loaded median beats the best peer's: "yes" if `best_speedup` of the
    loaded ratios is above 1, "**no**" if not, "—" without a loaded ratio."""
    best = best_speedup(row["loaded_speedups"])
    return "—" if best is None else "yes" if best > 1 else "**no**"


# The loaded table's verdicts of a row: (name in the report, function of the row). bench/settle.py
# checks each of them for rounds that decide it alone.
VERDICTS = (("degrades no more", verdict), ("adds no more time", added_verdict),
            ("loaded vs best peer", ahead))


def marked(row, name, text):
    """A verdict's text in the loaded table, "(unsettled)" appended if bench/settle.py found
    that leaving out one loaded round changes the verdict `name` of `row`."""
    return text + (" (unsettled)" if name in row.get("unsettled", ()) else "")


def verdict_summary(rows):
    """One line per verdict of VERDICTS under the loaded table: how many rows it says yes, no
    and "—" of, each count split into settled and unsettled rows (bench/settle.py); then, if
    there are any, how many rows fail `degrades no more` while ferrocaf is ahead loaded."""
    lines = []
    for name, judge in VERDICTS:
        counts = {}
        for r in rows:
            settled = name not in r.get("unsettled", ())
            tally = counts.setdefault(judge(r), [0, 0])
            tally[0 if settled else 1] += 1
        parts = [f"{answer} on {sum(c)} row{'' if sum(c) == 1 else 's'} ({c[0]} settled, "
                 f"{c[1]} unsettled)"
                 for answer, c in sorted(counts.items(), key=lambda ac: ("yes", "**no**",
                                                                         "—").index(ac[0]))]
        lines.append(f"- `{name}`: " + ", ".join(parts) + f" of {len(rows)}.")
    faster = [r for r in rows if verdict(r) == "**no**" and ahead(r) == "yes"]
    if faster:
        lines.append(f"- Of the rows `degrades no more` says no of, ferrocaf's loaded median "
                     f"still beats every peer's on {len(faster)}: its idle time is the "
                     f"smaller, so the same added wait is a larger factor of it.")
    return lines


def settle_legend(meta):
    """The legend sentences of the loaded verdicts' settling rule (bench/settle.py)."""
    runs = meta.get("load_spread_runs", 0)
    more = (f"Every runtime of a configuration (benchmark, images) with an unsettled verdict in "
            f"any of its rows after the planned rounds was run loaded again, one rotated round at"
            f" a time, until all its verdicts settled or each runtime had {runs} loaded runs "
            f"(`--load-spread-runs`; "
            f"{meta.get('load_extra_runs', 0)} loaded runs added in all). "
            if runs > meta.get("load_repeat", 0) else "")
    return ("A verdict marked \"(unsettled)\" changes when one loaded round (every runtime's "
            "loaded run of that round) is left out, the idle cells kept: one round decides it, "
            "so it is a draw of the rounds rather than a property of the runtimes (for `loaded "
            "vs best peer`: whether the ratio is above 1x). " + more + "The lines under the "
            "table count the rows of each verdict (`loaded vs best peer`: yes if above 1x), "
            "settled and unsettled apart.")


def x(v):
    return f"{v:.2f}x" if v is not None else "—"


def column_label(rt, compilers):
    """A runtime's column header: its name and, when known, the compiler of its programs."""
    name = FERRO if rt == FERRO_HOST else rt
    return f"{name} ({compilers[rt]})" if compilers.get(rt) else name


def pairing_text(pairs, compilers):
    """The legend sentence saying which ferrocaf column each peer is compared with."""
    uses = "; ".join(f"{p} with the {column_label(f, compilers)} column" for p, f in pairs.items())
    text = f"Each peer is compared with one ferrocaf column: {uses}."
    if FERRO_HOST in pairs.values():
        text += (" OpenCoarrays can only be built with the host's gfortran, and another gfortran "
                 "generates different code for the same statement (gfortran 16 copies the "
                 "source of a coindexed put into a temporary first), so ferrocaf is also built "
                 "with the host's gfortran and OpenCoarrays is compared with that build: each "
                 "ratio compares runtimes, not compilers.")
    return text


def spread_legend(meta, load):
    """The legend sentence of the two-mode rule (bench/modes.py) in the idle table."""
    runs = meta.get("spread_runs", 0)
    more = (f"each runtime of a row whose runs of any runtime spread more than {SPREAD:g}x "
            f"(worst over best) was run again, in rotated rounds, up to {runs} runs "
            f"(`--spread-runs`; {meta.get('extra_runs', 0)} runs added in all); "
            if runs > meta.get("repeat", 0) else "")
    return ("Runs of a 2-image ping-pong fall, run by run and for every runtime alike, into a "
            "fast and a 3–5x slower mode (bench/NOTES.md, \"The idle 2-image slow mode\"), so "
            + more + f"a cell whose runs spread more than {SPREAD:g}x has a fast mode if the "
            "better side of the largest gap between two consecutive runs (sorted) holds at least "
            f"{FAST_MODE_MIN} runs and a third of its runs. If every such cell of a row has one, "
            "each is the median of its fast mode, marked \"(fast mode: k of n runs)\"; if one "
            "has none, every cell of the row is the median of all its runs. A runtime slow in "
            "more runs shows it there and in [min–max]. \"(host slow around k of n runs)\": in k "
            "of the cell's runs the host's hand-over probe read more than the largest reading of "
            "the fast mode of all its readings (the same rule, applied to the probe); where the "
            "readings form one mode, no run counts as slow."
            + (" Loaded cells below are medians of all their runs." if load else ""))


def write_markdown(path, meta, rows, raw_text, pairs, load):
    """meta: command, facts, notes {runtime: note}, compilers {runtime: compiler of its programs}
    (optional), started, loads, factor, repeat and load_repeat (runs per configuration on its own
    and beside the CPU-bound processes), spread_runs and extra_runs (optional: the idle runs a
    spread row is taken to, bench/modes.py, and how many runs that added), load_spread_runs and
    load_extra_runs (optional: likewise the loaded runs of a row with an unsettled verdict,
    bench/settle.py), notes_file (a hand-written Markdown file appended at the end:
    measurements of single changes) and hosts_file (bench/mpi/hosts.md: latency between
    test-bed hosts, appended after it), reread (optional: the command that re-read saved runs,
    compare.py --from-runs), probe and probe_note (optional: the hand-over probe's summary, or
    why it was not read).
    pairs: as made by `pairing`."""
    compilers = meta.get("compilers", {})
    cols = (*ferro_columns(pairs), *pairs)
    lines = [
        "# ferrocaf performance",
        "",
        "Generated by `bench/compare.py`; do not edit by hand, re-run it.",
        "",
        f"- command: `{meta['command']}`",
        f"- date: {meta['started']:%Y-%m-%d %H:%M} (local time)",
    ]
    if meta.get("reread"):
        lines += [f"- this report: re-read from the runs saved in performance-runs.json by "
                  f"`{meta['reread']}` under the rules of bench/modes.py at that time"]
    lines += [f"- {k}: {v}" for k, v in meta["facts"].items()]
    busy = float(meta["loads"][0].split()[0])  # before our runs: other work only
    cores = os.cpu_count() or 1
    lines += [f"- load average before / after the runs: {meta['loads'][0]} / {meta['loads'][1]}"]
    if meta.get("probe") or meta.get("probe_note"):
        lines += ["- the host's cross-CPU cache-line hand-over, read just before and after each "
                  "idle run (`bench/raw/handover.c`; the slower reading counts): "
                  + (meta.get("probe") or f"not read ({meta['probe_note']})")]
    lines += [f"- {column_label(rt, compilers)}: {meta['notes'][rt]}" for rt in (FERRO_HOST, *PEERS)
              if meta["notes"].get(rt)]
    lines += [
        "- OpenCoarrays runs use `cafrun -np N` with `OMPI_MCA_rmaps_base_oversubscribe=1` "
        "(cafrun has no oversubscribe option); ferrocaf runs use `FERROCAF_NUM_IMAGES=N ./prog`.",
        f"- time factor {meta['factor']:g} (1 = full run; each timed repetition lasts about "
        f"{0.2 * meta['factor']:g} s).",
        "",
    ]
    if busy > 0.5 * cores:
        lines += [
            f"**Warning: the machine was busy** (1-minute load {busy:.1f} on {cores} "
            "cores before these runs started): other work competed for the cores, so absolute "
            "values are noisy and the spinning raw references suffer most. The runtimes ran "
            "alternately, so their ratios are more trustworthy than absolute numbers; the "
            "[min–max] spreads show how much. Re-run on an idle machine for absolute numbers.",
            "",
        ]
    lines += [
        "Each cell: median over the runs, then [min–max] over the runs. "
        + spread_legend(meta, load) + " Inside each run the "
        "program warms up, times 5 repetitions and prints the median repetition "
        "(`bench/micro/bench_util.f90`). Column headers name the compiler of each runtime's "
        "programs. `vs <peer> (ferrocaf <compiler>)` = how many times better that ferrocaf "
        "column is than that peer (> 1: ferrocaf faster), then (w/r): of the r rounds in which "
        "both ran, the w in which that ferrocaf column's run was the better (paired by round, "
        "all runs, whatever the cells' medians are of). " + pairing_text(pairs, compilers)
        + f" `vs raw`: the raw C reference (see below) and the {column_label(FERRO, compilers)} "
        "column's cost relative to it (ferrocaf time / raw time; for bandwidths raw bandwidth / "
        "ferrocaf bandwidth), so 1.0x would be the hardware limit. A row with a twin (a result "
        "its program prints beside it for the same operation done another way, their "
        "repetitions taking turns in one run: the attached ping-pong's put + EVENT POST, "
        "`attach_post_<size>`; attach_parts' put into an array nothing is attached to + EVENT "
        "POST, `parts_post_<case>`) also shows the twin's median in that column and, over the runs "
        "that printed both, the median of the row's time over the twin's (< 1: the row faster) "
        "and in how many runs the row's was the faster.",
        "",
        "| benchmark | images | " + " | ".join(column_label(rt, compilers) for rt in cols) + " | "
        + " | ".join(f"vs {p} (ferrocaf {compilers[f]})" if compilers.get(f) else f"vs {p}"
                     for p, f in pairs.items()) + " | vs raw |",
        "|---|---:|" + "---|" * len(cols) + "---:|" * len(pairs) + "---|",
    ]
    for r in rows:
        cells = " | ".join(r["cells"][rt] for rt in cols)
        sps = " | ".join(with_rounds(r["speedups"][p], r["won"][p]) for p in pairs)
        lines.append(f"| {r['name']} | {r['images']} | {cells} | {sps} | {r['raw']} |")
    if load:
        idle_n, load_n = meta.get("repeat", "R"), meta.get("load_repeat", "L")
        lines += ["", f"## Beside {load} CPU-bound processes", "",
                  f"Every configuration above was also run {load_n} times (`--load-repeat`) while "
                  f"{load} processes spun on the CPU at normal priority (`bench/load.py`; started "
                  "before and killed after each run), as on a shared node. The runs are made in "
                  "rounds: in each round every runtime runs once on its own (in the first "
                  f"{idle_n} rounds only) and once beside the processes, one runtime after "
                  "another, in an order that rotates from round to round, so that each runtime "
                  "takes each place in the round equally often (at most once more when the rounds"
                  " are not a multiple of the runtimes): in A/A runs a run's place in its round "
                  "moved its loaded time by up to 32% (bench/NOTES.md, \"Position bias\"). Each "
                  "cell: median [min–max] over the loaded runs, and (in parentheses) the "
                  "slowdown: that loaded median over the same column's idle median of the table "
                  "above (idle over loaded for bandwidths). "
                  + pairing_text(pairs, compilers) +
                  " `loaded vs <peer>`: the peer's loaded median over its ferrocaf column's "
                  "(bandwidths: ferrocaf's over the peer's; > 1: ferrocaf faster), then (w/r): of"
                  " the r rounds in which both ran loaded, the w in which the ferrocaf column's "
                  "run was faster than the peer's run of the same round, made within the same "
                  "minute (runs are paired by round, not by median; w near r/2 means the medians'"
                  " order is a coin toss). `degrades no more`: yes if for every peer the slowdown"
                  " of its ferrocaf column is at most the peer's slowdown (slowdowns below 1x "
                  "count as 1x; 10% noise allowance), both slowdowns as in the cells (medians of "
                  "all loaded runs over medians of all idle runs); `loaded vs best peer`: the "
                  "smallest `loaded vs <peer>` ratio, with that peer's (w/r). `adds no more time` "
                  "(beside the issue's `degrades no more`, for reading it): yes if for every "
                  "peer the time the load added to its ferrocaf column (loaded median minus "
                  "idle median; for bandwidths per byte) is at most the time it added to the "
                  "peer (none counts as none; allowance 10% of the peer's added time plus 10% "
                  "of ferrocaf's idle time). A slowdown is a ratio to a runtime's own idle "
                  "time, so where the load adds the same wait to every runtime the fastest "
                  "one shows the largest slowdown; the added time does not. "
                  + settle_legend(meta),
                  "",
                  "| benchmark | images | " + " | ".join(column_label(rt, compilers) for rt in cols)
                  + " | " + " | ".join(f"loaded vs {p} (ferrocaf {compilers[f]})"
                                       if compilers.get(f) else f"loaded vs {p}"
                                       for p, f in pairs.items())
                  + " | degrades no more | adds no more time | loaded vs best peer |",
                  "|---|---:|" + "---|" * len(cols) + "---:|" * len(pairs) + "---|---|---:|"]
        for r in rows:
            cells = " | ".join(
                f"{r['loaded'][rt]} ({r['degrade'][rt]:.1f}x)" if r["degrade"][rt]
                else r["loaded"][rt] for rt in cols)
            sp, won = r["loaded_speedups"], r["loaded_won"]
            ratios = " | ".join(with_rounds(sp[p], won[p]) for p in pairs)
            best = best_peer(sp)
            vs_best = with_rounds(sp[best], won[best]) if best else "—"
            answers = [marked(r, "degrades no more", verdict(r)),
                       marked(r, "adds no more time", added_verdict(r)),
                       marked(r, "loaded vs best peer", vs_best)]
            lines.append(f"| {r['name']} | {r['images']} | {cells} | {ratios} | "
                         + " | ".join(answers) + " |")
        lines += ["", *verdict_summary(rows)]
    if raw_text:
        lines += ["", "Raw references (`bench/raw/`, C, fork + one MAP_SHARED mapping):", "",
                  raw_text, "",
                  "raw_pingpong_8B is half a round trip of an 8-byte payload plus flag between "
                  "two spinning processes; raw_copy_256KiB_bw the memcpy bandwidth inside a "
                  "256 KiB ping-pong (two copies per message: private -> shared -> private), "
                  "only a rough ceiling for the 1 MiB puts and gets, whose buffers may stay in "
                  "cache; raw_barrier_futex / raw_barrier_yield a central counter barrier whose "
                  "waiters sleep on a futex / poll with sched_yield. sync_all is compared with "
                  "raw_barrier_yield only at 4 and 8 processes (more than the cores), where it "
                  "is the faster reference. raw_pingpong_256KiB (two memcpys per message) is "
                  "the reference of the 256 KiB event ping-pongs (one put per message)."]
    lines += ["", "![speedup chart](performance.svg)", ""]
    if meta.get("notes_file") and meta["notes_file"].exists():
        lines += [meta["notes_file"].read_text().rstrip(), ""]
    # Measured by hand on the test bed (bench/mpi/hosts.sh), kept across re-runs.
    if meta.get("hosts_file") and meta["hosts_file"].exists():
        lines += [meta["hosts_file"].read_text().rstrip(), ""]
    path.write_text("\n".join(lines))


def write_svg(path, rows, pairs, compilers):
    """Horizontal bars of log10(speedup over the best peer) around 1x; green: ferrocaf faster.
    Each peer's speedup uses its paired ferrocaf column (`pairs`), named in the subtitle."""
    subtitle = "each peer against one ferrocaf column: " + ", ".join(
        f"{p} vs {column_label(f, compilers)}" for p, f in pairs.items())
    bars = [(f"{r['name']} @{r['images']}", best_speedup(r["speedups"])) for r in rows]
    known = [s for _, s in bars if s]
    lo = min([-1] + [math.floor(math.log10(s)) for s in known])
    hi = max([1] + [math.ceil(math.log10(s)) for s in known])
    label_w, plot_w, bar_h, top = 230, 520, 18, 62
    height = top + len(bars) * (bar_h + 6) + 40
    width = label_w + plot_w + 90

    def xpos(s):
        return label_w + (math.log10(s) - lo) / (hi - lo) * plot_w

    x0 = xpos(1.0)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="15">'
           f'ferrocaf speedup over the faster peer (log scale; right of 1x: ferrocaf faster)'
           f'</text>',
           f'<text x="{width / 2}" y="40" text-anchor="middle">{subtitle}</text>']
    for k in range(lo, hi + 1):
        xk = xpos(10.0 ** k)
        out.append(f'<line x1="{xk:.1f}" y1="{top - 8}" x2="{xk:.1f}" y2="{height - 35}" '
                   f'stroke="{"black" if k == 0 else "#ddd"}"/>')
        out.append(f'<text x="{xk:.1f}" y="{height - 20}" text-anchor="middle">'
                   f'{10.0 ** k:g}x</text>')
    for i, (label, s) in enumerate(bars):
        y = top + i * (bar_h + 6)
        out.append(f'<text x="{label_w - 8}" y="{y + bar_h - 5}" text-anchor="end">{label}</text>')
        if not s:
            out.append(f'<text x="{x0 + 4}" y="{y + bar_h - 5}" fill="#a00">no ratio '
                       f'(failed or skipped)</text>')
            continue
        xs = xpos(s)
        left, w = min(xs, x0), abs(xs - x0)
        colour = "#2a8d3a" if s >= 1 else "#c0392b"
        out.append(f'<rect x="{left:.1f}" y="{y}" width="{max(w, 1):.1f}" height="{bar_h}" '
                   f'fill="{colour}"/>')
        tx = xs + 4 if s >= 1 else xs - 4
        anchor = "start" if s >= 1 else "end"
        out.append(f'<text x="{tx:.1f}" y="{y + bar_h - 5}" text-anchor="{anchor}">'
                   f'{s:.2f}x</text>')
    out.append("</svg>")
    path.write_text("\n".join(out) + "\n")
