//! Owner-side calls: a request that only the image owning some memory can carry out (a GCC 15+
//! accessor, which follows the owner's own pointers) travels to that image as a message, runs
//! there, and its reply travels back. The transport moves the bytes; the layer above
//! interprets them through the one server it registers here ([`set_server`]).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

/// The longest request or reply a transport carries (an MPI count is an `int`; a few bytes
/// of framing).
pub const MAX_MESSAGE: usize = i32::MAX as usize - 64;

/// Carries out one request from image `source` (0-based) on this image and returns the reply.
pub type Server = fn(source: usize, request: &[u8]) -> Vec<u8>;

static SERVER: OnceLock<Server> = OnceLock::new();

/// Whether other images may send this one requests (set by the transport at start).
static SERVES: AtomicBool = AtomicBool::new(false);

/// Requests this image has served so far.
static SERVED: AtomicU64 = AtomicU64::new(0);

/// Records that other images may send this one requests: some image's memory is not mapped
/// at its owner's address here (so not in theirs either).
pub fn set_serving() {
    SERVES.store(true, Ordering::Relaxed);
}

/// Whether [`set_serving`] was called: one load, for the statements that serve on the way.
#[inline]
pub fn serving() -> bool {
    SERVES.load(Ordering::Relaxed)
}

/// Registers the function that serves requests addressed to this image (the first
/// registration wins; every image registers the same one).
pub fn set_server(f: Server) {
    let _ = SERVER.set(f);
}

/// The registered server, if any: until one is registered, requests stay queued.
pub fn server() -> Option<Server> {
    SERVER.get().copied()
}

/// Counts one request served (`carrier::serve_one`).
#[cfg(any(feature = "mpi", feature = "fabric"))]
pub(crate) fn count_served() {
    SERVED.fetch_add(1, Ordering::Relaxed);
}

/// Requests this image has served so far: a polling wait that sees it move serves a caller
/// that is likely to call again soon (a loop of coindexed references), and polls at once
/// again instead of napping (`engine/wait.rs`).
pub fn served() -> u64 {
    SERVED.load(Ordering::Relaxed)
}

/// Capability of a transport whose images do not all map each other's memory.
pub trait OwnerCalls {
    /// Sends `request` to `image` and returns its reply, serving the requests other images
    /// address to this one meanwhile (two images calling each other at once both progress).
    /// `None` when `gone` (asked now and then while waiting) says the owner will never answer.
    fn call(&self, image: usize, request: &[u8], gone: &mut dyn FnMut() -> bool)
        -> Option<Vec<u8>>;
    /// Serves the requests that have arrived for this image. Waits serve through
    /// `Transport::progress`; statements a program may spin on without waiting (atomics,
    /// EVENT_QUERY, SYNC MEMORY) call this, so that an image spinning on a flag still answers
    /// the image that will set it.
    fn serve(&self);
}
