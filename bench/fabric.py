#!/usr/bin/env python3
"""fabric.py: notified puts over the network, immediate versus emulated (and counting), in one run.

Measures, on 2 images over TCP on loopback (or the shm provider), started by Open MPI's mpirun:
  - notified-put latency, 8 B to 64 KiB: bench/micro/attach_pingpong.f90 (a put into memory
    attached to an event, ferrocaf's event_attach; half a round trip); OpenCoarrays has no
    event_attach and runs bench/micro/event_pingpong.f90 instead (a put, then EVENT POST);
  - PRK Synch_p2p: examples_caf/p2p_attach.f90 (OpenCoarrays: p2p_events.f90), µs per sweep;
for four configurations:
  fabric immediate FERROCAF_TRANSPORT=fabric FI_PROVIDER=tcp: one fi_writedata per notified put
                   (tcp;ofi_rxm has no FI_RMA_EVENT, so no counted puts)
  fabric emulated  the same with FERROCAF_FABRIC_NOTIFY=emulated: write, wait, notification send
  ferrocaf MPI     FERROCAF_TRANSPORT=mpi FERROCAF_MPI_SHM=0 over Open MPI's tcp BTL
  OpenCoarrays     libcaf_openmpi over Open MPI's tcp BTL
or, with --provider shm (a provider with FI_RMA_EVENT), three over libfabric's shm provider:
  fabric counting  the default: one fi_write to the target's counting endpoint per attached put
  fabric immediate FERROCAF_FABRIC_NOTIFY=immediate: one fi_writedata
  fabric emulated  FERROCAF_FABRIC_NOTIFY=emulated
Runs alternate the configurations, R times (--repeat), each under a timeout; prints a markdown
table of medians [min-max] in µs. ferrocaf is built with `--features mpi,fabric` into
target/fabric-bench. Python 3 standard library only.

    python3 bench/fabric.py [--repeat 3] [--factor 0.2] [--sweeps 10] [--provider tcp|shm]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
ROOT = BENCH.parent
OUT = BENCH / "build" / "fabric"
TARGET = ROOT / "target" / "fabric-bench"
LIB = TARGET / "release"
SIZES = ["8B", "64B", "512B", "4KiB", "32KiB"]
# attach_pingpong's sizes stop at 32 KiB below 64 KiB; 64 KiB itself is not one of its sizes.
MAXBYTES = "65536"
TCP = ["--mca", "btl", "tcp,self", "--mca", "btl_tcp_if_include", "lo"]
FABRIC = {"FERROCAF_TRANSPORT": "fabric", "FI_PROVIDER": "tcp", "FI_TCP_IFACE": "lo",
          "FERROCAF_EVENTS": "notified"}
SHM = {**FABRIC, "FI_PROVIDER": "shm"}
CONFIGS = {
    "tcp": [
        ("fabric immediate", "ferrocaf", FABRIC, []),
        ("fabric emulated", "ferrocaf", {**FABRIC, "FERROCAF_FABRIC_NOTIFY": "emulated"}, []),
        ("ferrocaf MPI", "ferrocaf", {"FERROCAF_TRANSPORT": "mpi", "FERROCAF_MPI_SHM": "0",
                                      "FERROCAF_EVENTS": "notified"}, TCP),
        # OpenCoarrays' windows need a one-sided component that works over the tcp BTL.
        ("OpenCoarrays", "opencoarrays", {}, [*TCP, "--mca", "osc", "pt2pt"]),
    ],
    "shm": [
        ("fabric counting", "ferrocaf", SHM, []),
        ("fabric immediate", "ferrocaf", {**SHM, "FERROCAF_FABRIC_NOTIFY": "immediate"}, []),
        ("fabric emulated", "ferrocaf", {**SHM, "FERROCAF_FABRIC_NOTIFY": "emulated"}, []),
    ],
}


def sh(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    if p.returncode != 0:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{p.stdout}")
    return p.stdout


def build():
    env = dict(os.environ, CARGO_TARGET_DIR=str(TARGET))
    print("building ferrocaf (--features mpi,fabric)...", flush=True)
    sh(["cargo", "build", "--release", "--features", "mpi,fabric"], cwd=ROOT, env=env)
    OUT.mkdir(parents=True, exist_ok=True)
    util = BENCH / "micro" / "bench_util.f90"
    ext = ROOT / "caf_abi" / "ferrocaf_ext.f90"
    fer = ["gfortran", "-O2", "-fcoarray=lib", "-J", str(OUT)]
    link = [f"-L{LIB}", "-lferrocaf", f"-Wl,-rpath,{LIB}"]
    sh([*fer, "-c", str(ext), "-o", str(OUT / "ferrocaf_ext.o")])
    exes = {}
    for name, src in [("attach_pingpong", [util, BENCH / "micro" / "attach_pingpong.f90"]),
                      ("p2p_attach", [ROOT / "examples_caf" / "p2p_attach.f90"])]:
        exes[("ferrocaf", name)] = OUT / name
        sh([*fer, *map(str, src), *link, "-o", str(OUT / name)])
    for name, src in [("event_pingpong", [util, BENCH / "micro" / "event_pingpong.f90"]),
                      ("p2p_events", [ROOT / "examples_caf" / "p2p_events.f90"])]:
        exe = OUT / f"oc_{name}"
        exes[("opencoarrays", name)] = exe
        sh(["gfortran", "-O2", "-fcoarray=lib", "-J", str(OUT / "oc"), *map(str, src),
            "-lcaf_openmpi", "-o", str(exe)])
    return exes


def run(cmd, env, timeout=300):
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {}, "TIMEOUT"
    found = {m[0]: float(m[1]) for m in
             re.findall(r"^RESULT (\S+) \d+ +(\S+) us", p.stdout, re.M)}
    return found, None if p.returncode == 0 else f"FAIL ({p.stdout.strip()[-200:]})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--factor", default="0.2")
    ap.add_argument("--sweeps", default="10")
    ap.add_argument("--provider", choices=sorted(CONFIGS), default="tcp")
    a = ap.parse_args()
    configs = CONFIGS[a.provider]
    os.makedirs(OUT / "oc", exist_ok=True)
    exes = build()
    results = {}
    errors = {}
    for r in range(a.repeat):
        for label, kind, extra, mca in configs:
            env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                       FERROCAF_HEAP_SIZE="64M", **extra)
            ping, p2p = (("attach_pingpong", "p2p_attach") if kind == "ferrocaf"
                         else ("event_pingpong", "p2p_events"))
            base = ["mpirun", "--oversubscribe", "-n", "2", *mca]
            for prog, args in [(ping, [a.factor, MAXBYTES]), (p2p, [a.sweeps])]:
                found, err = run([*base, str(exes[(kind, prog)]), *args], env)
                print(f"run {r + 1} {label} {prog}: {err or found}", flush=True)
                if err:
                    errors[(label, prog)] = err
                for name, v in found.items():
                    key = re.sub(r"^(attach|event)_pingpong_", "", name)
                    key = "Synch_p2p sweep" if key.startswith("p2p") else key
                    results.setdefault((label, key), []).append(v)
    rows = SIZES + ["Synch_p2p sweep"]
    head = ["", *[c[0] for c in configs]]
    print("\n| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for row in rows:
        cells = []
        for label, *_ in configs:
            v = results.get((label, row))
            cells.append(f"{statistics.median(v):.1f} [{min(v):.1f}–{max(v):.1f}]" if v
                         else "—")
        print(f"| {row} | " + " | ".join(cells) + " |")
    for (label, prog), err in errors.items():
        print(f"\n{label} {prog}: {err}")


if __name__ == "__main__":
    main()
