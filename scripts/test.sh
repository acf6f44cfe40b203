#!/usr/bin/env bash
# Runs the whole test suite (Rust unit tests and the gfortran end-to-end tests), installing
# gfortran first if it is missing. Extra arguments go to `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_cargo
ensure_gfortran
ensure_packaging_tools
exec cargo test "$@"
