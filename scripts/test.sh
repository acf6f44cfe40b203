#!/usr/bin/env bash
# Runs the whole test suite (Rust unit tests and the gfortran end-to-end tests), installing
# gfortran (12 or later), the packaging tools and the wrapper tests' tools first if they are
# missing. Extra arguments go to `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_cargo
ensure_gfortran
ensure_packaging_tools
ensure_test_tools
exec cargo test "$@"
