//! Errors, classified once where they are detected. The ABI layer turns them into a `stat`
//! value and `errmsg`, or into error termination with a one-line message.

use std::fmt;

/// `STAT_LOCKED` of `iso_fortran_env`.
pub const STAT_LOCKED: i32 = 1;
/// `STAT_LOCKED_OTHER_IMAGE` of `iso_fortran_env`.
pub const STAT_LOCKED_OTHER_IMAGE: i32 = 2;
/// `STAT_UNLOCKED` of gfortran's `iso_fortran_env` (0 there, so it cannot be told from success).
pub const STAT_UNLOCKED: i32 = 0;
/// `STAT_STOPPED_IMAGE` of `iso_fortran_env`.
pub const STAT_STOPPED_IMAGE: i32 = 6000;
/// `STAT_FAILED_IMAGE` of `iso_fortran_env`.
pub const STAT_FAILED_IMAGE: i32 = 6001;
/// `STAT_UNLOCKED_FAILED_IMAGE`: LOCK found the lock held by a failed image (Fortran 2018
/// 11.6.11). No gfortran up to 16 has it in `iso_fortran_env`; 6002 is its value in GCC 16's
/// libcaf.h (`CAF_STAT_UNLOCKED_FAILED_IMAGE`), reported to gfortran 16 programs only
/// (`abi/sync_objects.rs`).
pub const STAT_UNLOCKED_FAILED_IMAGE: i32 = 6002;
/// ferrocaf's stat for an image index outside the team.
pub const STAT_INVALID_IMAGE: i32 = 6101;
/// ferrocaf's stat for an allocation the heap cannot hold.
pub const STAT_OUT_OF_MEMORY: i32 = 6102;
/// ferrocaf's stat for an argument the runtime cannot accept.
pub const STAT_INVALID_ARGUMENT: i32 = 6103;

/// A failed coarray operation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CafError {
    /// An image index outside `1..=num_images`.
    InvalidImage {
        /// The index the program used.
        image: i64,
        /// Number of images in the current team.
        count: usize,
    },
    /// The operation involves an image that initiated normal termination.
    StoppedImage {
        /// 1-based index of the stopped image.
        image: usize,
    },
    /// The operation involves a failed image.
    FailedImage {
        /// 1-based index of the failed image.
        image: usize,
    },
    /// The symmetric or local heap cannot satisfy an allocation.
    OutOfMemory {
        /// Bytes requested.
        requested: usize,
        /// Bytes the heap has in total.
        heap: usize,
        /// Which heap.
        which: &'static str,
    },
    /// An argument the runtime cannot accept (message explains).
    InvalidArgument(String),
    /// A LOCK/UNLOCK misuse with its standard stat value (STAT_LOCKED, ...).
    Lock {
        /// The stat value.
        stat: i32,
        /// What happened.
        message: String,
    },
}

impl CafError {
    /// The `stat=` value for this error.
    pub fn stat(&self) -> i32 {
        match self {
            CafError::InvalidImage { .. } => STAT_INVALID_IMAGE,
            CafError::StoppedImage { .. } => STAT_STOPPED_IMAGE,
            CafError::FailedImage { .. } => STAT_FAILED_IMAGE,
            CafError::OutOfMemory { .. } => STAT_OUT_OF_MEMORY,
            CafError::InvalidArgument(_) => STAT_INVALID_ARGUMENT,
            CafError::Lock { stat, .. } => *stat,
        }
    }
}

impl fmt::Display for CafError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CafError::InvalidImage { image, count } => {
                write!(f, "image index {image} is out of range (1 to {count})")
            }
            CafError::StoppedImage { image } => write!(f, "image {image} has stopped"),
            CafError::FailedImage { image } => write!(f, "image {image} has failed"),
            CafError::OutOfMemory {
                requested,
                heap,
                which,
            } => write!(
                f,
                "cannot allocate {requested} bytes: the {which} heap of {heap} bytes per image is \
                 full (raise FERROCAF_HEAP_SIZE)"
            ),
            CafError::InvalidArgument(m) => f.write_str(m),
            CafError::Lock { message, .. } => f.write_str(message),
        }
    }
}

/// Result of a coarray operation.
pub type CafResult<T> = Result<T, CafError>;
