#!/usr/bin/env bash
# Runs the gfortran suite over the MPI transport with the images spread over the hosts of the
# test bed (scripts/testbed.sh: network + UTS namespaces on a private bridge), so that on-node
# peers share the MPI shared-memory window and off-node peers go through one-sided MPI over TCP
# in the same job. Open MPI by default; `--mpich` for MPICH's Hydra; `--fabric` for the
# libfabric transport (FERROCAF_TRANSPORT=fabric, FI_PROVIDER=tcp on the bed's interface bed0,
# bootstrapped by the PMIx of the bed's Open MPI mpirun). Other arguments are test-name filters.
#
#   TESTBED_HOSTS      hosts of the bed (default 2); images are placed round-robin
#                      (--map-by node / Hydra's -ppn 1 ordering), so image k runs on host
#                      ((k-1) mod hosts) + 1 and every job of 2 or more images spans hosts
#   FERROCAF_TEST_MAX_IMAGES  largest image count run (default 4): every operation between
#                      hosts is a TCP round trip served at the target's next entry into MPI
#
# A run mpirun did not start (it failed with nothing on stdout and Open MPI's message that a daemon
# did not start or never connected back on stderr) is launched again by the harness, at most
# twice, and counted on its last line: `N passed, N failed, K launches retried`
# (tests/gfortran/relaunch.rs).
#
# Brings the bed up and takes it down again (unless TESTBED_KEEP=1). Installs Open MPI (or
# MPICH) and libclang when missing, like scripts/test_mpi.sh and scripts/test_mpich.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
mpich=0
fabric=0
case ${1:-} in
--mpich) mpich=1 && shift ;;
--fabric) fabric=1 && shift ;;
esac
features=mpi
if [ "$fabric" = 1 ]; then
    source scripts/setup.sh
    ensure_fabric
    # The fabric transport over TCP between the hosts, on the bed's addresses only. The mpi
    # feature too: the fault test (tests/testbed_faults.rs) is built with it.
    features=fabric,mpi
    export FERROCAF_TRANSPORT=fabric FI_PROVIDER=${FI_PROVIDER:-tcp} FI_TCP_IFACE=bed0 \
        FI_SOCKETS_IFACE=bed0
fi
if [ "$mpich" = 1 ]; then
    need="mpich libmpich-dev libclang-dev"
    have=mpiexec.mpich
else
    need="libopenmpi-dev openmpi-bin libclang-dev"
    have=mpirun
fi
# shellcheck disable=SC2086
if ! command -v "$have" >/dev/null 2>&1 || ! dpkg -s $need >/dev/null 2>&1; then
    apt-get update
    # shellcheck disable=SC2086
    apt-get install -y $need
fi
if ! command -v ip >/dev/null 2>&1 || ! command -v nsenter >/dev/null 2>&1; then
    apt-get update
    apt-get install -y iproute2 util-linux
fi
hosts=${TESTBED_HOSTS:-2}
bed=$PWD/scripts/testbed.sh
"$bed" up "$hosts" >/dev/null
if [ "${TESTBED_KEEP:-0}" != 1 ]; then
    trap '"$bed" down' EXIT
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export FERROCAF_TEST_MAX_IMAGES=${FERROCAF_TEST_MAX_IMAGES:-4} FERROCAF_TEST_HOSTS=$hosts
# The RMA window over TCP needs no large heap, and every rank's shared window lives in the one
# /dev/shm of this machine.
export FERROCAF_HEAP_SIZE=16M
if [ "$mpich" = 1 ]; then
    export MPICC=mpicc.mpich CARGO_TARGET_DIR=target/mpich
    launcher="$bed mpiexec -n {n} -ppn 1"
else
    launcher="$bed mpirun --oversubscribe --map-by node -n {n}"
fi
FERROCAF_TEST_LAUNCHER="$launcher" cargo test --release --features "$features" --test gfortran \
    -- "$@"
# A host lost mid-run ends the job (tests/testbed_faults.rs; Open MPI's mpirun only).
if [ "$mpich" = 0 ]; then
    TESTBED=$bed cargo test --release --features "$features" --test testbed_faults
fi
