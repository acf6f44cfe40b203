//! Notifications as eager messages: one 64-byte cell per notification, sent with `MPI_Send` on
//! the transport's private communicator and received in arrival order with
//! `MPI_Improbe`/`MPI_Mrecv` (matched probes, safe with several threads).

use super::world::{check, World};
use crate::transport::ring::INLINE;
use crate::transport::Notification;
use mpi_sys as m;

/// Tag of notification messages on the private communicator.
const TAG: i32 = 1;
/// A tag nothing is sent with: probing for it always enters the progress engine (a probe
/// that finds a message may return without progressing, and a notification that has arrived
/// but is not received yet then kept MPICH from serving remote atomics on this image).
const NEVER: i32 = 2;
/// Words per cell: tag, source|bytes|inline, offset, then the inline payload.
const WORDS: usize = 3 + INLINE / 8;
/// Flag bit of the second word: the payload travels inline.
const INLINE_BIT: u64 = 1 << 63;

/// Encodes `n` as a cell.
pub(super) fn encode(n: &Notification) -> [u64; WORDS] {
    let mut c = [0u64; WORDS];
    c[0] = n.tag;
    c[1] = n.source as u64 | (n.bytes as u64) << 32 | if n.inline { INLINE_BIT } else { 0 };
    c[2] = n.offset;
    for (k, chunk) in n.payload.chunks_exact(8).enumerate() {
        c[3 + k] = u64::from_ne_bytes(chunk.try_into().expect("8-byte chunk"));
    }
    c
}

/// Decodes a cell.
pub(super) fn decode(c: &[u64; WORDS]) -> Notification {
    let mut payload = [0u8; INLINE];
    for (k, chunk) in payload.chunks_exact_mut(8).enumerate() {
        chunk.copy_from_slice(&c[3 + k].to_ne_bytes());
    }
    Notification {
        tag: c[0],
        source: c[1] as u32,
        bytes: (c[1] >> 32) as u32 & 0x7fff_ffff,
        inline: c[1] & INLINE_BIT != 0,
        offset: c[2],
        payload,
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_round_trip() {
        let mut payload = [0u8; INLINE];
        payload
            .iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = i as u8);
        let n = Notification {
            source: 7,
            tag: u64::MAX - 3,
            bytes: 24,
            offset: 1 << 40,
            inline: true,
            payload,
        };
        assert_eq!(decode(&encode(&n)), n);
        let m = Notification { inline: false, ..n };
        assert_eq!(decode(&encode(&m)), m);
    }
}
