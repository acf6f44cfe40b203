#!/usr/bin/env bash
# Accessor gets and puts of gfortran 16 at 2 images: the libfabric transport (tcp provider on
# loopback) against the MPI transport without the shared window (Open MPI 6, ob1 over the tcp
# BTL on loopback), both running every accessor on its owner; inside the sid chroot
# (scripts/sid.sh), the configurations alternating run by run. Programs:
# bench/micro/get_latency.f90 (a read of x[2] in a loop: one owner-side call per read) and
# put_latency.f90 (a put and a SYNC IMAGES pair, half a round trip). Uses the libraries that
# `scripts/test_sid_mpi.sh --fabric` and `scripts/test_sid_mpi.sh` build (target/sid-fabric,
# target/sid-mpi), or the configurations given as KIND:DIR, DIR holding a libferrocaf.so
# built for KIND: fabric (tcp provider), fabshm (libfabric's shm provider), mpi (Open MPI,
# as above) or mpich (`scripts/test_sid_mpi.sh --mpich`, target/sid-mpich). Prints one line
# per run, µs, with the 1-minute load.
#
#   scripts/sid.sh run bash bench/accessor_fabric.sh [ROUNDS (3)] [FACTOR (0.2)] [KIND:DIR...]
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3} factor=${2:-0.2} root=$PWD
shift $(($# < 2 ? $# : 2))
configs=("$@")
[ ${#configs[@]} -gt 0 ] ||
    configs=("fabric:$root/target/sid-fabric/release/deps" "mpi:$root/target/sid-mpi/release/deps")
out=$(mktemp -d /tmp/ferrocaf-accessor-bench.XXXXXX)
trap 'rm -rf "$out"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 FERROCAF_HEAP_SIZE=64M
for cfg in "${configs[@]}"; do
    [ -e "${cfg#*:}/libferrocaf.so" ] ||
        { echo "error: no ${cfg#*:}/libferrocaf.so: run the tests first" >&2; exit 1; }
done
for p in get_latency put_latency; do
    gfortran-16 -O2 -fcoarray=lib -J "$out" bench/micro/bench_util.f90 "bench/micro/$p.f90" \
        -L"${configs[0]#*:}" -lferrocaf -o "$out/$p"
done
for r in $(seq "$rounds"); do
    for cfg in "${configs[@]}"; do
        kind=${cfg%%:*} lib=${cfg#*:}
        case "$kind" in
            fabric) run=(env FERROCAF_TRANSPORT=fabric FI_PROVIDER=tcp FI_TCP_IFACE=lo
                mpirun --oversubscribe -n 2) ;;
            fabshm) run=(env FERROCAF_TRANSPORT=fabric FI_PROVIDER=shm mpirun --oversubscribe -n 2) ;;
            mpi) run=(env FERROCAF_TRANSPORT=mpi FERROCAF_MPI_SHM=0 mpirun --oversubscribe -n 2
                --mca pml ob1 --mca btl tcp,self --mca btl_tcp_if_include lo) ;;
            mpich) run=(env FERROCAF_TRANSPORT=mpi FERROCAF_MPI_SHM=0 mpiexec.mpich -n 2) ;;
            *) echo "error: unknown kind $kind (fabric, fabshm, mpi or mpich)" >&2; exit 2 ;;
        esac
        for p in get_latency put_latency; do
            result=$(LD_LIBRARY_PATH="$lib" timeout 300 "${run[@]}" "$out/$p" "$factor" 2>&1 |
                grep RESULT || echo FAIL)
            echo "run $r $cfg $p: $result (load $(cut -d' ' -f1 /proc/loadavg))"
        done
    done
done
