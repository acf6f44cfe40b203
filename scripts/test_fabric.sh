#!/usr/bin/env bash
# Runs the gfortran suite over the libfabric transport (docs/ARCHITECTURE.md, "fabric
# transport"): every program under Open MPI's `mpirun --oversubscribe -n N` (N from its header;
# mpirun serves PMIx, which the transport bootstraps with) with FERROCAF_TRANSPORT=fabric, over
# the tcp provider on loopback, then over the shm provider. Installs libfabric, PMIx and Open
# MPI's launcher when missing. Arguments are test-name filters; FERROCAF_FABRIC_PROVIDERS (default
# "tcp shm") chooses the passes. Without filters each pass also runs the synchronisation-heavy
# programs under FERROCAF_WAIT=passive and active.
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
# The leak check also counts the shm provider's regions left in /dev/shm by ended processes
# (tests/gfortran/check.rs).
export FERROCAF_TEST_REGIONS=${FERROCAF_TEST_REGIONS:-1}
cargo test --release --features fabric --lib
# Whether puts into attached memory travel as counted puts exactly where the provider has
# FI_RMA_EVENT (notify_counting checks the counts; this checks the path, in its statistics).
counted_puts() {
    local provider=$1 dir want
    dir=$(mktemp -d)
    cargo build --release --features fabric --quiet
    target/release/ferrocaf build gfortran_tests/notify_counting.f90 -o "$dir/nc"
    want=0
    if fi_info -p "$provider" -t FI_EP_RDM -c FI_RMA_EVENT >/dev/null 2>&1; then
        want=1
    fi
    if ! (cd "$dir" && FI_PROVIDER=$provider FERROCAF_STATS=1 \
        timeout 60 mpirun --oversubscribe -n 2 ./nc >out 2>&1); then
        cat "$dir/out" >&2
        echo "counted puts over $provider: notify_counting failed" >&2
        return 1
    fi
    if ! grep -q "counted [1-9]" "$dir/out" && [ "$want" = 1 ]; then
        echo "counted puts over $provider: it has FI_RMA_EVENT but no put was counted" >&2
        return 1
    fi
    if grep -q "counted [1-9]" "$dir/out" && [ "$want" = 0 ]; then
        echo "counted puts over $provider: counted without FI_RMA_EVENT" >&2
        return 1
    fi
    echo "counted puts over $provider: $([ "$want" = 1 ] && echo used || echo not offered, immediate)"
    rm -rf "$dir"
}
for provider in ${FERROCAF_FABRIC_PROVIDERS:-tcp shm}; do
    echo "== fabric transport, FI_PROVIDER=$provider"
    counted_puts "$provider"
    FI_PROVIDER=$provider FERROCAF_TEST_LAUNCHER="mpirun --oversubscribe -n {n}" \
        cargo test --release --features fabric --test gfortran -- "$@"
    # The wait policies over libfabric, which cannot wake an image, as scripts/test_mpi.sh runs
    # them over MPI: the synchronisation-heavy programs once per policy, Open MPI's idle yields
    # off (the launcher only starts the processes here, but its ranks would yield too).
    if [ $# -eq 0 ]; then
        for policy in passive active; do
            FI_PROVIDER=$provider FERROCAF_WAIT=$policy OMPI_MCA_mpi_yield_when_idle=0 \
                FERROCAF_TEST_LAUNCHER="mpirun --oversubscribe -n {n}" \
                cargo test --release --features fabric --test gfortran -- events \
                sync_images_patterns locks sync_all_loop co_sum co_broadcast \
                allocate_stopped_image error_stop_one_image
        done
    fi
done
