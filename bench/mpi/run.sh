#!/bin/bash
# Latency of ferrocaf over MPI next to OpenCoarrays (caf/cafrun, libcoarrays-openmpi-dev) under
# the same mpirun, in one run: bench/mpi/run.sh [path to libferrocaf.so's directory]
# Needs a `cargo build --release --features mpi`. Open MPI as root: export
# OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
lib=${1:-$here/../../target/release}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gfortran -O2 -fcoarray=lib "$here/latency.f90" -o "$out/ferrocaf" \
  -L"$lib" -lferrocaf -Wl,-rpath,"$lib"
caf -O2 "$here/latency.f90" -o "$out/opencoarrays"
run() { echo "== $1"; shift; "$@"; }
run "ferrocaf over MPI, shared-memory window" mpirun -n 2 "$out/ferrocaf"
run "ferrocaf over MPI, FERROCAF_MPI_SHM=0 (RMA only, default osc/rdma)" \
  mpirun -n 2 -x FERROCAF_MPI_SHM=0 "$out/ferrocaf"
run "OpenCoarrays (same mpirun)" mpirun -n 2 "$out/opencoarrays"
run "ferrocaf shm transport (its own launcher)" env FERROCAF_NUM_IMAGES=2 "$out/ferrocaf"
