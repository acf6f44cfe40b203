#!/usr/bin/env bash
# A Debian sid chroot with gfortran 14, 15 and 16 and GCC 16's libcaf_shmem, for testing ferrocaf
# with the compilers newer distributions ship (docs/ARCHITECTURE.md, "ABI generations"), and Open
# MPI and MPICH, gcc and libclang for building ferrocaf with `--features mpi` inside it
# (test_sid_mpi.sh; Open MPI stays what mpicc and mpirun name, MPICH is called by its own names).
#
#   scripts/sid.sh ensure          make the chroot if it is missing, mount what it needs
#   scripts/sid.sh run CMD...      run CMD inside it (same working directory, same PATH + gfortrans)
#   scripts/sid.sh path            print where it lives
#   scripts/sid.sh remove          unmount and delete it
#
# It lives in $FERROCAF_SID (default /var/tmp/ferrocaf-sid). debootstrap takes the Debian mirror
# this machine's apt already uses. /proc, /dev, /dev/shm, /tmp, this repository and the Rust
# toolchain are bound at their own paths, so binaries built on the host run inside unchanged.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
SID="${FERROCAF_SID:-/var/tmp/ferrocaf-sid}"
PACKAGES=gfortran-14,gfortran-15,gfortran-16,libgfortran-16-dev,binutils,cmake,make,pkg-config,fortran-fpm,gcc,libopenmpi-dev,openmpi-bin,mpich,libmpich-dev,libclang-dev,libfabric-dev,libfabric-bin,libpmix-dev

# Prints the first Debian archive URI of the apt sources (one-line or deb822 format).
mirror() {
    local files=(/etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources)
    local f uri
    for f in "${files[@]}"; do
        [ -r "$f" ] || continue
        uri="$(grep -hoE '^(deb[[:space:]]+(\[[^]]*\][[:space:]]+)?|URIs:[[:space:]]*)[a-z]+://[^[:space:]]+' "$f" \
            | grep -oE '[a-z]+://[^[:space:]]+' | grep -E '/debian/?$' | head -n1 || true)"
        if [ -n "$uri" ]; then
            echo "$uri"
            return
        fi
    done
    echo "error: no Debian archive in the apt sources; set FERROCAF_SID_MIRROR" >&2
    exit 1
}

need_root() {
    if [ "$(id -u)" -ne 0 ]; then
        echo "error: scripts/sid.sh needs root (debootstrap, chroot, mount)" >&2
        exit 1
    fi
}

# Binds $1 at the same path inside the chroot unless it is already bound there. A bind left by
# an earlier run whose directory has since been deleted and made again (a CI machine that clones
# afresh at the same path) shows the deleted directory: it is unmounted and bound anew.
bind() {
    local src="$1" dst="$SID$1"
    [ -e "$src" ] || return 0
    mkdir -p "$dst"
    if mountpoint -q "$dst"; then
        [ "$(stat -c %d:%i "$src")" = "$(stat -c %d:%i "$dst")" ] && return 0
        umount -l "$dst"
    fi
    mount --bind "$src" "$dst"
}

mount_all() {
    mkdir -p "$SID/proc"
    mountpoint -q "$SID/proc" || mount -t proc proc "$SID/proc"
    bind /dev
    bind /dev/shm
    bind /tmp
    bind "$REPO"
    bind "${CARGO_HOME:-$HOME/.cargo}"
    bind "${RUSTUP_HOME:-$HOME/.rustup}"
    cp -L /etc/resolv.conf "$SID/etc/resolv.conf" 2>/dev/null || true
}

# Mount points at or under $1.
mounts_under() {
    awk -v root="$1" '$2 == root || index($2, root "/") == 1 {print $2}' /proc/mounts
}

# Deletes $1 unless something is still mounted inside it (this repository and /tmp are bound
# into the chroot: deleting through a bind would delete them).
remove_dir() {
    if [ -n "$(mounts_under "$1")" ]; then
        echo "error: still mounted under $1, not deleting it:" >&2
        mounts_under "$1" >&2
        exit 1
    fi
    rm -rf --one-file-system "$1"
}

umount_all() {
    local m
    # Deepest first.
    for m in $(mounts_under "$SID" | sort -r); do
        umount -l "$m" || true
    done
}

ensure() {
    need_root
    if [ ! -x "$SID/usr/bin/gfortran-16" ]; then
        command -v debootstrap >/dev/null 2>&1 || {
            source "$REPO/scripts/setup.sh"
            apt_install debootstrap
        }
        local uri="${FERROCAF_SID_MIRROR:-$(mirror)}"
        echo "making a Debian sid chroot in $SID (about a minute)" >&2
        umount_all
        remove_dir "$SID"
        remove_dir "$SID.part"
        mkdir -p "$(dirname "$SID")"
        debootstrap --variant=minbase --include="$PACKAGES" sid "$SID.part" "$uri" >"$SID.log" 2>&1 || {
            tail -n 20 "$SID.log" >&2
            echo "error: debootstrap failed (log: $SID.log)" >&2
            exit 1
        }
        mv "$SID.part" "$SID"
    fi
    mount_all
    # A chroot made by an older version of this script gets the packages added since (asked of
    # its dpkg: several worktrees with different versions of this script share one chroot).
    local want have
    want="$(echo "${PACKAGES//,/ }" | wc -w)"
    # shellcheck disable=SC2086
    have="$(chroot "$SID" dpkg-query -W -f='${Status}\n' ${PACKAGES//,/ } 2>/dev/null \
        | grep -c 'install ok installed' || true)"
    if [ "$have" -ne "$want" ]; then
        echo "installing ${PACKAGES//,/ } in $SID" >&2
        chroot "$SID" apt-get -qq -o Acquire::Check-Valid-Until=false update >&2
        # shellcheck disable=SC2086
        chroot "$SID" env DEBIAN_FRONTEND=noninteractive apt-get -qq install -y ${PACKAGES//,/ } >&2
    fi
    openmpi_alternatives
}

# Points every alternative group MPICH joins (mpi, mpirun, mpi-<arch>) back at Open MPI's member:
# test_sid_mpi.sh builds against `mpicc` for Open MPI and against `mpicc.mpich` for MPICH.
openmpi_alternatives() {
    local group member
    for group in mpi mpirun "mpi-$(chroot "$SID" gcc -print-multiarch)"; do
        member="$(chroot "$SID" update-alternatives --list "$group" 2>/dev/null | grep -m1 openmpi)" || continue
        if ! chroot "$SID" update-alternatives --query "$group" | grep -qx "Value: $member"; then
            chroot "$SID" update-alternatives --set "$group" "$member" >&2
        fi
    done
}

run() {
    ensure >&2
    local cwd
    cwd="$(pwd)"
    exec chroot "$SID" /usr/bin/env -C "$cwd" PATH="$PATH:/usr/local/bin:/usr/bin:/bin" "$@"
}

case "${1:-}" in
    ensure) ensure ;;
    run) shift; run "$@" ;;
    path) echo "$SID" ;;
    remove)
        need_root
        umount_all
        remove_dir "$SID"
        remove_dir "$SID.part"
        rm -f "$SID.log"
        ;;
    *) echo "usage: scripts/sid.sh ensure|run CMD...|path|remove" >&2; exit 2 ;;
esac
