"""report.py: the tables of compare.py: docs/PERFORMANCE.md and docs/performance.svg.

Rows come from `table_row` (one result of one benchmark at one image count, every runtime);
with --load, each row also carries the loaded medians and each runtime's degradation (loaded
time / idle time, or idle bandwidth / loaded bandwidth). Python 3 standard library only.

Same-compiler pairing: there may be two ferrocaf columns, FERRO (built with `--fc`) and
FERRO_HOST (built with the host's gfortran, the compiler OpenCoarrays is built with). Every
comparison of ferrocaf with a peer (idle speedup, slowdown under load, loaded speedup, the
chart) uses the ferrocaf column `pairs[peer]` (see `pairing`), so that it compares runtimes and
not the code two gfortran versions generate for the same statement. `vs raw` always uses FERRO.
"""

import math
import os

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
    row = {"name": name, "images": n, "cells": {rt: v[1] for rt, v in vals.items()},
           "pairs": dict(pairs),
           "speedups": {p: speedup(unit, vals[f][0], vals[p][0]) for p, f in pairs.items()},
           "raw": raw}
    if load:
        loaded = {rt: m.cell(name, n, rt + LOADED) for rt in runtimes}
        # Slowdown: how many times worse the loaded run is than the idle one.
        row["loaded"] = {rt: v[1] for rt, v in loaded.items()}
        row["degrade"] = {rt: speedup(unit, vals[rt][0], loaded[rt][0]) for rt in loaded}
        row["loaded_speedups"] = {p: speedup(unit, loaded[f][0], loaded[p][0])
                                  for p, f in pairs.items()}
    return row


def best_speedup(speedups):
    """Speedup over the best peer (the smallest speedup), or None."""
    known = [s for s in speedups.values() if s]
    return min(known) if known else None


def verdict(row):
    """Whether ferrocaf slowed down under load no more than every peer, each peer against its
    paired ferrocaf column: slowdown(pairs[p]) <= max(1, slowdown(p)) * 1.1 for every peer p
    where both are known ("—" if there is no such peer)."""
    d = row["degrade"]
    known = [(d[f], d[p]) for p, f in row["pairs"].items() if d[f] and d[p]]
    if not known:
        return "—"
    return "yes" if all(df <= max(1.0, dp) * 1.1 for df, dp in known) else "**no**"


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


def write_markdown(path, meta, rows, raw_text, pairs, load):
    """meta: command, facts, notes {runtime: note}, compilers {runtime: compiler of its
    programs} (optional), started, loads, factor, notes_file (a hand-written Markdown file
    appended at the end: measurements of single changes) and hosts_file (bench/mpi/hosts.md:
    latency between test-bed hosts, appended after it). pairs: as made by `pairing`."""
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
    lines += [f"- {k}: {v}" for k, v in meta["facts"].items()]
    busy = float(meta["loads"][0].split()[0])  # before our runs: other work only
    cores = os.cpu_count() or 1
    lines += [f"- load average before / after the runs: {meta['loads'][0]} / {meta['loads'][1]}"]
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
        "Each cell: median over the runs, then [min–max] over the runs. Inside each run the "
        "program warms up, times 5 repetitions and prints the median repetition "
        "(`bench/micro/bench_util.f90`). Column headers name the compiler of each runtime's "
        "programs. `vs <peer> (ferrocaf <compiler>)` = how many times better that ferrocaf "
        "column is than that peer (> 1: ferrocaf faster). " + pairing_text(pairs, compilers)
        + f" `vs raw`: the raw C reference (see below) and the {column_label(FERRO, compilers)} "
        "column's cost relative to it (ferrocaf time / raw time; for bandwidths raw bandwidth / "
        "ferrocaf bandwidth), so 1.0x would be the hardware limit.",
        "",
        "| benchmark | images | " + " | ".join(column_label(rt, compilers) for rt in cols) + " | "
        + " | ".join(f"vs {p} (ferrocaf {compilers[f]})" if compilers.get(f) else f"vs {p}"
                     for p, f in pairs.items()) + " | vs raw |",
        "|---|---:|" + "---|" * len(cols) + "---:|" * len(pairs) + "---|",
    ]
    for r in rows:
        cells = " | ".join(r["cells"][rt] for rt in cols)
        sps = " | ".join(x(r["speedups"][p]) for p in pairs)
        lines.append(f"| {r['name']} | {r['images']} | {cells} | {sps} | {r['raw']} |")
    if load:
        lines += ["", f"## Beside {load} CPU-bound processes", "",
                  f"Every run above was made a second time while {load} processes spun on the "
                  "CPU at normal priority (`bench/load.py`; started before and killed after "
                  "each run), as on a shared node. Each cell: loaded median [min–max] and "
                  "(in parentheses) how many times slower than the same runtime on its own. "
                  + pairing_text(pairs, compilers) + " `degrades no more`: for every peer, "
                  "the slowdown of its ferrocaf column is at most the peer's slowdown (slowdowns "
                  "below 1x count as 1x; 10% noise allowance); `loaded vs best peer`: the "
                  "smallest loaded speedup over a peer, each peer against its ferrocaf column.",
                  "",
                  "| benchmark | images | " + " | ".join(column_label(rt, compilers) for rt in cols)
                  + " | degrades no more | loaded vs best peer |",
                  "|---|---:|" + "---|" * len(cols) + "---|---:|"]
        for r in rows:
            cells = " | ".join(
                f"{r['loaded'][rt]} ({r['degrade'][rt]:.1f}x)" if r["degrade"][rt]
                else r["loaded"][rt] for rt in cols)
            lines.append(f"| {r['name']} | {r['images']} | {cells} | {verdict(r)} | "
                         f"{x(best_speedup(r['loaded_speedups']))} |")
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
