//! Notifications as eager messages: one 64-byte cell per notification (`transport/wire.rs`), sent with `MPI_Send` on
//! the transport's private communicator and received in arrival order with
//! `MPI_Improbe`/`MPI_Mrecv` (matched probes, safe with several threads).

use super::world::{check, World};
use crate::transport::wire::{decode, encode, WORDS};
use crate::transport::Notification;
use mpi_sys as m;

use super::tags::{NEVER, NOTE as TAG};
/// Sends `n` to `image` (the data it announces was completed by the put before it).
pub(super) fn send(w: &World, image: usize, n: &Notification) {
    let c = encode(n);
    // SAFETY: `c` holds WORDS u64s; the communicator is valid until finalize.
    unsafe {
        check(
            m::MPI_Send(
                c.as_ptr().cast(),
                WORDS as i32,
                m::RSMPI_UINT64_T,
                image as i32,
                TAG,
                w.comm,
            ),
            "MPI_Send",
        )
    };
}

/// Hands every notification that has arrived to `f`, in arrival order; returns how many came.
pub(super) fn receive(w: &World, f: &mut dyn FnMut(Notification)) -> u32 {
    let mut came = 0;
    loop {
        let mut c = [0u64; WORDS];
        let (mut flag, mut msg) = (0, super::world::null_handle());
        // SAFETY: valid communicator and out-pointers; a matched message is received whole
        // into `c`, which holds WORDS u64s.
        unsafe {
            check(
                m::MPI_Improbe(
                    m::RSMPI_ANY_SOURCE,
                    TAG,
                    w.comm,
                    &mut flag,
                    &mut msg,
                    m::RSMPI_STATUS_IGNORE,
                ),
                "MPI_Improbe",
            );
            if flag == 0 {
                return came;
            }
            check(
                m::MPI_Mrecv(
                    c.as_mut_ptr().cast(),
                    WORDS as i32,
                    m::RSMPI_UINT64_T,
                    &mut msg,
                    m::RSMPI_STATUS_IGNORE,
                ),
                "MPI_Mrecv",
            );
        }
        came += 1;
        f(decode(&c));
    }
}

/// Enters MPI's progress engine without receiving anything.
pub(super) fn poke(w: &World) {
    let mut flag = 0;
    // SAFETY: valid communicator and out-pointers.
    unsafe {
        check(
            m::MPI_Iprobe(
                m::RSMPI_ANY_SOURCE,
                NEVER,
                w.comm,
                &mut flag,
                m::RSMPI_STATUS_IGNORE,
            ),
            "MPI_Iprobe",
        )
    };
}
