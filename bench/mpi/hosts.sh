#!/bin/bash
# Latency and bandwidth between two test-bed hosts (scripts/testbed.sh): bench/mpi/latency.f90
# and bench/mpi/bandwidth.f90 (put/get of 1 KiB to 1 MiB, MIB MiB per size, default 8) on 2
# images, one per host, and bench/mpi/sync_all.f90 on each image count of SYNC_IMAGES (default
# "2 4"; images go round-robin over the hosts, 2 slots each), under the bed's Open MPI mpirun
# (TCP over the bed's bridge), ferrocaf next to OpenCoarrays (caf, libcoarrays-openmpi-dev),
# alternating, ROUNDS rounds (default 3) of ITERS iterations per loop (default 2000):
#   bench/mpi/hosts.sh [path to libferrocaf.so's directory]...
# Several directories (builds to compare) each take a turn in every round. PROGS (default
# "latency bandwidth sync_all") chooses the programs.
# Needs a `cargo build --release --features mpi`. Brings the bed up (2 hosts) if it is not.
# OpenCoarrays is given the components ferrocaf chooses by itself across nodes (osc sm,pt2pt):
# with Open MPI's default osc/rdma it cannot create its windows over TCP.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
libs=("$@")
[ ${#libs[@]} -gt 0 ] || libs=("$here/../../target/release")
progs=${PROGS:-latency bandwidth sync_all}
bed=$here/../../scripts/testbed.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$bed" up "${TESTBED_HOSTS:-2}" >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for p in $progs; do
  for i in "${!libs[@]}"; do
    gfortran -O2 -fcoarray=lib "$here/$p.f90" -o "$out/ferrocaf$i-$p" \
      -L"${libs[$i]}" -lferrocaf -Wl,-rpath,"${libs[$i]}"
  done
  caf -O2 "$here/$p.f90" -o "$out/opencoarrays-$p"
done
iters=${ITERS:-2000}
for round in $(seq 1 "${ROUNDS:-3}"); do
  for p in $progs; do
    arg=$iters
    [ "$p" = bandwidth ] && arg=${MIB:-8}
    counts=2
    [ "$p" = sync_all ] && counts=${SYNC_IMAGES:-2 4}
    for n in $counts; do
      for i in "${!libs[@]}"; do
        echo "== round $round: $p, $n images, ferrocaf from ${libs[$i]} (FERROCAF_HEAP_SIZE=16M)"
        "$bed" mpirun -n "$n" --map-by node -x FERROCAF_HEAP_SIZE=16M "$out/ferrocaf$i-$p" "$arg"
      done
      echo "== round $round: $p, $n images, OpenCoarrays (osc sm,pt2pt)"
      "$bed" mpirun -n "$n" --map-by node --mca osc sm,pt2pt "$out/opencoarrays-$p" "$arg"
    done
  done
done
