#!/usr/bin/env bash
# A test bed of N "hosts" on this machine, for MPI jobs spread over several nodes
# (docs/ARCHITECTURE.md, "Test bed of hosts"). Host k (1..N) is
#   - a network namespace `ferrocaf-bed<k>` with loopback up and one interface `bed0`,
#     198.18.0.<k>/24, the end of a veth pair whose other end is on the private bridge `fcbed`
#     (198.18.0.0/15 is the benchmarking range: nothing outside the bed uses it);
#   - a UTS namespace with hostname `bed<k>`, kept by a bind mount under $STATE (no process).
# Hosts share the file system, /dev/shm included: only the network and the name differ.
#
#   testbed.sh up N              make hosts 1..N (idempotent: existing ones are kept, extra
#                                ones removed); prints the hostfile's path
#   testbed.sh down              remove every host, the bridge and the state directory
#   testbed.sh exec HOST CMD...  run CMD in HOST (bed<k>, 198.18.0.<k> or k)
#   testbed.sh agent [-opts] HOST CMD...
#                                what MPI calls instead of ssh: runs the words CMD... joined
#                                by spaces with `sh -c` in HOST, as ssh does. Open MPI:
#                                `--mca plm_rsh_agent "testbed.sh agent"`; MPICH's Hydra:
#                                `-launcher ssh -launcher-exec testbed.sh` (Hydra passes -x, ssh's
#                                options are skipped; called without a verb, the script is the
#                                agent)
#   testbed.sh mpirun ARGS...    Open MPI's mpirun, started in bed1, with the bed's agent, its
#                                hostfile, TCP restricted to the bed's subnet, and ranks that
#                                yield the processor while they poll (see below); a host
#                                whose link is cut is declared lost after ~8 s of silence
#                                (TCP keepalive of mpirun's daemons: 5 s, then 3 probes 1 s
#                                apart; Open MPI's default is 300 s + 9 x 20 s)
#   testbed.sh mpiexec ARGS...   MPICH's mpiexec.mpich likewise (Hydra, -iface bed0)
#
# Hostfiles: $STATE/hosts (Open MPI) has one line `bed<k> slots=S` per host, $STATE/hosts.hydra
# (MPICH) `bed<k>:S`; S = $TESTBED_SLOTS (default 2).
# Needs root, ip(8) and util-linux's unshare/nsenter.
#
# TESTBED_ROOT=DIR (e.g. the sid chroot of scripts/sid.sh, for gfortran 15/16 and Open MPI 6)
# makes every command that enters a host (exec, agent, mpirun, mpiexec) run chrooted in DIR
# inside the host's namespaces, in the same working directory when DIR has it; DIR must
# already have what the command needs bound at the same paths (sid.sh binds this repository,
# /tmp, /dev/shm, /proc). In the command's own mount namespace, /sys (where UCX lists the
# host's interfaces), the bed's state directory (hostfiles) and the real root (at $OUTSIDE) are
# bound inside DIR: a launcher or test harness running inside DIR calls this script there,
# which then goes back to the real root (where ip(8) and the namespaces are) before it does
# anything. (nsenter into PID 1's root would need no bind, but /proc/1/root is refused from
# inside a chroot on this machine.)
#   testbed.sh chroot CMD...     run CMD chrooted in TESTBED_ROOT on this machine (no bed host),
#                                so that it can call this script: a test harness that starts
#                                jobs with `testbed.sh mpirun` (scripts/test_sid_mpi.sh --bed)
#
# A packet between hosts crosses two veths and the bridge in the kernel's softirq work, which
# on a busy machine runs in ksoftirqd: a process that polls without ever yielding holds the
# processor until the scheduler's tick, and every message took 10 ms (Open MPI ping-pong between
# two hosts: 10 ms one way, 54 us with mpi_yield_when_idle=1; 49 us for a blocking TCP socket).
set -euo pipefail
# Launchers and test harnesses call this script with PATHs of their own, often without sbin.
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin

STATE=${TESTBED_STATE:-/run/ferrocaf-testbed}
BRIDGE=fcbed
NET=198.18.0
SELF=$(readlink -f "$0")
ROOT=${TESTBED_ROOT:-}
# Where a command run under TESTBED_ROOT sees the real root.
OUTSIDE=/run/ferrocaf-testbed-outside

