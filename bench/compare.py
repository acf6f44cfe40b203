#!/usr/bin/env python3
"""compare.py: ferrocaf against GCC 16's libcaf_shmem and OpenCoarrays on this machine.

What it does:
  1. builds ferrocaf (`cargo build --release`) and the raw shared-memory references in C
     (bench/raw/pingpong.c: ping-pong limits; bench/raw/barrier.c: central barriers);
  2. compiles every micro-benchmark of bench/micro/ for each runtime: ferrocaf (`--fc`, default
     gfortran; `sid:gfortran-14` builds and runs in the sid chroot, bench/sid.py), GCC 16's
     libcaf_shmem (gfortran-16 -lcaf_shmem in the sid chroot; absent with a note without it)
     and OpenCoarrays (`caf -O2`; if `caf` cannot link, as when the Open MPI development
     package is missing, the installed shared libcaf_openmpi is linked with gfortran directly
     and the document says so; skipped with a note without OpenCoarrays). When `--fc` is
     not the host's gfortran (the compiler OpenCoarrays is built with), every benchmark that
     OpenCoarrays runs is also built for ferrocaf with the host's gfortran: a second ferrocaf
     column, the one OpenCoarrays is compared with (report.py, "Same-compiler pairing"; skip it
     with --no-same-compiler);
  3. runs each benchmark at each image count for every runtime in rounds: in each round every
     runtime runs once, one after another, in an order that rotates from round to round
     (`run_plan`); R rounds on their own (--repeat), each run under a timeout (a configuration
     whose idle runs spread more than 2x gets more rounds, up to --spread-runs runs, and its
     spread idle cells the median of their fast mode if each has one: bench/modes.py); a failed,
     verification-failed or timed-out run is recorded and shown, never dropped. With --load N
     the rounds also run each runtime beside N CPU-bound processes (bench/load.py), L times
     (--load-repeat), and a second table shows the loaded times, how much each runtime
     degraded and, per peer, in how many rounds ferrocaf's loaded run was the faster (a
     configuration with a loaded verdict that one round decides gets more loaded rounds, up to
     --load-spread-runs runs, and a verdict still unsettled then is marked: bench/settle.py);
  4. writes docs/PERFORMANCE.md (command, machine, date, table of medians, then the
     hand-written bench/NOTES.md: measurements of single changes with their commands) and
     docs/performance.svg (bar chart of speedups, hand-written SVG).

Every program prints "RESULT <name> <images> <value> <unit>"; units "us" are lower-is-better,
"GB/s" higher-is-better. Speedup over a peer = how many times better ferrocaf is (peer time /
ferrocaf time, or ferrocaf bandwidth / peer bandwidth).

Adding a benchmark: write bench/micro/<name>.f90 (see bench_util.f90) and add one Bench(...)
line to BENCHMARKS below (its images must suit it; a raw reference is optional). Application
benchmarks are the examples_caf/*.f90 programs (kind="app"): built on their own, given their
iteration count instead of the time factor, timed by themselves. A program that uses ferrocaf's
extension module (ext=True) is built for ferrocaf only; OpenCoarrays is skipped with a note.

Python 3 standard library only.
"""

import argparse
import datetime
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import modes
import settle
import sid
from load import Burners
from measurements import Measurements, RunsFileError, load_runs, save_runs
from report import (FERRO, FERRO_HOST, LOADED, OPENCAF, PEERS, RAW, SHMEM, ferro_columns,
                    higher_is_better, pairing, table_row, write_markdown, write_svg)

BENCH_DIR = Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
BUILD = BENCH_DIR / "build"
UTIL = BENCH_DIR / "micro" / "bench_util.f90"
EXT_MODULE = ROOT / "caf_abi" / "ferrocaf_ext.f90"
RUNS_FILE = "performance-runs.json"  # every run's values, saved next to the report
PROBE_SRC = BENCH_DIR / "raw" / "handover.c"  # the host's cross-CPU hand-over, around idle runs


