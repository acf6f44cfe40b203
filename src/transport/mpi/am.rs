//! Owner-side calls over MPI (`transport/owner.rs`): a request is one message with tag
//! [`REQUEST`] on the transport's private communicator, its first word naming the tag of the
//! reply (one per call this image has outstanding, so nested calls never take each other's
//! replies). The owner receives requests whenever it enters the runtime ([`serve`], called by
//! `progress`, which every wait calls) and answers with one message; a caller waiting for its
//! reply serves the requests addressed to it meanwhile, so two images calling each other at
//! once both get their answers, and an owner's request back to its caller (an accessor reading
//! the caller's add_data) is served by the waiting caller.

use super::world::{check, null_handle, World};
use crate::transport::owner;
use mpi_sys as m;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use super::tags::{REPLY, REQUEST};
/// Distinct reply tags (MPI guarantees tags up to 32767).
const REPLY_TAGS: u32 = 16384;
/// Bytes before the request proper: the reply's tag, padded to 8.
const PREFIX: usize = 8;
/// Turns of a caller's wait between two questions whether the owner is gone.
const ASK_EVERY: u32 = 64;
/// Turns a caller yields the processor before it starts to nap.
const YIELDS: u32 = 64;
/// A waiting caller's longest nap.
const LONGEST_NAP: Duration = Duration::from_millis(1);

/// Calls made by this image so far (names the reply tag of the next one).
static CALLS: AtomicU32 = AtomicU32::new(0);

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
/// [`owner::MAX_MESSAGE`]).
fn count(bytes: &[u8]) -> i32 {
    bytes.len().min(i32::MAX as usize) as i32
}

/// Serves every request that has arrived for this image (none until the layer above has
/// registered its server).
pub(super) fn serve(w: &World) {
    while serve_one(w) {}
}

/// Serves one request if one has arrived for this image (and the layer above has registered
/// its server); false if none was served. A probe that finds nothing enters MPI's progress
/// engine, one that finds a request need not.
pub(super) fn serve_one(w: &World) -> bool {
    let Some(server) = owner::server() else {
        return false;
    };
    // SAFETY: a constant of the bindings, valid after MPI_Init.
    let any = unsafe { m::RSMPI_ANY_SOURCE };
    let Some((source, msg)) = receive(w, any, REQUEST) else {
        return false;
    };
    let Some((tag, request)) = msg.split_first_chunk::<4>().filter(|_| msg.len() >= PREFIX) else {
        return true;
    };
    let tag = i32::from_ne_bytes(*tag);
    let reply = server(source, &request[PREFIX - 4..]);
    // SAFETY: `reply` holds `count` bytes; the communicator is valid until finalize. The
    // caller waits for this reply, probing, so a long one cannot block for good.
    unsafe {
        check(
            m::MPI_Send(
                reply.as_ptr().cast(),
                count(&reply),
                m::RSMPI_UINT8_T,
                source as i32,
                tag,
                w.comm,
            ),
            "MPI_Send",
        )
    };
    true
}

/// Sends `request` to `image`, then waits for its reply while serving requests to this image;
/// `None` when `gone()` says the owner will never answer.
pub(super) fn call(
    w: &World,
    image: usize,
    request: &[u8],
    gone: &mut dyn FnMut() -> bool,
) -> Option<Vec<u8>> {
    let tag = REPLY + (CALLS.fetch_add(1, Ordering::Relaxed) % REPLY_TAGS) as i32;
    let mut msg = Vec::with_capacity(PREFIX + request.len());
    msg.extend_from_slice(&tag.to_ne_bytes());
    msg.resize(PREFIX, 0);
    msg.extend_from_slice(request);
    let mut sent = null_handle();
    // SAFETY: `msg` stays alive and unmoved until the send completes (MPI_Wait below) or is
    // leaked with its request.
    unsafe {
        check(
            m::MPI_Isend(
                msg.as_ptr().cast(),
                count(&msg),
                m::RSMPI_UINT8_T,
                image as i32,
                REQUEST,
                w.comm,
                &mut sent,
            ),
            "MPI_Isend",
        )
    };
    let (mut turn, mut nap) = (0u32, Duration::from_micros(20));
    loop {
        if let Some((_, reply)) = receive(w, image as i32, tag) {
            // SAFETY: the owner received the request before replying: the send is complete.
            unsafe { check(m::MPI_Wait(&mut sent, m::RSMPI_STATUS_IGNORE), "MPI_Wait") };
            return Some(reply);
        }
        serve(w);
        turn = turn.wrapping_add(1);
        if turn.is_multiple_of(ASK_EVERY) && gone() {
            // SAFETY: an active send request may be freed; its buffer must then outlive it,
            // hence the leak.
            unsafe { check(m::MPI_Request_free(&mut sent), "MPI_Request_free") };
            std::mem::forget(msg);
            return None;
        }
        if turn < YIELDS {
            std::thread::yield_now();
        } else {
            std::thread::sleep(nap);
            nap = (nap * 2).min(LONGEST_NAP);
        }
    }
}
