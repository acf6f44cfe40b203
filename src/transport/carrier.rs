//! The transport-neutral half of owner-side calls (`owner.rs`): how a call waits for its reply
//! while serving, and how an owner serves what has arrived. A transport supplies only the
//! moving of messages ([`Carrier`]); the MPI transport carries them as tagged messages
//! (`mpi/am.rs`), the fabric transport as sends in pieces (`fabric/calls.rs`).
//!
//! Framing: a request is [`PREFIX`] bytes naming the token its reply must carry, then the
//! request proper. Tokens tell apart the calls this image has outstanding (nested calls: an
//! owner's request back to its caller while the caller waits), so no call takes another's
//! reply.

use super::backoff::Schedule;
use super::owner;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// Bytes before the request proper: the reply's token, padded to 8.
pub(crate) const PREFIX: usize = 8;
/// Turns of a caller's wait between two questions whether the owner is gone.
const ASK_EVERY: u32 = 64;
/// A caller's pauses between turns: 64 yields of the processor (while yields pay), then naps
/// from 20 µs doubling to 1 ms.
const PAUSES: Schedule = Schedule::new(0, 64, Duration::from_micros(20), Duration::from_millis(1));

/// Calls made by this image so far (numbers the next one).
static CALLS: AtomicU32 = AtomicU32::new(0);

/// How a transport moves the requests and replies of owner-side calls.
pub(crate) trait Carrier {
    /// A request on its way, kept until its reply came or the call was given up.
    type Sent;
    /// The token the reply to this image's call number `call` carries.
    fn token(&self, call: u32) -> u32;
    /// Starts sending the framed request `msg` to `image`.
    fn send_request(&self, image: usize, msg: Vec<u8>) -> Self::Sent;
    /// The reply from `image` carrying `token`, if it has arrived.
    fn reply(&self, image: usize, token: u32) -> Option<Vec<u8>>;
    /// The next request that has arrived for this image: its source and framed bytes.
    fn next_request(&self) -> Option<(usize, Vec<u8>)>;
    /// Sends `reply`, carrying `token`, to `image` (which is waiting for it, serving). It must
    /// not wait for `image` to receive it: `image` may be serving this image's request
    /// meanwhile, sending its own reply.
    fn send_reply(&self, image: usize, token: u32, reply: Vec<u8>);
    /// Releases a request whose reply came.
    fn done(&self, sent: Self::Sent);
    /// Releases a request whose owner will never answer.
    fn give_up(&self, sent: Self::Sent);
}

/// `request` framed for a reply carrying `token`.
pub(crate) fn frame(token: u32, request: &[u8]) -> Vec<u8> {
    let mut msg = Vec::with_capacity(PREFIX + request.len());
    msg.extend_from_slice(&token.to_ne_bytes());
    msg.resize(PREFIX, 0);
    msg.extend_from_slice(request);
    msg
}

/// The token and request of a framed message (`None` when shorter than the frame).
pub(crate) fn unframe(msg: &[u8]) -> Option<(u32, &[u8])> {
    let (token, _) = msg.split_first_chunk::<4>()?;
    Some((u32::from_ne_bytes(*token), msg.get(PREFIX..)?))
}

/// Serves every request that has arrived for this image (none until the layer above has
/// registered its server: they stay queued).
pub(crate) fn serve(c: &impl Carrier) {
    while serve_one(c) {}
}

/// Serves one request if one has arrived for this image and the layer above has registered
/// its server; false if none was served (over MPI, a probe that finds nothing enters the
/// progress engine, one that finds a request need not).
pub(crate) fn serve_one(c: &impl Carrier) -> bool {
    let Some(server) = owner::server() else {
        return false;
    };
    let Some((source, msg)) = c.next_request() else {
        return false;
    };
    if let Some((token, request)) = unframe(&msg) {
        let reply = server(source, request);
        c.send_reply(source, token, reply);
        owner::count_served();
    }
    true
}

/// Sends `request` to `image`, then waits for its reply while serving requests to this image,
/// yielding between polls while that pays, then napping ([`Backoff`]); `None` when `gone()`
/// says the owner will never answer.
pub(crate) fn call(
    c: &impl Carrier,
    image: usize,
    request: &[u8],
    gone: &mut dyn FnMut() -> bool,
) -> Option<Vec<u8>> {
    let token = c.token(CALLS.fetch_add(1, Ordering::Relaxed));
    let sent = c.send_request(image, frame(token, request));
    let (mut turn, mut idle) = (0u32, 0);
    loop {
        if let Some(reply) = c.reply(image, token) {
            c.done(sent);
            return Some(reply);
        }
        serve(c);
        turn = turn.wrapping_add(1);
        if turn.is_multiple_of(ASK_EVERY) && gone() {
            c.give_up(sent);
            return None;
        }
        PAUSES.pause(&mut idle);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    /// A carrier holding queued requests and keeping the replies sent.
    #[derive(Default)]
    struct Queue {
        requests: RefCell<Vec<(usize, Vec<u8>)>>,
        replies: RefCell<Vec<(usize, u32, Vec<u8>)>>,
    }

    impl Carrier for Queue {
        type Sent = ();
        fn token(&self, call: u32) -> u32 {
            call
        }
        fn send_request(&self, _: usize, _: Vec<u8>) {}
        fn reply(&self, _: usize, _: u32) -> Option<Vec<u8>> {
            None
        }
        fn next_request(&self) -> Option<(usize, Vec<u8>)> {
            self.requests.borrow_mut().pop()
        }
        fn send_reply(&self, image: usize, token: u32, reply: Vec<u8>) {
            self.replies.borrow_mut().push((image, token, reply));
        }
        fn done(&self, _: ()) {}
        fn give_up(&self, _: ()) {}
    }

    #[test]
    fn serving_answers_and_counts_every_request() {
        owner::set_server(|_, request| request.to_vec());
        let q = Queue::default();
        q.requests
            .borrow_mut()
            .extend([(1, frame(5, b"a")), (3, frame(6, b"bc"))]);
        let before = owner::served();
        serve(&q);
        assert!(owner::served() >= before + 2);
        assert_eq!(
            *q.replies.borrow(),
            [(3, 6, b"bc".to_vec()), (1, 5, b"a".to_vec())]
        );
    }

    #[test]
    fn frames_round_trip() {
        let msg = frame(0xdead_beef, b"abc");
        assert_eq!(msg.len(), PREFIX + 3);
        assert_eq!(unframe(&msg), Some((0xdead_beef, &b"abc"[..])));
        assert_eq!(unframe(&frame(7, b"")), Some((7, &b""[..])));
        assert_eq!(unframe(&[1, 2, 3]), None);
        assert_eq!(unframe(&[1, 2, 3, 4, 5]), None);
    }
}
