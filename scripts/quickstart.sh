#!/usr/bin/env bash
# Quick start: installs gfortran if missing, builds ferrocaf, and runs examples_caf/hello.f90
# on 4 images.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
ensure_cargo
ensure_gfortran
cargo build --release
exec target/release/ferrocaf run -n 4 examples_caf/hello.f90
