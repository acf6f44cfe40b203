//! What each coarray operation means, independent of transport and of gfortran's layouts:
//! allocation, copy with conversion, synchronisation, collectives, waiting.

pub mod alloc;
pub mod atomic;
pub mod attach;
pub mod barrier;
pub mod coll_small;
pub mod collective;
pub mod convert;
mod convert_char;
mod convert_num;
pub mod event;
mod float_ext;
pub mod lock;
mod long_wait;
pub mod notify;
mod pace;
pub mod random;
pub mod reduce;
pub mod refs;
mod scalar;
pub mod stats;
pub mod status;
pub mod sync_images;
pub mod team;
pub mod transfer;
pub mod types;
pub mod wait;
pub mod wait_policy;
