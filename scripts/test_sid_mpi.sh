#!/usr/bin/env bash
# Runs the gfortran suite over Open MPI inside the Debian sid chroot (scripts/sid.sh; root
# needed) with gfortran 15 and 16, whose coindexed references are GCC 15+ accessors: ferrocaf is
# built INSIDE the chroot with `--features mpi` (so it links sid's libmpi) into target/sid-mpi,
# and every program runs under `mpirun --oversubscribe -n N`, with the node's shared window, then
# again with FERROCAF_MPI_SHM=0 (one-sided RMA only; programs whose accessors need the shared
# window say `! test: requires shared-window`).
#
#   scripts/test_sid_mpi.sh                    gfortran 15 and 16, both passes
#   scripts/test_sid_mpi.sh 16 -- accessor     only gfortran 16, tests whose name has `accessor`
#   FERROCAF_SID_MPI_PASSES=shm scripts/test_sid_mpi.sh    only the shared-window pass
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_cargo
versions=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    versions+=("$1")
    shift
done
[ $# -gt 0 ] && shift
[ ${#versions[@]} -gt 0 ] || versions=(15 16)
passes="${FERROCAF_SID_MPI_PASSES:-shm rma}"
scripts/sid.sh ensure

inside() {
    scripts/sid.sh run env PATH="$1:$(dirname "$(command -v cargo)"):/usr/local/bin:/usr/bin:/bin" \
        HOME="$HOME" CARGO_TARGET_DIR=target/sid-mpi \
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
        echo "=== gfortran $v over Open MPI: $pass"
        # The heap sizes are test_mpi.sh's (free space in /dev/shm; osc/rdma's window start-up).
        case "$pass" in
            shm) env=(FERROCAF_HEAP_SIZE=256M) ;;
            rma) env=(FERROCAF_MPI_SHM=0 FERROCAF_HEAP_SIZE=16M) ;;
            *) echo "error: unknown pass $pass (shm or rma)" >&2; exit 2 ;;
        esac
        if ! inside "$bin" env "${env[@]}" FERROCAF_TEST_LAUNCHER="mpirun --oversubscribe -n {n}" \
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
echo "all passed over Open MPI with gfortran ${versions[*]} ($passes)"
