#!/usr/bin/env bash
# Removes what scripts/install.sh installed under a prefix (default /usr/local): the files listed
# in <prefix>/share/ferrocaf/install_manifest.txt, then the directories that install created,
# if they are empty, then the manifest.
set -euo pipefail

usage() {
    cat <<'USAGE'
Usage: scripts/uninstall.sh [--prefix DIR]

  --prefix DIR  the prefix given to install.sh (default /usr/local)
Example:
  scripts/uninstall.sh --prefix ~/.local
USAGE
}

prefix=/usr/local
while [ $# -gt 0 ]; do
    case "$1" in
        --prefix) prefix="${2:?--prefix needs a directory}"; shift 2 ;;
        --prefix=*) prefix="${1#--prefix=}"; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "uninstall.sh: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
    esac
done
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
prefix="${prefix%/}"
manifest_rel=share/ferrocaf/install_manifest.txt
manifest="$prefix/$manifest_rel"
[ -f "$manifest" ] || { echo "uninstall.sh: no ferrocaf installed under $prefix ($manifest not found)" >&2; exit 1; }

files=()
dirs=()
while read -r kind rel; do
    case "$rel" in /*|..|../*|*/../*|*/..) echo "uninstall.sh: bad manifest entry '$rel'" >&2; exit 1 ;; esac
    case "$kind" in
        file) files+=("$rel") ;;
        dir) dirs=("$rel" "${dirs[@]}") ;;   # deepest (created last) first
        *) echo "uninstall.sh: bad manifest line '$kind $rel'" >&2; exit 1 ;;
    esac
done < "$manifest"
for rel in "${files[@]}"; do
    rm -f "$prefix/$rel"
done
rm "$manifest"
for rel in "${dirs[@]}"; do
    dir="$prefix/$rel"
    [ "$rel" = . ] && dir="$prefix"
    if ! rmdir "$dir" 2>/dev/null && [ -d "$dir" ]; then
        echo "uninstall.sh: kept $dir (it holds files ferrocaf did not install)" >&2
    fi
done
echo "removed ferrocaf from $prefix"
