//! Thin safe wrappers over the libc calls the layers share (memory mapping, memfd, futex,
//! process control), and the reads of /proc, /sys and ELF files they need. A few single-use calls
//! stay where they are used (the supervisor's signal handling in `launch/wait.rs`, for one;
//! docs/ARCHITECTURE.md, "Layers", lists them).

pub mod ancestry;
pub mod cache;
pub mod elf;
pub mod futex;
pub mod mem;
pub mod proc;
