"""measurements.py: compare.py's measurements — every run's value of every result, per (result
name, images, runtime), with failures kept — how a table cell is read from them, and their
saving to and loading from JSON (docs/performance-runs.json), so that a report can be
re-read under changed rules (`compare.py --from-runs`) without running anything again.
Python 3 standard library only.
"""

import datetime
import json
import statistics

import modes
from report import LOADED, RAW, fmt, higher_is_better

RUNS_FORMAT = 1  # version of the saved-runs file; a file of another version is refused
META_KEYS = ("command", "facts", "notes", "compilers", "started", "loads", "factor", "repeat",
             "load_repeat", "spread_runs", "extra_runs", "load_spread_runs", "load_extra_runs",
             "probe_note")


class RunsFileError(Exception):
    """A saved-runs file that cannot be read: the message names the file and why."""


class Measurements:
    """All values per (result name, images, runtime), with failures kept."""

    def __init__(self):
        self.values, self.errors, self.units, self.rounds = {}, {}, {}, {}
        self.hosts = {}  # per key, beside each value: the host's hand-over reading or None
        self.probes = []  # every probed run's reading, once per run

    def add(self, runtime, results, error, expect, rnd, host=None):
        """Records one run of round `rnd` (see `run_plan`): its value of every expected result,
        or the error; `host`: the slower hand-over probe reading around the run (ns), if any."""
        if host is not None:
            self.probes.append(host)
        if runtime == RAW:  # keep every reference line a raw program printed
            expect = sorted(set(expect) | set(results))
        for name, images in expect:
            key = (name, images, runtime)
            if error or (name, images) not in results:
                self.errors.setdefault(key, []).append(error or "FAIL missing RESULT")
                continue
            value, unit = results[(name, images)]
            self.values.setdefault(key, []).append(value)
            self.rounds.setdefault(key, []).append(rnd)
            self.hosts.setdefault(key, []).append(host)
            self.units[name] = unit

    def without(self, drop):
        """A copy without the runs for which `drop(key, round)` holds (key: (result name,
        images, runtime)); errors, units and probes kept."""
        out = Measurements()
        out.units, out.errors, out.probes = self.units, self.errors, self.probes
        for key, rounds in self.rounds.items():
            keep = [i for i, r in enumerate(rounds) if not drop(key, r)]
            if keep:
                out.values[key] = [self.values[key][i] for i in keep]
                out.rounds[key] = [rounds[i] for i in keep]
                out.hosts[key] = [self.hosts[key][i] for i in keep]
        return out

    def by_round(self, name, images, runtime):
        """{round: value} of the successful runs of (name, images, runtime)."""
        key = (name, images, runtime)
        return dict(zip(self.rounds.get(key, []), self.values.get(key, [])))

    def cell(self, name, images, runtime):
        """(value or None, text for the table): the median of a loaded cell's runs; of an idle
        cell's fast mode or all its runs, as its row decides (bench/modes.py)."""
        key = (name, images, runtime)
        vals, errs = self.values.get(key, []), self.errors.get(key, [])
        if not vals:
            return None, (errs[0] if errs else "—")
        unit = self.units.get(name, "")
        if runtime.endswith(LOADED):
            med, fast = statistics.median(vals), len(vals)
        else:  # an idle cell: as its row decides (bench/modes.py)
            row = {rt: v for (n, k, rt), v in self.values.items()
                   if n == name and k == images and not rt.endswith(LOADED)}
            med, fast = modes.idle_row(row, higher_is_better(unit))[runtime]
        text = f"{fmt(med)} {unit}"
        if len(vals) > 1:
            text += f" [{fmt(min(vals))}–{fmt(max(vals))}]"
        if fast < len(vals):
            text += f" (fast mode: {fast} of {len(vals)} runs)"
        above = modes.host_slow_above(self.probes)
        slow = above is not None and sum(h is not None and h > above
                                         for h in self.hosts.get(key, []))
        if slow:
            text += f" (host slow around {slow} of {len(vals)} runs)"
        if errs:
            text += f" ({len(errs)} of {len(vals) + len(errs)} runs: {errs[0]})"
        return med, text

    def probe_summary(self):
        """The hand-over probe readings around the idle runs, for the report: "median X ns, slow
        (over T ns, its fast mode's largest) around k of n runs", "median X ns [min–max], one
        mode: no run counts as slow" (`modes.host_slow_above`), or None if no run was probed."""
        if not self.probes:
            return None
        med = f"median {fmt(statistics.median(self.probes))} ns"
        above = modes.host_slow_above(self.probes)
        if above is None:
            return (f"{med} [{fmt(min(self.probes))}–{fmt(max(self.probes))}], one mode: no run "
                    "counts as slow")
        slow = sum(h > above for h in self.probes)
        return (f"{med}, slow (over {fmt(above)} ns, its fast mode's largest) around {slow} of "
                f"{len(self.probes)} runs")

    def to_json(self):
        """The measurements as JSON-ready data: one record per (result, images, runtime)."""
        keys = sorted(set(self.values) | set(self.errors))
        return {"units": self.units, "probes": self.probes,
                "cells": [{"result": n, "images": k, "runtime": rt,
                           "values": self.values.get((n, k, rt), []),
                           "rounds": self.rounds.get((n, k, rt), []),
                           "hosts": self.hosts.get((n, k, rt), []),
                           "errors": self.errors.get((n, k, rt), [])} for n, k, rt in keys]}

    @classmethod
    def from_json(cls, data):
        """The inverse of `to_json` (KeyError or TypeError on data of another shape)."""
        m = cls()
        m.units = dict(data["units"])
        m.probes = [float(h) for h in data["probes"]]
        for c in data["cells"]:
            key = (c["result"], int(c["images"]), c["runtime"])
            if not len(c["values"]) == len(c["rounds"]) == len(c["hosts"]):
                raise TypeError(f"{key}: {len(c['values'])} values, {len(c['rounds'])} rounds "
                                f"and {len(c['hosts'])} probe readings")
            for kind, items in (("values", c["values"]), ("rounds", c["rounds"]),
                                ("hosts", c["hosts"]), ("errors", c["errors"])):
                if items:
                    getattr(m, kind)[key] = list(items)
        return m


