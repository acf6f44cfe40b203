#!/usr/bin/env bash
# Runs the gfortran suite over the MPI transport with Open MPI: every program under
# `mpirun --oversubscribe -n N` (N from its header), with the on-node shared-memory window, then
# with FERROCAF_MPI_SHM=0 (RMA only, Open MPI's osc/ucx component). Installs Open MPI and
# libclang (for the mpi-sys bindings) when missing. Extra arguments go to the test harness
# (name filters).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v mpirun >/dev/null 2>&1 || ! dpkg -s libclang-dev >/dev/null 2>&1; then
    apt-get update
    apt-get install -y libopenmpi-dev openmpi-bin libclang-dev
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cargo build --release --features mpi --tests
FERROCAF_TEST_LAUNCHER="mpirun --oversubscribe -n {n}" \
    cargo test --release --features mpi --test gfortran -- "$@"
FERROCAF_MPI_SHM=0 FERROCAF_TEST_LAUNCHER="mpirun --oversubscribe --mca osc ucx -n {n}" \
    cargo test --release --features mpi --test gfortran -- "$@"