@dataclass(frozen=True)
class Bench:
    """One benchmark run: its name (the source stem unless `prog` names another), the RESULT
    name(s) it prints, image counts, and the raw reference result it is compared with (printed
    by raw program `raw_prog` of RAW_PROGRAMS at the image counts `raw_images`), if any: `raw`
    for every result, or `raws` as (result, raw result) pairs.
    kind "app": an examples_caf/ program, run with `args` only (its iteration count);
    kind "micro": a bench/micro/ program, run with the time factor, then `args`.
    ext: uses ferrocaf_ext (ferrocaf only). env: extra environment of the ferrocaf runs, which
    makes the benchmark a ferrocaf-only variant; its results are labelled with the variables.
    twins: (result, twin) pairs: the twin is a result the same run prints for the same operation
    done another way (its repetitions taking turns with the result's), which the report compares
    with the result run by run (report.py, `twin_text`); twins have no rows of their own."""

    name: str
    result: object  # str or tuple of str
    images: tuple = (2, 4, 8)
    raw: str = ""
    raw_prog: str = ""
    raw_images: tuple = (2,)
    raws: tuple = ()
    kind: str = "micro"
    prog: str = ""
    args: tuple = ()
    ext: bool = False
    env: tuple = ()
    twins: tuple = ()

    @property
    def stem(self):
        return self.prog or self.name

    @property
    def results(self):
        """The RESULT names this run prints (as printed)."""
        return (self.result,) if isinstance(self.result, str) else tuple(self.result)

    @property
    def printed(self):
        """Every RESULT name a run is expected to print: the results, then their twins."""
        return self.results + tuple(t for _, t in self.twins)

    def twin_for(self, result):
        """The twin of `result` (printed by the same run), or ""."""
        return dict(self.twins).get(result, "")

    def label(self, result):
        """The name of a result in the report (the variant's environment appended)."""
        return result + "".join(f" [{k}={v}]" for k, v in self.env)

    def raw_for(self, result):
        return dict(self.raws).get(result, self.raw)

    def ferrocaf_only(self):
        return self.ext or bool(self.env)


# Raw references in bench/raw/: C source, run as `prog N factor` at these process counts.
RAW_PROGRAMS = {
    "pingpong": ("pingpong.c", (2,)),
    "barrier": ("barrier.c", (2, 4, 8)),
}

# Payload sizes of the ping-pong sweeps (the suffixes of their result names).
SWEEP = ("8B", "64B", "512B", "4KiB", "32KiB", "256KiB", "1MiB")

# attach_parts' cases: a scalar put into 8 KiB and 8 MiB, a row put into 8 MiB (result suffixes).
PARTS = ("8KiB", "8MiB", "row_8MiB")

BENCHMARKS = [
    Bench("put_latency", "put_latency_syncimages", raw="raw_pingpong_8B", raw_prog="pingpong"),
    Bench("get_latency", "get_latency"),
    Bench("put_bandwidth", "put_bandwidth_1MiB", raw="raw_copy_256KiB_bw", raw_prog="pingpong"),
    Bench("get_bandwidth", "get_bandwidth_1MiB", raw="raw_copy_256KiB_bw", raw_prog="pingpong"),
    Bench("sync_all", "sync_all", raw="raw_barrier_yield", raw_prog="barrier",
          raw_images=(4, 8)),
    Bench("strided_put", "strided_put_100k"),
    Bench("alloc_dealloc", "alloc_dealloc_1000"),
    Bench("event_pingpong", tuple(f"event_pingpong_{s}" for s in SWEEP), images=(2,),
          raws=(("event_pingpong_8B", "raw_pingpong_8B"),
                ("event_pingpong_256KiB", "raw_pingpong_256KiB")), raw_prog="pingpong"),
    Bench("attach_pingpong", tuple(f"attach_pingpong_{s}" for s in SWEEP), images=(2,), ext=True,
          raws=(("attach_pingpong_8B", "raw_pingpong_8B"),
                ("attach_pingpong_256KiB", "raw_pingpong_256KiB")), raw_prog="pingpong",
          twins=tuple((f"attach_pingpong_{s}", f"attach_post_{s}") for s in SWEEP)),
    Bench("notify_cost", ("notify_cost_put_post", "notify_cost_attached"), images=(1,),
          ext=True),
    Bench("attach_parts", tuple(f"attach_parts_{c}" for c in PARTS), images=(2,), ext=True,
          twins=tuple((f"attach_parts_{c}", f"parts_post_{c}") for c in PARTS)),
    *[Bench(f"event_pingpong_{e}", "event_pingpong_8B", images=(2,), prog="event_pingpong",
            args=("8",), env=(("FERROCAF_EVENTS", e),), raw="raw_pingpong_8B",
            raw_prog="pingpong") for e in ("atomic", "p2p", "notified")],
    Bench("atomic_add", "atomic_add_all_to_one"),
    Bench("co_sum", "co_sum_8B"),
    Bench("lock_unlock", "lock_unlock_contended"),
    # Applications: examples_caf/, default sizes, these iteration counts.
    Bench("p2p_sync_images", "p2p_sync_images", kind="app", args=("10",)),
    Bench("p2p_events", "p2p_events", kind="app", args=("10",)),
    Bench("p2p_attach", "p2p_attach", kind="app", args=("10",), ext=True),
    Bench("stencil_events", "stencil_events", kind="app", args=("30",)),
    Bench("stencil_attach", "stencil_attach", kind="app", args=("30",), ext=True),
    Bench("transpose", "transpose", kind="app", args=("5",)),
    Bench("ft_transpose",
          tuple(f"ft_transpose_{v}" for v in ("put", "get", "put_strided", "get_strided")),
          kind="app", args=("5",)),
    Bench("hydro", "hydro", kind="app", args=("50",)),
]


