#!/usr/bin/env bash
# Runs the gfortran suite over the MPI transport with Open MPI: every program under
# `mpirun --oversubscribe -n N` (N from its header) with the on-node shared-memory window, then
# again with FERROCAF_MPI_SHM=0 (one-sided RMA only, through Open MPI's default component,
# osc/rdma). Installs Open MPI and libclang (for the mpi-sys bindings) when missing. Arguments
# are test-name filters.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v mpirun >/dev/null 2>&1 || ! dpkg -s libclang-dev >/dev/null 2>&1; then
    apt-get update
    apt-get install -y libopenmpi-dev openmpi-bin libclang-dev
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Open MPI backs a shared window with a file in /dev/shm and refuses when the whole window
# (2 x heap per rank) exceeds the free space there: 16 ranks x 2 x 1 GiB does not fit on this
# machine's 25 GB. The tests need little memory; tests that set their own heap still win.
export FERROCAF_HEAP_SIZE=256M
cargo test --release --features mpi --lib
FERROCAF_TEST_LAUNCHER="mpirun --oversubscribe -n {n}" \
    cargo test --release --features mpi --test gfortran -- "$@"
# The wait policies over MPI, which cannot wake an image (passive naps from the first poll, active
# spins): a few synchronisation-heavy programs (events, SYNC IMAGES, LOCK, SYNC ALL, collectives,
# a stopped image, ERROR STOP) once per policy with the shared window, unless filters were given
# (wait_policy_cpu and stopped_image_sync vary the policy themselves in every pass). Open MPI
# yields in its progress engine when it knows the node oversubscribed; these runs forbid it
# (mpi_yield_when_idle=0, as where the launcher is told of more slots than cores), so that the
# yields of ferrocaf's own waits are what lets 16 images share 2 cores.
if [ $# -eq 0 ]; then
    for policy in passive active; do
        FERROCAF_WAIT=$policy OMPI_MCA_mpi_yield_when_idle=0 \
            FERROCAF_TEST_LAUNCHER="mpirun --oversubscribe -n {n}" \
            cargo test --release --features mpi --test gfortran -- events sync_images_patterns \
            locks sync_all_loop co_sum co_broadcast allocate_stopped_image error_stop_one_image
    done
fi
# osc/rdma writes every page of a window when it creates it (perf: page faults and page
# clearing under MPI_Win_allocate; seconds per GiB on a busy 2-core machine, and a 16-image
# program with the 256M heap has 8 GiB of windows): a 16M heap, which every program here fits
# in, keeps program start fast.
FERROCAF_MPI_SHM=0 FERROCAF_HEAP_SIZE=16M \
    FERROCAF_TEST_LAUNCHER="mpirun --oversubscribe -n {n}" \
    cargo test --release --features mpi --test gfortran -- "$@"
