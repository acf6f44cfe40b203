#!/usr/bin/env bash
# Runs the gfortran suite over MPI (or libfabric: --fabric) inside the Debian sid chroot
# (scripts/sid.sh; root needed) with gfortran 15 and 16, whose coindexed references are GCC 15+ accessors: ferrocaf is built INSIDE
# the chroot with `--features mpi` (so it links sid's MPI library) and every program runs under
# the MPI launcher, with the node's shared window, then again with FERROCAF_MPI_SHM=0 (one-sided
# RMA only; programs whose accessors need the shared window say `! test: requires
# shared-window`). Open MPI by default (target/sid-mpi, `mpirun --oversubscribe -n N`). With
# `--mpich`, MPICH (target/sid-mpich, built with `MPICC=mpicc.mpich`, `mpiexec.mpich -n N`) and
# only the one-sided pass: sid's MPICH 5 (ch4:ucx, shared-memory modules off, as MPICH builds
# it by default) puts every process in a node communicator of its own, so it has no shared
# window to test (docs/ARCHITECTURE.md, "MPI transport", Tests).
#
#   scripts/test_sid_mpi.sh                    gfortran 15 and 16, both passes
#   scripts/test_sid_mpi.sh 16 -- accessor     only gfortran 16, tests whose name has `accessor`
#   scripts/test_sid_mpi.sh --mpich 15 16      under MPICH, the one-sided pass
#   FERROCAF_SID_MPI_PASSES=shm scripts/test_sid_mpi.sh    only the shared-window pass
#   scripts/test_sid_mpi.sh --fabric 15 16 -- accessor
#                                              over the libfabric transport instead (built
#                                              with `--features fabric` in target/sid-fabric,
#                                              Open MPI's mpirun serving PMIx, tcp provider on
#                                              loopback, at most 4 images): one pass, `fabric`
#   FERROCAF_FABRIC_PROVIDER=shm scripts/test_sid_mpi.sh --fabric 16 -- accessor
#                                              the same over libfabric's shm provider
#   scripts/test_sid_mpi.sh --bed [--mpich] 16 -- accessor
#                                              the images spread over the hosts of the test bed
#                                              (scripts/testbed.sh with TESTBED_ROOT = the chroot)
#
# With --bed, as in scripts/test_testbed.sh: TESTBED_HOSTS hosts (default 2; brought up if
# missing, taken down after unless TESTBED_KEEP=1), images round-robin over them (image k on
# host ((k-1) mod hosts) + 1, so every job of 2 or more images spans hosts),
# FERROCAF_TEST_MAX_IMAGES default 4, FERROCAF_HEAP_SIZE=16M in both passes. The test harness
# runs in the chroot through `testbed.sh chroot`, and its launcher `testbed.sh mpirun` (or
# `mpiexec`) starts the chroot's MPI in bed1, its daemons in the other hosts chrooted too.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_cargo
bed=0
if [ "${1:-}" = "--bed" ]; then
    bed=1
    shift
fi
mpi="Open MPI" target=target/sid-mpi build=() launcher="mpirun --oversubscribe -n {n}"
features=mpi passes="${FERROCAF_SID_MPI_PASSES:-shm rma}"
if [ "${1:-}" = "--fabric" ]; then
    [ "$bed" = 0 ] || { echo "error: --fabric runs on this host only, not with --bed" >&2; exit 2; }
    provider=${FERROCAF_FABRIC_PROVIDER:-tcp}
    mpi="libfabric ($provider)" target=target/sid-fabric features=fabric passes=fabric
    shift
fi
if [ "$bed" = 1 ]; then
    launcher="$PWD/scripts/testbed.sh mpirun --oversubscribe --map-by node -n {n}"
fi
if [ "${1:-}" = "--mpich" ]; then
    mpi=MPICH target=target/sid-mpich build=(MPICC=mpicc.mpich) launcher="mpiexec.mpich -n {n}"
    if [ "$bed" = 1 ]; then
        launcher="$PWD/scripts/testbed.sh mpiexec -n {n} -ppn 1"
    fi
    passes="${FERROCAF_SID_MPI_PASSES:-rma}"
    if [ "$passes" != rma ]; then
        echo "error: sid's MPICH has no shared window (one node communicator per process): only the rma pass applies" >&2
        exit 2
    fi
    shift
fi
versions=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    versions+=("$1")
    shift
done
[ $# -gt 0 ] && shift
[ ${#versions[@]} -gt 0 ] || versions=(15 16)
scripts/sid.sh ensure
enter=(scripts/sid.sh run)
heap=() where=
if [ "$bed" = 1 ]; then
    scripts/testbed.sh up "${TESTBED_HOSTS:-2}" >/dev/null
    if [ "${TESTBED_KEEP:-0}" != 1 ]; then
        trap 'scripts/testbed.sh down' EXIT
    fi
    enter=(env TESTBED_ROOT="$(scripts/sid.sh path)" scripts/testbed.sh chroot)
    export FERROCAF_TEST_MAX_IMAGES=${FERROCAF_TEST_MAX_IMAGES:-4} FERROCAF_TEST_HOSTS=${TESTBED_HOSTS:-2}
    # The window between hosts needs no large heap, and the bed's hosts share one /dev/shm.
    heap=(FERROCAF_HEAP_SIZE=16M) where=" across ${TESTBED_HOSTS:-2} bed hosts"
fi

inside() {
    "${enter[@]}" env PATH="$1:$(dirname "$(command -v cargo)"):/usr/local/bin:/usr/bin:/bin" \
        HOME="$HOME" CARGO_TARGET_DIR="$target" "${build[@]}" \
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "${@:2}"
}

exe="$(inside /usr/bin cargo test --release --features "$features" --test gfortran --no-run \
    --message-format=json 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["name"] == "gfortran":
        print(m["executable"])
')"
[ -n "$exe" ] || { echo "error: building the tests in the chroot failed" >&2; exit 1; }

failed=()
for v in "${versions[@]}"; do
    bin="$(mktemp -d /tmp/ferrocaf-gfortran-$v.XXXXXX)"
    ln -s "/usr/bin/gfortran-$v" "$bin/gfortran"
    for pass in $passes; do
        echo "=== gfortran $v over $mpi$where: $pass"
        # The heap sizes are test_mpi.sh's (free space in /dev/shm; osc/rdma's window start-up).
        case "$pass" in
            shm) env=(FERROCAF_HEAP_SIZE=256M) ;;
            rma) env=(FERROCAF_MPI_SHM=0 FERROCAF_HEAP_SIZE=16M) ;;
            # As scripts/test_fabric.sh: loopback only, a small heap, at most 4 images.
            fabric) env=(FERROCAF_TRANSPORT=fabric FI_PROVIDER="$provider" FI_TCP_IFACE=lo
                FERROCAF_HEAP_SIZE=64M
                FERROCAF_TEST_MAX_IMAGES="${FERROCAF_TEST_MAX_IMAGES:-4}") ;;
            *) echo "error: unknown pass $pass (shm or rma)" >&2; exit 2 ;;
        esac
        if ! inside "$bin" env "${env[@]}" "${heap[@]}" FERROCAF_TEST_LAUNCHER="$launcher" \
            "$exe" "$@"; then
            failed+=("gfortran $v, $pass")
        fi
    done
    rm -rf "$bin"
done
if [ ${#failed[@]} -gt 0 ]; then
    printf 'FAILED: %s\n' "${failed[@]}" >&2
    exit 1
fi
echo "all passed over $mpi$where with gfortran ${versions[*]} ($passes)"