RESULT_RE = re.compile(r"^RESULT\s+(\S+)\s+(\d+)\s+(\S+)\s+(\S+)\s*$", re.M)



def sh(cmd, **kw):
    """Runs a command, returns (rc, combined output)."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    return p.returncode, p.stdout


def first_line(cmd):
    try:
        rc, out = sh(cmd)
    except OSError:
        return "unavailable"
    return out.strip().splitlines()[0] if rc == 0 and out.strip() else "unavailable"


def machine_facts(fc, same_compiler):
    model = "unknown"
    try:
        rc, out = sh(["lscpu"])
        m = re.search(r"^Model name:\s*(.+)$", out, re.M)
        model = m.group(1).strip() if m else model
    except OSError:
        pass
    return {
        "CPU": model,
        "cores (nproc)": first_line(["nproc"]),
        "kernel": platform.release(),
        "gfortran": first_line(["gfortran", "--version"]),
        "ferrocaf column built with": fc_version(fc),
        **({"second ferrocaf column built with": first_line(["gfortran", "--version"])}
           if same_compiler else {}),
        "libcaf_shmem column built with": (first_line(sid.wrap(["gfortran-16", "--version"]))
                                           if not sid.missing() else "—"),
        "rustc": first_line(["rustc", "--version"]),
        "Open MPI": first_line(["mpirun", "--version"]),
    }


def fc_version(fc):
    in_sid, cmd = sid.split_fc(fc)
    return first_line(sid.wrap([cmd, "--version"]) if in_sid else [cmd, "--version"])


def compiler_name(fc):
    """`gfortran <major version>` of a `--fc` value, or the value itself if it does not say."""
    in_sid, cmd = sid.split_fc(fc)
    major = first_line(sid.wrap([cmd, "-dumpversion"]) if in_sid else [cmd, "-dumpversion"])
    return f"gfortran {major.split('.')[0]}" if major != "unavailable" else fc


def fail(msg):
    print(f"compare.py: {msg}", file=sys.stderr)
    sys.exit(1)


# ---------------------------------------------------------------- building


def build_ferrocaf():
    print("building ferrocaf (cargo build --release)...", flush=True)
    rc, out = sh(["cargo", "build", "--release"], cwd=ROOT)
    if rc != 0:
        fail("cargo build --release failed:\n" + out)
    lib = ROOT / "target" / "release"
    if not (lib / "libferrocaf.so").exists():
        fail(f"no libferrocaf.so in {lib}")
    return lib


def compile_fortran(cmd, what):
    rc, out = sh(cmd)
    if rc != 0:
        print(f"  compile failed ({what}):\n{out}", flush=True)
    return rc == 0


def sources(b):
    """The Fortran sources of benchmark b's program."""
    if b.kind == "app":
        return [str(ROOT / "examples_caf" / f"{b.stem}.f90")]
    return [str(UTIL), str(BENCH_DIR / "micro" / f"{b.stem}.f90")]


def programs(benches):
    """Each program of `benches` once, in order: (its first benchmark, whether a peer runs any
    benchmark of it). A program that some benchmarks run only with ferrocaf settings (the
    FERROCAF_EVENTS variants of event_pingpong) is still built for the peers."""
    groups = {}
    for b in benches:
        groups.setdefault(b.stem, []).append(b)
    return [(g[0], not all(x.ferrocaf_only() for x in g)) for g in groups.values()]


