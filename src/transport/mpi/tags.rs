//! The message tags of the transport's private communicator, in one place: two kinds of
//! message sharing a tag are received as each other (signals and accessor requests once did,
//! and the larger request was truncated into a signal's buffer).

/// Notifications (`note.rs`).
pub(super) const NOTE: i32 = 1;
/// A tag nothing is sent with: probing for it always enters the progress engine (a probe
/// that finds a message may return without progressing, and a notification that has arrived
/// but is not received yet then kept MPICH from serving remote atomics on this image).
pub(super) const NEVER: i32 = 2;
/// Owner-side call requests (`am.rs`).
pub(super) const REQUEST: i32 = 3;
/// Signals: counter increments of barriers and SYNC IMAGES (`signal.rs`).
pub(super) const SIGNAL: i32 = 4;
/// First tag of owner-side call replies (`am.rs`); every tag from here up is a reply.
pub(super) const REPLY: i32 = 16;
