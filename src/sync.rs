//! The atomics the lock-free structures use, swappable for loom's model-checked atomics
//! (`RUSTFLAGS="--cfg loom" cargo test --release --lib loom`).

#[cfg(loom)]
pub use loom::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};
#[cfg(not(loom))]
pub use std::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};