def build_benchmarks(benches, lib, fc, same_compiler):
    """Returns {(program stem, runtime): executable} and {runtime: note on how it was built}.
    same_compiler: also build the FERRO_HOST column (host gfortran) of what OpenCoarrays runs."""
    exes = {}
    fdir, hdir = BUILD / FERRO, BUILD / "ferrocaf-host"
    sdir, odir = BUILD / "libcaf_shmem", BUILD / "opencoarrays"
    for d in (fdir, hdir, sdir, odir):
        d.mkdir(parents=True, exist_ok=True)
    in_sid, fcmd = sid.split_fc(fc)
    fwrap = sid.wrap if in_sid else (lambda c: c)
    # The extension module (interfaces only) for programs that `use ferrocaf_ext`.
    compile_fortran(fwrap([fcmd, "-fcoarray=lib", "-J", str(fdir), "-c", str(EXT_MODULE), "-o",
                           str(fdir / "ferrocaf_ext.o")]), "ferrocaf_ext module")
    oc_mode = "caf" if shutil.which("caf") else None
    oc_note = "" if oc_mode else "`caf` not found: OpenCoarrays skipped."
    no_sid = sid.missing()
    shmem_note = (f"column absent: {no_sid}." if no_sid else
                  "GCC 16's libcaf_shmem: `gfortran-16 -O2 -fcoarray=lib ... -lcaf_shmem` in the "
                  f"sid chroot ({sid.root()}), run there with `GFORTRAN_NUM_IMAGES=N ./prog`.")
    for b, peers in programs(benches):
        src = sources(b)
        exe = fdir / b.stem
        cmd = fwrap([fcmd, "-O2", "-fcoarray=lib", "-J", str(fdir), *src, f"-L{lib}",
                     "-lferrocaf", f"-Wl,-rpath,{lib}", "-o", str(exe)])
        print(f"compiling {b.stem} for ferrocaf ({fc})...", flush=True)
        if compile_fortran(cmd, f"{b.stem} ferrocaf"):
            exes[(b.stem, FERRO)] = exe
        if not peers:
            continue
        if same_compiler:
            exe = hdir / b.stem
            print(f"compiling {b.stem} for ferrocaf (host gfortran)...", flush=True)
            if compile_fortran(["gfortran", "-O2", "-fcoarray=lib", "-J", str(hdir), *src,
                                f"-L{lib}", "-lferrocaf", f"-Wl,-rpath,{lib}", "-o", str(exe)],
                               f"{b.stem} ferrocaf host"):
                exes[(b.stem, FERRO_HOST)] = exe
        if not no_sid:
            exe = sdir / b.stem
            print(f"compiling {b.stem} for libcaf_shmem...", flush=True)
            if compile_fortran(sid.wrap(["gfortran-16", "-O2", "-fcoarray=lib", "-J", str(sdir),
                                         *src, "-lcaf_shmem", "-o", str(exe)]),
                               f"{b.stem} libcaf_shmem"):
                exes[(b.stem, SHMEM)] = exe
        if not oc_mode:
            continue
        exe = odir / b.stem
        print(f"compiling {b.stem} for OpenCoarrays...", flush=True)
        caf_cmd = ["caf", "-O2", "-J", str(odir), *src, "-o", str(exe)]
        direct = ["gfortran", "-O2", "-fcoarray=lib", "-J", str(odir), *src, "-lcaf_openmpi",
                  "-o", str(exe)]
        if oc_mode == "caf" and sh(caf_cmd)[0] != 0:
            if compile_fortran(direct, f"{b.stem} OpenCoarrays"):
                oc_mode = "direct"
                oc_note = ("`caf -O2` failed to link on this machine (the Open MPI development "
                           "libraries it names are not installed), so the OpenCoarrays programs "
                           "were built with `gfortran -O2 -fcoarray=lib ... -lcaf_openmpi` "
                           "(the installed shared OpenCoarrays library, which loads Open MPI).")
                exes[(b.stem, OPENCAF)] = exe
            continue
        if oc_mode == "direct" and not compile_fortran(direct, f"{b.stem} OpenCoarrays"):
            continue
        exes[(b.stem, OPENCAF)] = exe
    if oc_mode == "caf" and not oc_note:
        oc_note = "OpenCoarrays programs built with `caf -O2`."
    host_note = ("the same programs built with the host's `gfortran -O2 -fcoarray=lib` "
                 "(OpenCoarrays' compiler), run as the ferrocaf column.") if same_compiler else ""
    return exes, {SHMEM: shmem_note, OPENCAF: oc_note, FERRO_HOST: host_note}


def build_raw(names):
    """Compiles the raw reference programs `names`; returns {name: executable}."""
    BUILD.mkdir(parents=True, exist_ok=True)
    cc = shutil.which("cc") or shutil.which("gcc")
    exes = {}
    for name in sorted(names):
        if not cc:
            print("  no C compiler: raw references skipped")
            break
        src, _ = RAW_PROGRAMS[name]
        exe = BUILD / name
        rc, out = sh([cc, "-O2", "-std=c11", str(BENCH_DIR / "raw" / src), "-o", str(exe)])
        if rc != 0:
            print(f"  raw {name} failed to compile:\n{out}")
            continue
        exes[name] = exe
    return exes


