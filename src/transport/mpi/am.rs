//! Owner-side calls over MPI (`transport/owner.rs`; the waiting and serving are
//! `transport/carrier.rs`'s): a request is one message with tag [`REQUEST`] on the transport's
//! private communicator, its frame naming the tag of the reply (one per call this image has
//! outstanding, so nested calls never take each other's replies); the reply is one message
//! with that tag. The owner receives requests whenever it enters the runtime (`serve`, called
//! by `progress`, which every wait calls); a caller waiting for its reply serves the requests
//! addressed to it meanwhile, so two images calling each other at once both get their answers,
//! and an owner's request back to its caller (an accessor reading the caller's add_data) is
//! served by the waiting caller. Replies leave with `MPI_Isend` and are completed later
//! ([`OUTGOING`]): a blocking `MPI_Send` of a long reply (past the eager limit) waited for its
//! receiver, and two images serving each other's long requests from inside their own calls
//! waited for each other for ever (`accessor_large.f90`).

use super::world::{check, null_handle, World};
use crate::transport::carrier::Carrier;
use mpi_sys as m;
use std::sync::Mutex;

use super::tags::{REPLY, REQUEST};
/// Distinct reply tags (MPI guarantees tags up to 32767).
const REPLY_TAGS: u32 = 16384;

/// Receives one message from `source` (or any) with `tag` if one has arrived: its sender and
/// bytes.
fn receive(w: &World, source: i32, tag: i32) -> Option<(usize, Vec<u8>)> {
    let (mut flag, mut msg, mut count) = (0, null_handle(), 0);
    // SAFETY: an MPI_Status is plain integers: all-zero is a valid value, overwritten below.
    let mut status: m::MPI_Status = unsafe { std::mem::zeroed() };
    // SAFETY: valid communicator and out-pointers; a matched message is received whole into
    // `buf`, which holds `count` bytes.
    unsafe {
        check(
            m::MPI_Improbe(source, tag, w.comm, &mut flag, &mut msg, &mut status),
            "MPI_Improbe",
        );
        if flag == 0 {
            return None;
        }
        check(
            m::MPI_Get_count(&status, m::RSMPI_UINT8_T, &mut count),
            "MPI_Get_count",
        );
        let mut buf = vec![0u8; count.max(0) as usize];
        check(
            m::MPI_Mrecv(
                buf.as_mut_ptr().cast(),
                count,
                m::RSMPI_UINT8_T,
                &mut msg,
                m::RSMPI_STATUS_IGNORE,
            ),
            "MPI_Mrecv",
        );
        Some((status.MPI_SOURCE as usize, buf))
    }
}

/// The length of `bytes` as an MPI count (the layer above keeps messages within
/// [`crate::transport::owner::MAX_MESSAGE`]).
fn count(bytes: &[u8]) -> i32 {
    bytes.len().min(i32::MAX as usize) as i32
}

/// Replies sent and not yet known to be complete, with their buffers (which live until then).
struct Outgoing(Vec<(m::MPI_Request, Vec<u8>)>);

// SAFETY: MPI handles are valid in any thread and the transport serialises its MPI calls
// (`World`); the buffers are plain bytes.
unsafe impl Send for Outgoing {}

/// This image's replies on their way.
static OUTGOING: Mutex<Outgoing> = Mutex::new(Outgoing(Vec::new()));

/// Releases the replies whose sends have completed; the others stay.
fn retire(out: &mut Outgoing) {
    out.0.retain_mut(|(request, _)| {
        let mut done = 0;
        // SAFETY: an active request of this process; a completed one is freed by MPI_Test and
        // its buffer dropped with the entry.
        unsafe {
            check(
                m::MPI_Test(request, &mut done, m::RSMPI_STATUS_IGNORE),
                "MPI_Test",
            )
        };
        done == 0
    });
}

/// A request being sent: its buffer and the MPI request of its `MPI_Isend`.
pub(super) struct Sent {
    msg: Vec<u8>,
    request: m::MPI_Request,
}

impl Carrier for World {
    type Sent = Sent;

    fn token(&self, call: u32) -> u32 {
        REPLY as u32 + call % REPLY_TAGS
    }

    fn send_request(&self, image: usize, msg: Vec<u8>) -> Sent {
        let mut sent = Sent {
            msg,
            request: null_handle(),
        };
        // SAFETY: `sent.msg` stays alive and unmoved (a Vec's heap buffer) until the send
        // completes (`done`) or is leaked with its request (`give_up`).
        unsafe {
            check(
                m::MPI_Isend(
                    sent.msg.as_ptr().cast(),
                    count(&sent.msg),
                    m::RSMPI_UINT8_T,
                    image as i32,
                    REQUEST,
                    self.comm,
                    &mut sent.request,
                ),
                "MPI_Isend",
            )
        };
        sent
    }

    fn reply(&self, image: usize, token: u32) -> Option<Vec<u8>> {
        receive(self, image as i32, token as i32).map(|(_, reply)| reply)
    }

    fn next_request(&self) -> Option<(usize, Vec<u8>)> {
        let mut out = OUTGOING.lock().unwrap_or_else(|p| p.into_inner());
        if !out.0.is_empty() {
            retire(&mut out);
        }
        drop(out);
        // SAFETY: a constant of the bindings, valid after MPI_Init.
        receive(self, unsafe { m::RSMPI_ANY_SOURCE }, REQUEST)
    }

    fn send_reply(&self, image: usize, token: u32, reply: Vec<u8>) {
        let mut request = null_handle();
        // SAFETY: `reply` holds `count` bytes and stays alive, its heap buffer unmoved, in
        // OUTGOING until the send completes (`retire`); the communicator is valid until
        // finalize.
        unsafe {
            check(
                m::MPI_Isend(
                    reply.as_ptr().cast(),
                    count(&reply),
                    m::RSMPI_UINT8_T,
                    image as i32,
                    token as i32,
                    self.comm,
                    &mut request,
                ),
                "MPI_Isend",
            )
        };
        let mut out = OUTGOING.lock().unwrap_or_else(|p| p.into_inner());
        out.0.push((request, reply));
    }

    fn done(&self, mut sent: Sent) {
        // SAFETY: the owner received the request before replying: the send is complete.
        unsafe {
            check(
                m::MPI_Wait(&mut sent.request, m::RSMPI_STATUS_IGNORE),
                "MPI_Wait",
            )
        };
    }

    fn give_up(&self, mut sent: Sent) {
        // SAFETY: an active send request may be freed; its buffer must then outlive it, hence
        // the leak.
        unsafe { check(m::MPI_Request_free(&mut sent.request), "MPI_Request_free") };
        std::mem::forget(sent.msg);
    }
}
