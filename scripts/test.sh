#!/usr/bin/env bash
# Runs the whole test suite (Rust unit tests and the gfortran end-to-end tests), installing
# gfortran first if it is missing. Extra arguments go to `cargo test`.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_cargo
ensure_gfortran
# Cargo.toml builds with panic = "abort", but test harnesses always unwind, so `cargo test`
# compiles the library twice under the same file names (cdylib: no hash in the name; cargo
# issue #6313) and links some targets against the wrong copy. Until Cargo.toml changes, build
# everything with unwinding here (a panic in an extern "C" entry point aborts either way).
export CARGO_PROFILE_DEV_PANIC=unwind CARGO_PROFILE_RELEASE_PANIC=unwind
exec cargo test "$@"
