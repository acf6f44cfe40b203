#!/usr/bin/env bash
# Installs ferrocaf under a prefix (default /usr/local):
#   bin/ferrocaf                         the command line (build, run, info)
#   lib/libferrocaf.so, lib/libferrocaf.a
#   include/ferrocaf/ferrocaf.h          C interface of the extension
#   include/ferrocaf/ferrocaf_ext.mod    Fortran module, compiled now by the gfortran on PATH
#   include/ferrocaf/ferrocaf_ext.stamp  which gfortran made it (`gfortran --version`, line 1)
#   lib/cmake/ferrocaf/ferrocafConfig.cmake, ferrocafConfigVersion.cmake
#   lib/pkgconfig/ferrocaf.pc
#   share/ferrocaf/install_manifest.txt  what was installed, read by scripts/uninstall.sh
# Running it again replaces a previous install under the same prefix.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: scripts/install.sh [--prefix DIR] [--from DIR]

  --prefix DIR  where to install (default /usr/local)
  --from DIR    install the files already built in DIR (e.g. target/release) instead of
                running cargo build --release first
Examples:
  scripts/install.sh --prefix ~/.local
  cargo build --release && sudo scripts/install.sh --from target/release
USAGE
}

repo="$(cd "$(dirname "$0")/.." && pwd)"
prefix=/usr/local
from=""
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        --from) from="${2:?--from needs a directory}"; shift 2 ;;
        --from=*) from="${1#--from=}"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
prefix="${prefix%/}"

source "$repo/scripts/setup.sh"
ensure_gfortran
if [ -z "$from" ]; then
    ensure_cargo
    (cd "$repo" && cargo build --release)
    from="$repo/target/release"
fi
for f in ferrocaf libferrocaf.so libferrocaf.a; do
    [ -f "$from/$f" ] || { echo "install.sh: $from/$f not found; build first" >&2; exit 1; }
done
version="$("$from/ferrocaf" --version | cut -d' ' -f2)"

# Stage the whole tree first, so nothing is touched under the prefix unless every piece built.
stage="$(mktemp -d)"
trap 'rm -rf "$stage"' EXIT
inc="$stage/include/ferrocaf"
mkdir -p "$stage/bin" "$stage/lib/cmake/ferrocaf" "$stage/lib/pkgconfig" "$inc"
cp "$from/ferrocaf" "$stage/bin/"
cp "$from/libferrocaf.so" "$from/libferrocaf.a" "$stage/lib/"
cp "$repo/caf_abi/ferrocaf.h" "$inc/"
gfortran -fcoarray=lib -c "$repo/caf_abi/ferrocaf_ext.f90" -J "$inc" -o "$stage/ferrocaf_ext.o"
rm "$stage/ferrocaf_ext.o"
gfortran --version | sed -n 1p > "$inc/ferrocaf_ext.stamp"
fill() { sed -e "s|@VERSION@|$version|g" -e "s|@PREFIX@|$prefix|g" "$1" > "$2"; }
fill "$repo/cmake/ferrocafConfig.cmake.in" "$stage/lib/cmake/ferrocaf/ferrocafConfig.cmake"
fill "$repo/cmake/ferrocafConfigVersion.cmake.in" \
    "$stage/lib/cmake/ferrocaf/ferrocafConfigVersion.cmake"
fill "$repo/cmake/ferrocaf.pc.in" "$stage/lib/pkgconfig/ferrocaf.pc"

manifest_rel=share/ferrocaf/install_manifest.txt
if [ -f "$prefix/$manifest_rel" ]; then
    "$repo/scripts/uninstall.sh" --prefix "$prefix" >/dev/null
fi

# Install, recording every file and every directory this creates (parents first), so that
# uninstall.sh can remove exactly those.
records=()
make_dir() {
    local rel="$1"
    [ -d "$prefix/$rel" ] && return 0
    if [ "$rel" = . ]; then
        mkdir -p "$prefix"
    else
        make_dir "$(dirname "$rel")"
        mkdir "$prefix/$rel"
    fi
    records+=("dir $rel")
}
while IFS= read -r rel; do
    make_dir "$(dirname "$rel")"
    mode=644
    case "$rel" in bin/*|*.so) mode=755 ;; esac
    install -m "$mode" "$stage/$rel" "$prefix/$rel"
    records+=("file $rel")
done < <(cd "$stage" && find . -type f | sed 's|^\./||' | sort)
make_dir "$(dirname "$manifest_rel")"
printf '%s\n' "${records[@]}" > "$prefix/$manifest_rel"
echo "installed ferrocaf $version under $prefix"
