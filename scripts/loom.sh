#!/usr/bin/env bash
# Model-checks the lock-free pieces with loom: the notification ring (transport/ring.rs) and the
# doorbell sleep/wake protocol (transport/doorbell.rs). Under --cfg loom only those modules are
# built (see src/lib.rs); a separate target directory keeps the normal build untouched.
set -euo pipefail
cd "$(dirname "$0")/.."
RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom exec cargo test --release --lib "$@"