def build_probe():
    """Compiles the host's cross-CPU hand-over probe (bench/raw/handover.c); returns
    (executable or None, note for the report: why there is none)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        return None, "no C compiler"
    if (os.cpu_count() or 1) < 2:
        return None, "fewer than two CPUs"
    BUILD.mkdir(parents=True, exist_ok=True)
    exe = BUILD / "handover"
    rc, out = sh([cc, "-O2", "-std=c11", "-pthread", str(PROBE_SRC), "-o", str(exe)])
    if rc != 0:
        return None, f"failed to compile: {out.strip().splitlines()[-1] if out.strip() else rc}"
    return exe, ""


def probe_host(exe):
    """One reading of the hand-over probe in ns, or None if it failed (its error is printed)."""
    try:
        proc = subprocess.run([str(exe)], capture_output=True, text=True, timeout=10)
    except subprocess.TimeoutExpired:
        print("    hand-over probe: TIMEOUT 10s", flush=True)
        return None
    m = re.fullmatch(r"HANDOVER (\S+)\n", proc.stdout)
    if proc.returncode != 0 or not m:
        print(f"    hand-over probe: {proc.stderr.strip() or proc.stdout.strip()}", flush=True)
        return None
    return float(m.group(1))


# ---------------------------------------------------------------- running


def launch_cmd(runtime, exe, images, factor, bench=None, fc="gfortran"):
    """Command and environment for one run (bench None: a raw reference)."""
    env = dict(os.environ)
    arg = [str(factor)]
    if bench is not None:
        arg = [*([] if bench.kind == "app" else arg), *bench.args]
    if runtime in (FERRO, FERRO_HOST):
        env["FERROCAF_NUM_IMAGES"] = str(images)
        env.update(dict(bench.env if bench else ()))
        in_sid = runtime == FERRO and sid.split_fc(fc)[0]
        return (sid.wrap if in_sid else list)([str(exe), *arg]), env
    if runtime == SHMEM:
        env["GFORTRAN_NUM_IMAGES"] = str(images)
        return sid.wrap([str(exe), *arg]), env
    if runtime == OPENCAF:
        # cafrun has no oversubscribe option; Open MPI reads it from the environment.
        env["OMPI_MCA_rmaps_base_oversubscribe"] = "1"
        if os.geteuid() == 0:
            env["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
            env["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
        return ["cafrun", "-np", str(images), str(exe), *arg], env
    return [str(exe), str(images), *arg], env  # raw reference: N factor


def run_once(cmd, env, timeout):
    """Runs one benchmark process group. Returns (results {(name, images): (value, unit)},
    error string or None)."""
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the group we created: launcher and its images
        proc.communicate()
        return {}, f"TIMEOUT {timeout:g}s"
    results = {(m[0], int(m[1])): (float(m[2]), m[3]) for m in RESULT_RE.findall(out)}
    if "VERIFY FAILED" in out:
        return {}, "VERIFY FAILED"
    if proc.returncode != 0:
        return {}, f"FAIL rc={proc.returncode}"
    if not results:
        return {}, "FAIL no RESULT"
    return results, None


def rotated(runtimes, rnd):
    """`runtimes` in round `rnd`'s order: rotated left by `rnd` places, so that over any
    len(runtimes) consecutive rounds each runtime takes each place once (over other numbers of
    rounds, each place at most once more than any other)."""
    k = rnd % len(runtimes) if runtimes else 0
    return [*runtimes[k:], *runtimes[:k]]


def run_plan(benches, exes, raw_exes, runtimes, wanted_images, repeat, load, load_repeat):
    """The run plan: every (benchmark, images) for every runtime in `runtimes` that has an
    executable in `exes`, in rounds. In each round every such runtime runs once on its own (in
    the first `repeat` rounds) and then, with `load`, once beside the CPU-bound processes (in
    the first `load_repeat` rounds), one runtime after another in the order `rotated` gives
    that round: a run's place in the round moves its time on a loaded machine, and rotating
    gives every runtime every place. The runs of one round are made within a minute or so,
    which the loaded table's rounds-won figure pairs (report.py). Raw references run first in
    each round on their own, alternately with every benchmark compared with them, so that both
    see the same load on a shared machine; a reference's median is over all of its runs. They
    spin, so they run only on their own.
    Returns [(name, runtime, images, executable, expected results, Bench or None, load,
    round)]."""
    plan, raw_runs = [], {}
    for prog, exe in raw_exes.items():
        results = sorted({b.raw_for(r) for b in benches if b.raw_prog == prog
                          for r in b.results} - {""})
        for n in (n for n in RAW_PROGRAMS[prog][1] if n in wanted_images):
            raw_runs[(prog, n)] = (f"raw_{prog}", RAW, n, exe, [(r, n) for r in results], None,
                                   0)
    for b in benches:
        rts = [rt for rt in runtimes
               if (b.stem, rt) in exes and (rt == FERRO or not b.ferrocaf_only())]
        for n in (n for n in b.images if n in wanted_images):
            raw = raw_runs.get((b.raw_prog, n)) if n in b.raw_images else None
            for rnd in range(max(repeat, load_repeat if load else 0)):
                plan += [(*raw, rnd)] if raw and rnd < repeat else []
                loads = [0] if rnd < repeat else []
                loads += [load] if load and rnd < load_repeat else []
                for lo in loads:
                    for rt in rotated(rts, rnd):
                        plan.append((b.name, rt, n, exes[(b.stem, rt)],
                                     [(r, n) for r in b.printed], b, lo, rnd))
    return plan


def plan_groups(plan):
    """`plan` cut into the runs of each (benchmark, images), in order; a raw reference's runs
    belong to the group they precede."""
    groups, pending = [], []
    for entry in plan:
        if entry[5] is None:
            pending.append(entry)
            continue
        key = (entry[0], entry[2])
        if not groups or groups[-1][0] != key:
            groups.append((key, []))
        groups[-1][1].extend([*pending, entry])
        pending = []
    return [g for _, g in groups] + ([pending] if pending else [])


def spread_rounds(m, group, runs):
    """The extra idle rounds of a group of `run_plan` after its planned runs (rule 1 of
    bench/modes.py): if the idle runs of any runtime of any of its results spread more than
    modes.SPREAD×, every runtime of the group again, in rotated order, in the rounds after the
    last one until each has `runs` idle runs; otherwise none. Same entries as `run_plan`."""
    idle = [e for e in group if e[5] is not None and e[6] == 0]
    if not idle:
        return []
    name, _, n, _, expect, b, _, _ = idle[0]
    exes = {e[1]: e[3] for e in idle}
    rts = [e[1] for e in idle if e[7] == idle[0][7]]
    done = 1 + max(e[7] for e in idle)
    labels = [b.label(r) for r in b.results]
    spread = max((modes.spread(m.values.get((lab, n, rt), []),
                               higher_is_better(m.units.get(lab, "")))
                  for lab in labels for rt in rts), default=1.0)
    if spread <= modes.SPREAD:
        return []
    return [(name, rt, n, exes[rt], expect, b, 0, rnd)
            for rnd in range(done, runs) for rt in rotated(rts, rnd)]


def settle_round(m, ran, runs, pairs):
    """The next loaded round of a group of `run_plan`, given the entries `ran` of it so far
    (rule 2 of bench/settle.py): every runtime's loaded run, in the order `rotated` gives the
    round after the last one, if a verdict of one of its results is unsettled and the runtimes
    have fewer than `runs` loaded rounds; otherwise none. Same entries as `run_plan`."""
    loaded = [e for e in ran if e[5] is not None and e[6] != 0]
    if not loaded or len({e[7] for e in loaded}) >= runs:
        return []
    name, _, n, _, expect, b, load, first = loaded[0]
    if not any(settle.unsettled(m, b, r, n, pairs) for r in b.results):
        return []
    exes = {e[1]: e[3] for e in loaded}
    rts = [e[1] for e in loaded if e[7] == first]
    done = 1 + max(e[7] for e in loaded)
    return [(name, rt, n, exes[rt], expect, b, load, done) for rt in rotated(rts, done)]


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3,
                    help="runs per configuration on its own (default 3)")
    ap.add_argument("--load-repeat", type=int, default=5,
                    help="runs per configuration beside the --load processes (default 5)")
    ap.add_argument("--spread-runs", type=int, default=7,
                    help="idle runs per runtime of a row whose runs spread more than 2x "
                         "(bench/modes.py; default 7; at most --repeat: no extra runs)")
    ap.add_argument("--load-spread-runs", type=int, default=11,
                    help="loaded runs per runtime of a row whose loaded verdicts one round "
                         "decides (bench/settle.py; default 11; at most --load-repeat: no "
                         "extra runs)")
    ap.add_argument("--quick", action="store_true",
                    help="smoke run: time factor 0.1, 1 run each and no settling rounds, "
                         "unless given explicitly")
    ap.add_argument("--factor", type=float, help="time factor passed to every program")
    ap.add_argument("--only", action="append", default=[],
                    help="run only this benchmark (repeatable; comma-separated list allowed)")
    ap.add_argument("--images", default="2,4,8", help="image counts (default 2,4,8)")
    ap.add_argument("--timeout", type=float, default=60, help="seconds per run (default 60)")
    ap.add_argument("--load", type=int, default=0,
                    help="also run everything beside this many CPU-bound processes (default 0)")
    ap.add_argument("--fc", default="gfortran",
                    help="gfortran of the ferrocaf column; sid:gfortran-14 builds and runs it in "
                         "the sid chroot (default gfortran)")
    ap.add_argument("--no-same-compiler", action="store_true",
                    help="with a --fc other than the host's gfortran, do not add the ferrocaf "
                         "column built with the host's gfortran (OpenCoarrays' compiler); "
                         "OpenCoarrays is then compared with the --fc column")
    ap.add_argument("--docs", default=str(ROOT / "docs"), help="where to write the report")
    ap.add_argument("--from-runs", metavar="FILE",
                    help="build and run nothing: write the report from the runs an earlier run "
                         "saved (its docs/" + RUNS_FILE + "), read under the current rules")
    args = ap.parse_args()
    started = datetime.datetime.now()
    command = "python3 bench/compare.py" + "".join(f" {a}" for a in sys.argv[1:])
    if args.from_runs:
        reread(Path(args.from_runs), Path(args.docs), command)
        show(Path(args.docs))
        return

    factor = args.factor or (0.1 if args.quick else 1.0)
    repeat = args.repeat if ("--repeat" in sys.argv or not args.quick) else 1
    load_repeat = args.load_repeat if ("--load-repeat" in sys.argv or not args.quick) else 1
    # A single loaded round decides every verdict: a smoke run adds no rounds unless told to.
    load_spread_runs = (args.load_spread_runs if ("--load-spread-runs" in sys.argv
                                                  or not args.quick) else load_repeat)
    if repeat < 1 or load_repeat < 1 or args.spread_runs < 1:
        fail("--repeat, --load-repeat and --spread-runs must be at least 1")
    only = {n for o in args.only for n in o.split(",") if n}
    unknown = only - {b.name for b in BENCHMARKS}
    if unknown:
        fail(f"unknown benchmark(s) {sorted(unknown)}; known: {[b.name for b in BENCHMARKS]}")
    if sid.split_fc(args.fc)[0] and sid.missing():
        fail(f"--fc {args.fc}: {sid.missing()}")
    benches = [b for b in BENCHMARKS if not only or b.name in only]
    wanted_images = [int(n) for n in args.images.split(",")]

    loads = [" ".join(f"{x:.2f}" for x in os.getloadavg())]
    host = first_line(["gfortran", "--version"])
    same_compiler = (not args.no_same_compiler and bool(shutil.which("caf"))
                     and fc_version(args.fc) != host)
    lib = build_ferrocaf()
    exes, notes = build_benchmarks(benches, lib, args.fc, same_compiler)
    raw_exes = build_raw({b.raw_prog for b in benches if b.raw_prog})
    probe, probe_note = build_probe()
    if not probe:
        print(f"  hand-over probe: {probe_note}; idle runs are not probed")
    peers = [p for p in PEERS if any(rt == p for _, rt in exes)]
    pairs = pairing(peers, same_compiler)
    runtimes = (*ferro_columns(pairs), *peers)
    host_name = compiler_name("gfortran")
    compilers = {FERRO: compiler_name(args.fc), FERRO_HOST: host_name, OPENCAF: host_name,
                 SHMEM: "" if sid.missing() else compiler_name("sid:gfortran-16")}

    plan = run_plan(benches, exes, raw_exes, runtimes, wanted_images, repeat, args.load,
                    load_repeat)
    m = Measurements()
    i, extra, load_extra = 0, 0, 0

    def execute(entry, tag):
        name, rt, n, exe, expect, b, load, rnd = entry
        beside = f" beside {load} CPU-bound processes" if load else ""
        print(f"[{tag}] {name} {rt} {n} images{beside}...", flush=True)
        cmd, env = launch_cmd(rt, exe, n, factor, b, args.fc)
        probed = probe is not None and not load
        before = probe_host(probe) if probed else None
        with Burners(load):
            results, error = run_once(cmd, env, args.timeout)
        readings = [h for h in (before, probe_host(probe) if probed else None) if h is not None]
        if error:
            print(f"    {error}", flush=True)
        if b is not None:  # results under their report names
            results = {(b.label(r), k): v for (r, k), v in results.items()}
            expect = [(b.label(r), k) for r, k in expect]
        m.add(rt + (LOADED if load else ""), results, error, expect, rnd,
              host=max(readings) if readings else None)

    for group in plan_groups(plan):
        for entry in group:
            i += 1
            execute(entry, f"{i}/{len(plan)}")
        more = spread_rounds(m, group, args.spread_runs)
        for j, entry in enumerate(more, 1):
            execute(entry, f"{i}/{len(plan)} + spread {j}/{len(more)}")
        extra += len(more)
        ran = [*group, *more]
        while more := settle_round(m, ran, load_spread_runs, pairs):
            for j, entry in enumerate(more, 1):
                execute(entry, f"{i}/{len(plan)} + settle round {entry[7] + 1} {j}/{len(more)}")
            ran += more
            load_extra += len(more)
    loads.append(" ".join(f"{x:.2f}" for x in os.getloadavg()))

    # Build failures are shown too; ferrocaf-only benchmarks say why the peers are missing.
    for b in benches:
        for rt in runtimes:
            for key in (rt, rt + LOADED) if args.load else (rt,):
                if rt == FERRO_HOST and b.ferrocaf_only():
                    why = "n/a: no OpenCoarrays run"
                elif rt != FERRO and b.ferrocaf_only():
                    why = ("skipped: uses ferrocaf_ext" if b.ext
                           else "n/a: ferrocaf setting")
                elif (b.stem, rt) not in exes:
                    why = "FAIL build"
                else:
                    continue
                for n in b.images:
                    for r in b.results:
                        m.errors.setdefault((b.label(r), n, key), []).append(why)

    docs = Path(args.docs)
    docs.mkdir(parents=True, exist_ok=True)
    meta = {"command": command, "facts": machine_facts(args.fc, same_compiler),
            "notes": notes, "compilers": compilers,
            "started": started, "loads": loads, "factor": factor,
            "repeat": repeat, "load_repeat": load_repeat,
            "spread_runs": args.spread_runs, "extra_runs": extra,
            "load_spread_runs": load_spread_runs, "load_extra_runs": load_extra,
            "probe_note": probe_note}
    selection = {"benchmarks": [b.name for b in benches], "images": wanted_images,
                 "load": args.load, "pairs": pairs}
    save_runs(docs / RUNS_FILE, m, meta, selection)
    write_report(docs, m, meta, selection)
    show(docs)


def reread(path, docs, command):
    """`--from-runs`: the report of the runs saved at `path`, read under the current rules."""
    try:
        m, meta, selection = load_runs(path)
    except RunsFileError as e:
        fail(str(e))
    known = {b.name: b for b in BENCHMARKS}
    unknown = [n for n in selection["benchmarks"] if n not in known]
    if unknown:
        fail(f"{path}: benchmark(s) {unknown} no longer in compare.py's BENCHMARKS")
    docs.mkdir(parents=True, exist_ok=True)
    write_report(docs, m, dict(meta, reread=command), selection)


def write_report(docs, m, meta, selection):
    """Writes docs/PERFORMANCE.md (with bench/NOTES.md and bench/mpi/hosts.md appended) and
    docs/performance.svg from the measurements `m` of the benchmarks, images and load of
    `selection`, compared as its `pairs` say."""
    benches = [b for b in BENCHMARKS if b.name in selection["benchmarks"]]
    pairs, load = selection["pairs"], selection["load"]
    rows = []
    for b in benches:
        for r in b.results:
            for n in (n for n in b.images if n in selection["images"]):
                row = table_row(m, b, r, n, pairs, load)
                if load:
                    row["unsettled"] = settle.unsettled(m, b, r, n, pairs)
                rows.append(row)
    raw_keys = sorted({(k[0], k[1]) for k in list(m.values) + list(m.errors) if k[2] == RAW})
    raw_text = "\n".join(f"- {name} at {n}: {m.cell(name, n, RAW)[1]}" for name, n in raw_keys)
    meta = dict(meta, notes_file=BENCH_DIR / "NOTES.md",
                hosts_file=BENCH_DIR / "mpi" / "hosts.md", probe=m.probe_summary())
    write_markdown(docs / "PERFORMANCE.md", meta, rows, raw_text, pairs, load)
    write_svg(docs / "performance.svg", rows, pairs, meta["compilers"])


def show(docs):
    """Prints the report just written to `docs`."""
    print(f"wrote {docs / 'PERFORMANCE.md'} and {docs / 'performance.svg'}")
    print((docs / "PERFORMANCE.md").read_text())


if __name__ == "__main__":
    main()
