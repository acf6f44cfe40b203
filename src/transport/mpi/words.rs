//! Fixed-size messages of 64-bit words on the private communicator, the form of both
//! notifications (`note.rs`) and signals (`signal.rs`).

use super::world::{check, null_handle, World};
use mpi_sys as m;

/// Sends `words` to `image` with `tag` (eager for these sizes: returns once buffered).
pub(super) fn send(w: &World, image: usize, tag: i32, words: &[u64]) {
    // SAFETY: `words` is a live slice of that many u64s; the communicator is valid until
    // finalize.
    unsafe {
        check(
            m::MPI_Send(
                words.as_ptr().cast(),
                words.len() as i32,
                m::RSMPI_UINT64_T,
                image as i32,
                tag,
                w.comm,
            ),
            "MPI_Send",
        )
    };
}

/// Receives one message with `tag` from any image into `words` if one has arrived; false if
/// none has (the probe then entered MPI's progress engine).
pub(super) fn try_receive(w: &World, tag: i32, words: &mut [u64]) -> bool {
    let (mut flag, mut msg) = (0, null_handle());
    // SAFETY: valid communicator and out-pointers; a message with `tag` always has
    // `words.len()` words, received whole into `words`.
    unsafe {
        check(
            m::MPI_Improbe(
                m::RSMPI_ANY_SOURCE,
                tag,
                w.comm,
                &mut flag,
                &mut msg,
                m::RSMPI_STATUS_IGNORE,
            ),
            "MPI_Improbe",
        );
        if flag == 0 {
            return false;
        }
        check(
            m::MPI_Mrecv(
                words.as_mut_ptr().cast(),
                words.len() as i32,
                m::RSMPI_UINT64_T,
                &mut msg,
                m::RSMPI_STATUS_IGNORE,
            ),
            "MPI_Mrecv",
        );
    }
    true
}

/// The tag of the first message that has arrived for this image, of any tag, without receiving
/// it; `None` if none has (the probe then entered MPI's progress engine once).
pub(super) fn first_tag(w: &World) -> Option<i32> {
    let mut flag = 0;
    // SAFETY: an MPI_Status is plain integers: all-zero is a valid value, overwritten below.
    let mut status: m::MPI_Status = unsafe { std::mem::zeroed() };
    // SAFETY: valid communicator and out-pointers.
    unsafe {
        check(
            m::MPI_Iprobe(
                m::RSMPI_ANY_SOURCE,
                m::RSMPI_ANY_TAG,
                w.comm,
                &mut flag,
                &mut status,
            ),
            "MPI_Iprobe",
        )
    };
    (flag != 0).then_some(status.MPI_TAG)
}
