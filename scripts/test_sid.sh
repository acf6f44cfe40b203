#!/usr/bin/env bash
# Runs the tests that compile Fortran with the gfortran versions of the Debian sid chroot
# (scripts/sid.sh; made on first use, root needed): the gfortran_tests/ suite and the command-line,
# fault and packaging tests, built on the host and run inside the chroot with `gfortran` being
# gfortran-V.
#
#   scripts/test_sid.sh                 gfortran 14, 15 and 16
#   scripts/test_sid.sh 16              only gfortran 16
#   scripts/test_sid.sh 15 16 -- accessor   only tests whose name contains `accessor`
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
[ ${#versions[@]} -gt 0 ] || versions=(14 15 16)
scripts/sid.sh ensure

# The test executables, built on the host (the chroot has the same paths bound).
mapfile -t exes < <(cargo test --no-run --message-format=json \
    --test gfortran --test cli --test faults --test install 2>/dev/null \
    | python3 -c '
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["target"]["kind"] == ["test"]:
        print(m["target"]["name"] + " " + m["executable"])
')
[ ${#exes[@]} -gt 0 ] || { echo "error: building the tests failed (run cargo test --no-run)" >&2; exit 1; }
first="${exes[0]#* }"
scripts/sid.sh run test -x "$first" || {
    echo "error: $first is not visible inside the chroot $(scripts/sid.sh path) (is this repository bound there? see /proc/mounts)" >&2
    exit 1
}

failed=()
for v in "${versions[@]}"; do
    bin="$(mktemp -d /tmp/ferrocaf-gfortran-$v.XXXXXX)"
    ln -s "/usr/bin/gfortran-$v" "$bin/gfortran"
    for entry in "${exes[@]}"; do
        name="${entry%% *}"
        exe="${entry#* }"
        echo "=== gfortran $v: $name"
        if ! scripts/sid.sh run env PATH="$bin:$(dirname "$(command -v cargo)"):/usr/local/bin:/usr/bin:/bin" HOME="$HOME" \
            "$exe" "$@"; then
            failed+=("gfortran $v: $name")
        fi
    done
    rm -rf "$bin"
done
if [ ${#failed[@]} -gt 0 ]; then
    printf 'FAILED: %s\n' "${failed[@]}" >&2
    exit 1
fi
echo "all passed with gfortran ${versions[*]}"
