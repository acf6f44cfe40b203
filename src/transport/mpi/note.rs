//! Notifications as eager messages: one 64-byte cell per notification (`transport/wire.rs`), sent with `MPI_Send` on
//! the transport's private communicator and received in arrival order with
//! `MPI_Improbe`/`MPI_Mrecv` (matched probes, safe with several threads).

use super::world::{check, World};
use crate::transport::wire::{decode, encode, WORDS};
use crate::transport::Notification;
use mpi_sys as m;

use super::tags::{NEVER, NOTE as TAG};
use super::words;

/// Sends `n` to `image` (the data it announces was completed by the put before it).
pub(super) fn send(w: &World, image: usize, n: &Notification) {
    words::send(w, image, TAG, &encode(n));
}

/// Hands every notification that has arrived to `f`, in arrival order; returns how many came.
pub(super) fn receive(w: &World, f: &mut dyn FnMut(Notification)) -> u32 {
    let mut came = 0;
    let mut c = [0u64; WORDS];
    while words::try_receive(w, TAG, &mut c) {
        came += 1;
        f(decode(&c));
    }
    came
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
