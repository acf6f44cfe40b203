//! A large put in progress, announced to its target. A put of 256 KiB takes some 10 µs, 1 MiB
//! some 40 (streaming stores at memory bandwidth, `shm/stream.rs`): longer than the polls of a
//! wait under outside load (`engine/wait.rs`, at most 256 polls, about 6 µs), so without the
//! announcement the target's EVENT WAIT went to sleep in the middle of every message and was
//! woken after it, the wake-up waiting behind the CPU-bound neighbour on its core. With it, the
//! wait sees that its notification is on the way and keeps polling until the put has landed.

use super::control::Header;
use std::sync::atomic::Ordering;

/// Counts a put into the image of `header` while it lives (its `incoming` word).
pub struct Landing<'a> {
    header: &'a Header,
}

impl<'a> Landing<'a> {
    /// Announces a put into the image of `header`, until the value is dropped.
    pub fn announce(header: &'a Header) -> Landing<'a> {
        header.incoming.fetch_add(1, Ordering::Relaxed);
        Landing { header }
    }
}

impl Drop for Landing<'_> {
    fn drop(&mut self) {
        self.header.incoming.fetch_sub(1, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::Landing;
    use crate::transport::control::Header;
    use std::sync::atomic::Ordering;

    #[test]
    fn counts_the_puts_in_progress() {
        // SAFETY: a Header is atomics and padding: all-zero bytes are a valid value.
        let h: Header = unsafe { std::mem::zeroed() };
        let a = Landing::announce(&h);
        let b = Landing::announce(&h);
        assert_eq!(h.incoming.load(Ordering::Relaxed), 2);
        drop(a);
        assert_eq!(h.incoming.load(Ordering::Relaxed), 1);
        drop(b);
        assert_eq!(h.incoming.load(Ordering::Relaxed), 0);
    }
}
