#!/bin/bash
# Latency and bandwidth between two test-bed hosts (scripts/testbed.sh): bench/mpi/latency.f90
# and bench/mpi/bandwidth.f90 (put/get of 1 KiB to 1 MiB, MIB MiB per size, default 8) on 2
# images, one per host, under the bed's Open MPI mpirun (TCP over the bed's bridge), ferrocaf next to
# OpenCoarrays (caf, libcoarrays-openmpi-dev), alternating, ROUNDS rounds (default 3) of ITERS
# iterations per loop (default 2000): bench/mpi/hosts.sh [path to libferrocaf.so's directory]
# Needs a `cargo build --release --features mpi`. Brings the bed up (2 hosts) if it is not.
# OpenCoarrays is given the components ferrocaf chooses by itself across nodes (osc sm,pt2pt):
# with Open MPI's default osc/rdma it cannot create its windows over TCP.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lib=${1:-$here/../../target/release}
bed=$here/../../scripts/testbed.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$bed" up "${TESTBED_HOSTS:-2}" >/dev/null
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for p in latency bandwidth; do
  gfortran -O2 -fcoarray=lib "$here/$p.f90" -o "$out/ferrocaf-$p" \
    -L"$lib" -lferrocaf -Wl,-rpath,"$lib"
  caf -O2 "$here/$p.f90" -o "$out/opencoarrays-$p"
done
iters=${ITERS:-2000}
for round in $(seq 1 "${ROUNDS:-3}"); do
  for p in latency bandwidth; do
    arg=$iters
    [ "$p" = bandwidth ] && arg=${MIB:-8}
    echo "== round $round: $p, ferrocaf (FERROCAF_HEAP_SIZE=16M)"
    "$bed" mpirun -n 2 --map-by node -x FERROCAF_HEAP_SIZE=16M "$out/ferrocaf-$p" "$arg"
    echo "== round $round: $p, OpenCoarrays (osc sm,pt2pt)"
    "$bed" mpirun -n 2 --map-by node --mca osc sm,pt2pt "$out/opencoarrays-$p" "$arg"
  done
done
