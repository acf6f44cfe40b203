#!/usr/bin/env bash
# Runs the gfortran suite over the libfabric transport (docs/ARCHITECTURE.md, "fabric
# transport"): every program under Open MPI's `mpirun --oversubscribe -n N` (N from its header;
# mpirun serves PMIx, which the transport bootstraps with) with FERROCAF_TRANSPORT=fabric, over
# the tcp provider on loopback, then over the shm provider. Installs libfabric, PMIx and Open
# MPI's launcher when missing. Arguments are test-name filters; FERROCAF_FABRIC_PROVIDERS (default
# "tcp shm") chooses the passes.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_fabric
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Tests address only loopback.
export FI_TCP_IFACE=lo FI_SOCKETS_IFACE=lo
# Segments are plain anonymous memory, touched only where used; a small heap keeps every
# registration and program start quick.
export FERROCAF_HEAP_SIZE=64M FERROCAF_TRANSPORT=fabric
# At most 4 images per program (FERROCAF_TEST_MAX_IMAGES; the 8- and 16-image runs are left
# out): every image polls its endpoint, and 16 processes on this machine's 2 shared cores run
# past the tests' timeouts (atomics.f90 on 16 images took 38 s in a debug build at load 60).
export FERROCAF_TEST_MAX_IMAGES=${FERROCAF_TEST_MAX_IMAGES:-4}
cargo test --release --features fabric --lib
for provider in ${FERROCAF_FABRIC_PROVIDERS:-tcp shm}; do
    echo "== fabric transport, FI_PROVIDER=$provider"
    FI_PROVIDER=$provider FERROCAF_TEST_LAUNCHER="mpirun --oversubscribe -n {n}" \
        cargo test --release --features fabric --test gfortran -- "$@"
done
