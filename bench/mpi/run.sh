#!/bin/bash
# Latency of ferrocaf over MPI next to OpenCoarrays (caf/cafrun, libcoarrays-openmpi-dev) under
# the same mpirun, in one run: bench/mpi/run.sh [path to libferrocaf.so's directory]
# Needs a `cargo build --release --features mpi`. Open MPI as root: export
# OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1.
# MPI=mpich bench/mpi/run.sh: the same under MPICH's mpiexec.mpich, with a build made by
# `MPICC=mpicc.mpich CARGO_TARGET_DIR=target/mpich cargo build --release --features mpi` (the
# default directory then); no OpenCoarrays line (Debian's OpenCoarrays is built on Open MPI).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mpi=${MPI:-openmpi}
case $mpi in
  openmpi) lib=${1:-$here/../../target/release} ;;
  mpich) lib=${1:-$here/../../target/mpich/release} ;;
  *) echo "MPI must be openmpi or mpich, not $mpi" >&2; exit 2 ;;
esac
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gfortran -O2 -fcoarray=lib "$here/latency.f90" -o "$out/ferrocaf" \
  -L"$lib" -lferrocaf -Wl,-rpath,"$lib"
run() { echo "== $1"; shift; "$@"; }
if [ "$mpi" = mpich ]; then
  run "ferrocaf over MPICH, shared-memory window" mpiexec.mpich -n 2 "$out/ferrocaf"
  run "ferrocaf over MPICH, FERROCAF_MPI_SHM=0" \
    env FERROCAF_MPI_SHM=0 mpiexec.mpich -n 2 "$out/ferrocaf"
else
  caf -O2 "$here/latency.f90" -o "$out/opencoarrays"
  run "ferrocaf over MPI, shared-memory window" mpirun -n 2 "$out/ferrocaf"
  run "ferrocaf over MPI, FERROCAF_MPI_SHM=0 (RMA only, default osc/rdma)" \
    mpirun -n 2 -x FERROCAF_MPI_SHM=0 "$out/ferrocaf"
  run "OpenCoarrays (same mpirun)" mpirun -n 2 "$out/opencoarrays"
fi
run "ferrocaf shm transport (its own launcher)" env FERROCAF_NUM_IMAGES=2 "$out/ferrocaf"
