#!/usr/bin/env bash
# Runs the gfortran suite over the MPI transport with MPICH (Debian's mpich 4.0: ch4:ucx, the
# Hydra launcher): every program under `mpiexec.mpich -n N` (N from its header; Hydra runs more
# ranks than cores without being asked) with the on-node shared-memory window; with
# `--rma-too`, again with FERROCAF_MPI_SHM=0 (RMA only). Other arguments are test-name filters.
#
# ferrocaf is built against MPICH in its own target directory, target/mpich: mpi-sys finds the
# MPI library through $MPICC (build-probe-mpi runs `$MPICC -show`), and the suite links the
# libferrocaf.so of the target directory it was built in.
#
# Installs MPICH and libclang when missing. Debian registers MPICH as an alternative for
# mpicc, mpirun and mpi.h; Open MPI, when installed, stays the one they point to, and this
# script calls MPICH only by its own names (mpicc.mpich, mpiexec.mpich).
set -euo pipefail
cd "$(dirname "$0")/.."
rma=0
if [ "${1:-}" = "--rma-too" ]; then
    rma=1
    shift
fi
if ! command -v mpiexec.mpich >/dev/null 2>&1 || ! dpkg -s libmpich-dev libclang-dev >/dev/null 2>&1; then
    apt-get update
    apt-get install -y mpich libmpich-dev libclang-dev
fi
# Every alternative group MPICH joins goes back to Open MPI's member if it has one.
for group in mpi mpirun "mpi-$(gcc -print-multiarch)"; do
    openmpi=$(update-alternatives --list "$group" 2>/dev/null | grep -m1 openmpi) || continue
    if ! update-alternatives --query "$group" | grep -qx "Value: $openmpi"; then
        update-alternatives --set "$group" "$openmpi"
    fi
done
export MPICC=mpicc.mpich CARGO_TARGET_DIR=target/mpich
# Small windows, as for Open MPI (scripts/test_mpi.sh): 16 ranks x 2 x 1 GiB would not fit in
# /dev/shm. Tests that set their own heap still win.
export FERROCAF_HEAP_SIZE=256M
cargo test --release --features mpi --lib
# A launcher whose MPI library is not ferrocaf's (here: none at all) is refused.
cargo test --release --features mpi --test bad_config
FERROCAF_TEST_LAUNCHER="mpiexec.mpich -n {n}" \
    cargo test --release --features mpi --test gfortran -- "$@"
if [ "$rma" = 1 ]; then
    FERROCAF_MPI_SHM=0 FERROCAF_TEST_LAUNCHER="mpiexec.mpich -n {n}" \
        cargo test --release --features mpi --test gfortran -- "$@"
fi
