//! Thin safe wrappers over the few libc calls the runtime needs (memory mapping, memfd, futex,
//! process control). Every `unsafe` libc call of the crate outside `abi/` lives here.

pub mod ancestry;
pub mod elf;
pub mod futex;
pub mod mem;
pub mod proc;
