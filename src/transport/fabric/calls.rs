//! Owner-side calls over libfabric (`transport/owner.rs`; the waiting and serving, and the
//! framing, are `transport/carrier.rs`'s, shared with MPI). A request or reply travels as
//! messages into the receive buffers the endpoint keeps posted ([`SLOT`] bytes each, the ones
//! notifications use): pieces of up to [`BODY`] bytes behind a [`HEADER`] naming the sender,
//! whether it is a reply and the whole message's length. The sender posts every piece of a
//! message under the endpoint lock, [`WINDOW`] at a time before waiting for their delivery (a
//! request's last window only once its reply came: one round trip less), and the endpoint
//! keeps sends to one peer in order (`FI_ORDER_SAS`), so a peer's pieces arrive
//! one message after another and are joined per sender (`collect` hands them to [`Calls`]).
//!
//! Why pieces and not an RMA read of a registered buffer: the messages of accessors are small
//! (a request is a few hundred bytes, descriptors and add_data; most replies a few words), and
//! one piece costs one delivered send where a read costs an announcement, the read, and a
//! message releasing the buffer — three round trips and a registration per message. Large
//! transfers (whole arrays through an accessor) cost a send per 4 KiB, posted a window at a
//! time, which keeps the link busy.

use super::ffi::{check, ff_send, SLOT};
use super::{Ep, Fabric};
use crate::transport::carrier::{self, frame, unframe, Carrier};
use crate::transport::owner::OwnerCalls;
use std::collections::{HashMap, VecDeque};

/// Bytes before a piece's part of the message: its length, then [`MARK`] | source | kind.
const HEADER: usize = 16;
/// Bytes of the message one piece carries at most.
const BODY: usize = SLOT - HEADER;
/// Pieces posted before waiting for their delivery.
const WINDOW: usize = 32;
/// Bit of a piece's second word that no notification sets there (its source, below 2^31).
const MARK: u64 = 1 << 31;
/// Bit of a piece's second word: the message is a reply.
const REPLY: u64 = 1 << 32;

/// A message some peer has begun to send.
#[derive(Debug)]
struct Partial {
    reply: bool,
    total: usize,
    bytes: Vec<u8>,
}

/// The owner-side calls' messages collected from the endpoint.
#[derive(Debug, Default)]
pub(super) struct Calls {
    /// Messages still arriving, by sender.
    partial: HashMap<usize, Partial>,
    /// Requests to serve: sender and framed request, in arrival order.
    requests: VecDeque<(usize, Vec<u8>)>,
    /// Replies to this image's calls, by sender and token.
    replies: HashMap<(usize, u32), Vec<u8>>,
}

/// The words of a piece's header.
fn header(source: usize, reply: bool, total: usize) -> [u64; 2] {
    let kind = if reply { REPLY } else { 0 };
    [total as u64, MARK | kind | source as u64]
}

/// Whether the message of `len` bytes in `msg` is a piece of an owner-side call.
pub(super) fn is_piece(msg: &[u64], len: usize) -> bool {
    len >= HEADER && msg[1] & MARK != 0
}

impl Calls {
    /// Takes the piece of `len` bytes in `msg`; a message it completes joins the requests or
    /// the replies.
    pub(super) fn take(&mut self, msg: &[u64], len: usize) {
        let (total, word) = (msg[0] as usize, msg[1]);
        let source = (word & (MARK - 1)) as usize;
        let p = self.partial.entry(source).or_insert_with(|| Partial {
            reply: word & REPLY != 0,
            total,
            bytes: Vec::with_capacity(total.min(1 << 24)),
        });
        // SAFETY: `msg` holds at least `len` initialised bytes (`len` ≤ SLOT).
        let all = unsafe { std::slice::from_raw_parts(msg.as_ptr().cast::<u8>(), len) };
        p.bytes.extend_from_slice(&all[HEADER..]);
        if p.bytes.len() < p.total {
            return;
        }
        let Some(p) = self.partial.remove(&source) else {
            return;
        };
        if !p.reply {
            self.requests.push_back((source, p.bytes));
        } else if let Some((token, body)) = unframe(&p.bytes) {
            self.replies.insert((source, token), body.to_vec());
        }
    }

    /// Whether requests wait to be served.
    pub(super) fn asked(&self) -> bool {
        !self.requests.is_empty()
    }
}

