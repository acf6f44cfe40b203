#!/usr/bin/env bash
# Runs the gfortran suite over MPI inside the Debian sid chroot (scripts/sid.sh; root needed) with
# gfortran 15 and 16, whose coindexed references are GCC 15+ accessors: ferrocaf is built INSIDE
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
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_cargo
mpi="Open MPI" target=target/sid-mpi build=() launcher="mpirun --oversubscribe -n {n}"
passes="${FERROCAF_SID_MPI_PASSES:-shm rma}"
if [ "${1:-}" = "--mpich" ]; then
    mpi=MPICH target=target/sid-mpich build=(MPICC=mpicc.mpich) launcher="mpiexec.mpich -n {n}"
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

inside() {
    scripts/sid.sh run env PATH="$1:$(dirname "$(command -v cargo)"):/usr/local/bin:/usr/bin:/bin" \
        HOME="$HOME" CARGO_TARGET_DIR="$target" "${build[@]}" \
        OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "${@:2}"
}

exe="$(inside /usr/bin cargo test --release --features mpi --test gfortran --no-run \
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
        echo "=== gfortran $v over $mpi: $pass"
        # The heap sizes are test_mpi.sh's (free space in /dev/shm; osc/rdma's window start-up).
        case "$pass" in
            shm) env=(FERROCAF_HEAP_SIZE=256M) ;;
            rma) env=(FERROCAF_MPI_SHM=0 FERROCAF_HEAP_SIZE=16M) ;;
            *) echo "error: unknown pass $pass (shm or rma)" >&2; exit 2 ;;
        esac
        if ! inside "$bin" env "${env[@]}" FERROCAF_TEST_LAUNCHER="$launcher" \
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
echo "all passed over $mpi with gfortran ${versions[*]} ($passes)"