die() {
    echo "testbed: $*" >&2
    exit 1
}

# The host number named by bed<k>, 198.18.0.<k> or k.
host_number() {
    local h=$1
    h=${h#bed}
    h=${h#"$NET".}
    case $h in
    '' | *[!0-9]*) die "unknown host '$1' (bed<k>, $NET.<k> or k)" ;;
    esac
    [ -e "$STATE/uts$h" ] || die "host bed$h does not exist (testbed.sh up N)"
    echo "$h"
}

# Runs "$@" in host k's network and UTS namespaces (`ip netns exec` also gives it a mount
# namespace with the network namespace's /sys, where libraries such as UCX list interfaces).
enter() {
    local k=$1
    shift
    if [ -z "$ROOT" ]; then
        exec ip netns exec ferrocaf-bed"$k" nsenter --uts="$STATE/uts$k" -- "$@"
    fi
    exec ip netns exec ferrocaf-bed"$k" nsenter --uts="$STATE/uts$k" -- "$SELF" in-root "$PWD" "$@"
}

add_host() {
    local k=$1 ns=ferrocaf-bed$1
    [ -e "/run/netns/$ns" ] || ip netns add "$ns"
    if ! ip link show "fcbed$k-v" >/dev/null 2>&1; then
        ip link add "fcbed$k-v" type veth peer name bed0 netns "$ns"
        ip link set "fcbed$k-v" master "$BRIDGE" up
    fi
    ip -n "$ns" link set lo up
    ip -n "$ns" addr replace "$NET.$k/24" dev bed0
    ip -n "$ns" link set bed0 up
    if ! mountpoint -q "$STATE/uts$k" 2>/dev/null; then
        touch "$STATE/uts$k"
        unshare --uts="$STATE/uts$k" hostname "bed$k"
    fi
}

del_host() {
    local k=$1
    ip link del "fcbed$k-v" 2>/dev/null || true
    ip netns del "ferrocaf-bed$k" 2>/dev/null || true
    umount "$STATE/uts$k" 2>/dev/null || true
    rm -f "$STATE/uts$k"
}

up() {
    local n=${1:-}
    case $n in '' | *[!0-9]* | 0) die "up needs a host count (1..200)" ;; esac
    [ "$n" -le 200 ] || die "up needs a host count (1..200)"
    mkdir -p "$STATE"
    # unshare --uts=FILE bind-mounts the namespace on FILE, which needs a private mount above it.
    if ! mountpoint -q "$STATE"; then
        mount --bind "$STATE" "$STATE"
        mount --make-private "$STATE"
    fi
    if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
        ip link add "$BRIDGE" type bridge
    fi
    ip link set "$BRIDGE" up
    local k
    for k in $(seq 1 "$n"); do add_host "$k"; done
    for f in "$STATE"/uts*; do
        [ -e "$f" ] || continue
        k=${f##*/uts}
        [ "$k" -le "$n" ] || del_host "$k"
    done
    local slots=${TESTBED_SLOTS:-2}
    : >"$STATE/hosts.new"
    : >"$STATE/hosts.hydra.new"
    for k in $(seq 1 "$n"); do
        echo "bed$k slots=$slots" >>"$STATE/hosts.new"
        echo "bed$k:$slots" >>"$STATE/hosts.hydra.new"
    done
    mv "$STATE/hosts.new" "$STATE/hosts"
    mv "$STATE/hosts.hydra.new" "$STATE/hosts.hydra"
    echo "$STATE/hosts"
}

down() {
    local f
    for f in "$STATE"/uts*; do
        [ -e "$f" ] || continue
        del_host "${f##*/uts}"
    done
    ip link del "$BRIDGE" 2>/dev/null || true
    if [ -d "$STATE" ]; then
        umount "$STATE" 2>/dev/null || true
        rm -rf "$STATE"
    fi
}

# Runs "$@" chrooted in TESTBED_ROOT, in directory $1 if the root has it (else in /), with /sys,
# the bed's state directory and the real root ($OUTSIDE) bound inside. The caller is in a mount
# namespace of its own (`ip netns exec` makes one), so the binds stay in it.
in_root() {
    [ -n "$ROOT" ] || die "in-root needs TESTBED_ROOT"
    [ -x "$ROOT/bin/sh" ] || die "TESTBED_ROOT=$ROOT has no /bin/sh"
    local dir=$1
    shift
    mount --bind /sys "$ROOT/sys"
    if [ -d "$STATE" ]; then
        mkdir -p "$ROOT$STATE"
        mount --bind "$STATE" "$ROOT$STATE"
    fi
    mkdir -p "$ROOT$OUTSIDE"
    mount --rbind / "$ROOT$OUTSIDE"
    # shellcheck disable=SC2016
    TESTBED_OUTSIDE=$OUTSIDE exec chroot "$ROOT" /bin/sh -c 'cd "$0" 2>/dev/null || cd /; exec "$@"' \
        "$dir" "$@"
}

# The major version of the Open MPI whose mpirun the bed starts (in TESTBED_ROOT if set).
ompi_major() {
    local v
    v=$(${ROOT:+chroot "$ROOT"} mpirun --version 2>/dev/null | sed -n 's/.*(Open MPI) \([0-9]*\).*/\1/p')
    [ -n "$v" ] || die "no Open MPI mpirun${ROOT:+ in $ROOT}"
    echo "$v"
}

agent() {
    while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do shift; done
    [ $# -ge 2 ] || die "agent needs a host and a command"
    local k
    k=$(host_number "$1")
    shift
    enter "$k" sh -c "$*"
}

# Under TESTBED_ROOT, a launcher or test harness inside the root calls this script there, where
# neither ip(8) nor the network namespaces are: it goes back to the real root first.
if [ -n "${TESTBED_OUTSIDE:-}" ] && [ -x "$TESTBED_OUTSIDE$SELF" ]; then
    exec chroot "$TESTBED_OUTSIDE" env -u TESTBED_OUTSIDE -C "$PWD" "$SELF" "$@"
fi

verb=${1:-}
case $verb in
up) up "${2:-}" ;;
down) down ;;
exec)
    [ $# -ge 3 ] || die "exec needs a host and a command"
    k=$(host_number "$2")
    shift 2
    enter "$k" "$@"
    ;;
mpirun)
    shift
    k=$(host_number 1)
    # Open MPI 5 launches through PRRTE, whose parameters for the same settings have other
    # names (the old ones are refused or warned about). PRRTE also binds each host's ranks
    # from core 0 up, and the bed's hosts share this machine's cores: every host's first rank
    # would be on CPU 0.
    if [ "$(ompi_major)" -ge 5 ]; then
        launch=(--prtemca plm_ssh_agent "$SELF agent" --prtemca prte_if_include "$NET.0/24"
            --prtemca prte_keepalive_time 5 --prtemca prte_keepalive_intvl 1
            --prtemca prte_keepalive_probes 3 --bind-to none)
    else
        launch=(--mca plm_rsh_agent "$SELF agent" --mca oob_tcp_if_include "$NET.0/24"
            --mca oob_tcp_keepalive_time 5 --mca oob_tcp_keepalive_intvl 1
            --mca oob_tcp_keepalive_probes 3)
    fi
    enter "$k" mpirun --hostfile "$STATE/hosts" "${launch[@]}" \
        --mca btl_tcp_if_include "$NET.0/24" --mca mpi_yield_when_idle 1 "$@"
    ;;
mpiexec)
    shift
    k=$(host_number 1)
    enter "$k" mpiexec.mpich -f "$STATE/hosts.hydra" -launcher ssh -launcher-exec "$SELF" \
        -iface bed0 "$@"
    ;;
agent)
    shift
    agent "$@"
    ;;
chroot)
    shift
    [ $# -ge 1 ] || die "chroot needs a command"
    exec unshare --mount --propagation slave "$SELF" in-root "$PWD" "$@"
    ;;
in-root)
    shift
    in_root "$@"
    ;;
-*) agent "$@" ;;
*) die "usage: testbed.sh up N | down | exec HOST CMD... | agent HOST CMD... | mpirun ARGS... | mpiexec ARGS... | chroot CMD..." ;;
esac