impl Fabric {
    /// Posts the framed message `msg` (never empty) to `image` in pieces, waiting for the
    /// delivery of every full window; returns the last window's pieces, not waited for (they
    /// must live until a wait on `ep` has returned).
    fn post_message(&self, ep: &mut Ep, image: usize, reply: bool, msg: &[u8]) -> Vec<Vec<u64>> {
        let head = header(self.me, reply, msg.len());
        let mut window: Vec<Vec<u64>> = Vec::with_capacity(WINDOW);
        for chunk in msg.chunks(BODY) {
            let mut piece = vec![0u64; (HEADER + chunk.len()).div_ceil(8)];
            piece[..2].copy_from_slice(&head);
            // SAFETY: `piece` holds HEADER + chunk.len() bytes (rounded up to words).
            let bytes = unsafe {
                std::slice::from_raw_parts_mut(piece.as_mut_ptr().cast::<u8>(), 8 * piece.len())
            };
            bytes[HEADER..HEADER + chunk.len()].copy_from_slice(chunk);
            // SAFETY: an open endpoint; `piece` stays alive, its heap buffer unmoved, until the
            // sends are waited for below.
            let rc = unsafe { ff_send(ep.ff, image, piece.as_ptr().cast(), HEADER + chunk.len()) };
            check(rc, "fi_sendmsg");
            window.push(piece);
            if window.len() == WINDOW {
                self.wait(ep);
                window.clear();
            }
        }
        window
    }

    /// Serves the requests that have arrived for this image.
    pub(super) fn serve_calls(&self) {
        carrier::serve(self);
    }
}

impl Carrier for Fabric {
    /// The request's last pieces, posted and not yet waited for: the reply comes no sooner
    /// than a round trip, so waiting for their delivery first would add one.
    type Sent = Vec<Vec<u64>>;

    fn token(&self, call: u32) -> u32 {
        call
    }

    fn send_request(&self, image: usize, msg: Vec<u8>) -> Vec<Vec<u64>> {
        let mut ep = self.lock();
        self.post_message(&mut ep, image, false, &msg)
    }

    fn reply(&self, image: usize, token: u32) -> Option<Vec<u8>> {
        let mut ep = self.lock();
        self.collect(&mut ep);
        ep.calls.replies.remove(&(image, token))
    }

    fn next_request(&self) -> Option<(usize, Vec<u8>)> {
        let mut ep = self.lock();
        if !ep.calls.asked() {
            self.collect(&mut ep);
        }
        ep.calls.requests.pop_front()
    }

    /// Waits only for delivery, which the receiver's provider completes whatever it is doing
    /// (the shim keeps receive buffers posted while waiting).
    fn send_reply(&self, image: usize, token: u32, reply: Vec<u8>) {
        let msg = frame(token, &reply);
        let mut ep = self.lock();
        let _last = self.post_message(&mut ep, image, true, &msg);
        self.wait(&mut ep);
    }

    /// The owner replied, so it had the request: the wait only reaps the completions.
    fn done(&self, sent: Vec<Vec<u64>>) {
        let mut ep = self.lock();
        self.wait(&mut ep);
        drop(sent);
    }

    /// The pieces are leaked, never freed: their sends may still be in the provider's hands
    /// (later waits reap the completions, not the memory), as MPI's `give_up` leaks its buffer.
    fn give_up(&self, sent: Vec<Vec<u64>>) {
        std::mem::forget(sent);
    }
}

impl OwnerCalls for Fabric {
    fn call(
        &self,
        image: usize,
        request: &[u8],
        gone: &mut dyn FnMut() -> bool,
    ) -> Option<Vec<u8>> {
        carrier::call(self, image, request, gone)
    }

    fn serve(&self) {
        self.serve_calls();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pieces `send_message` makes of `msg` from `source`, as the receiver gets them.
    fn pieces(source: usize, reply: bool, msg: &[u8]) -> Vec<(Vec<u64>, usize)> {
        let head = header(source, reply, msg.len());
        let mut out = Vec::new();
        for chunk in msg.chunks(BODY) {
            let mut piece = vec![0u64; SLOT / 8];
            piece[..2].copy_from_slice(&head);
            for (k, b) in chunk.iter().enumerate() {
                let (w, s) = ((HEADER + k) / 8, 8 * ((HEADER + k) % 8));
                piece[w] |= u64::from(*b) << s;
            }
            out.push((piece, HEADER + chunk.len()));
        }
        out
    }

    #[test]
    fn interleaved_senders_are_joined_per_sender() {
        let big: Vec<u8> = (0..3 * BODY + 5).map(|i| i as u8).collect();
        let request = frame(0, &big);
        let reply = frame(9, b"answer");
        let (a, b) = (pieces(3, false, &request), pieces(5, true, &reply));
        assert_eq!(a.len(), 4);
        let mut calls = Calls::default();
        for (k, (msg, len)) in a.iter().enumerate() {
            assert!(is_piece(msg, *len));
            calls.take(msg, *len);
            if k == 1 {
                let (msg, len) = &b[0];
                calls.take(msg, *len);
            }
            assert_eq!(calls.asked(), k == 3);
        }
        assert_eq!(calls.requests.pop_front(), Some((3, request)));
        assert_eq!(calls.replies.remove(&(5, 9)), Some(b"answer".to_vec()));
    }

    #[test]
    fn notification_cells_are_not_pieces() {
        use crate::transport::wire::encode;
        let n = crate::transport::Notification {
            source: 4095,
            tag: u64::MAX,
            bytes: 0x7fff_ffff,
            offset: u64::MAX,
            inline: true,
            payload: [0xff; crate::transport::ring::INLINE],
        };
        assert!(!is_piece(&encode(&n), 64));
    }
}