def save_runs(path, m, meta, selection):
    """Writes the runs of `m` to `path` with the report's `meta` (META_KEYS) and `selection`
    (benchmarks, images, load, pairs: what the report shows)."""
    saved = {k: meta[k] for k in META_KEYS if k in meta}
    saved["started"] = meta["started"].isoformat(timespec="seconds")
    path.write_text(json.dumps({"format": RUNS_FORMAT, "meta": saved, "selection": selection,
                                "measurements": m.to_json()}, indent=1) + "\n")


def load_runs(path):
    """(measurements, meta, selection) saved by `save_runs`; RunsFileError if `path` is
    missing, not JSON, of another format version or of another shape."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as e:
        raise RunsFileError(f"{path}: cannot read saved runs: {e}") from None
    if not isinstance(data, dict) or data.get("format") != RUNS_FORMAT:
        raise RunsFileError(f"{path}: not a saved-runs file of format {RUNS_FORMAT}")
    try:
        meta = dict(data["meta"])
        meta["started"] = datetime.datetime.fromisoformat(meta["started"])
        selection = data["selection"]
        selection = {"benchmarks": list(selection["benchmarks"]),
                     "images": [int(n) for n in selection["images"]],
                     "load": int(selection["load"]), "pairs": dict(selection["pairs"])}
        return Measurements.from_json(data["measurements"]), meta, selection
    except (KeyError, TypeError, ValueError) as e:
        raise RunsFileError(f"{path}: saved runs of an unexpected shape ({e!r})") from None
