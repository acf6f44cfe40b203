//! Counted puts (`FERROCAF_FABRIC_NOTIFY=counting`, the default where the provider has
//! FI_RMA_EVENT): the OpenSHMEM counting put. Every image opens a second endpoint, the counting
//! endpoint, bound to a counter of the remote writes into it, and nothing but counted puts is
//! sent to it. A put into memory attached to the image's counted event — the first event it
//! attached (attachments are symmetric, so every image names the same one) — is one write to
//! the target's counting endpoint: the target's counter goes up once the data is there, and
//! the counter minus what EVENT WAIT took is the count of posts that came that way (EVENT
//! QUERY and EVENT WAIT add it to the event's other posts). The write carries no source and no
//! tag, which is why one counter serves one event: puts into memory attached to any other event
//! stay notified puts (`fi_writedata`), whose immediate data names the event.
//!
//! Memory regions are per domain (providers whose regions are bound to one endpoint,
//! FI_MR_ENDPOINT, get no counting endpoint), so the segment's key serves both endpoints and
//! attaching or detaching registers nothing.

use super::ffi::{check, ff_count_add, ff_counted, Iov};
use super::rma::Mark;
use super::Fabric;
use std::sync::atomic::{fence, AtomicU64, Ordering};
use std::sync::OnceLock;

/// This image's counting state.
#[derive(Debug, Default)]
pub(super) struct Counting {
    /// Every image has a counting endpoint and counted puts are wanted.
    on: bool,
    /// The counted event's slot, fixed by the first `event_attach`.
    slot: OnceLock<usize>,
    /// Posts taken from the counter by EVENT WAIT (only this image takes).
    taken: AtomicU64,
}

impl Counting {
    /// The state of an image that counts puts if `on`.
    pub(super) fn new(on: bool) -> Counting {
        Counting {
            on,
            ..Counting::default()
        }
    }

    /// Whether this image has a counting endpoint in use.
    pub(super) fn on(&self) -> bool {
        self.on
    }

    /// Notes an `event_attach` to `slot`: the first fixes the counted event.
    pub(super) fn attach(&self, slot: usize) {
        if self.on {
            self.slot.get_or_init(|| slot);
        }
    }

    /// Whether `slot` is the counted event.
    pub(super) fn is(&self, slot: usize) -> bool {
        self.on && self.slot.get() == Some(&slot)
    }

    /// Posts not yet taken, with `total` the counter's value.
    pub(super) fn available(&self, total: u64) -> u64 {
        total.wrapping_sub(self.taken.load(Ordering::Relaxed))
    }

    /// Takes `k` posts.
    pub(super) fn take(&self, k: u64) {
        self.taken.fetch_add(k, Ordering::Relaxed);
    }
}

impl Fabric {
    /// The counter of counted puts into this image (progressing its counting endpoint); the
    /// data of every put it counts is visible on return.
    pub(super) fn arrived_count(&self) -> u64 {
        let ep = self.lock();
        // SAFETY: an open endpoint, under its lock.
        let c = unsafe { ff_counted(ep.ff) };
        fence(Ordering::Acquire);
        c
    }

    /// A counted put of `n` bytes from `src` to `(image, offset)`, memory attached to event
    /// `slot`; false, having done nothing, unless `slot` is the counted event.
    pub(super) fn counted_put(
        &self,
        image: usize,
        offset: usize,
        src: usize,
        n: usize,
        slot: usize,
    ) -> bool {
        if !self.count.is(slot) {
            return false;
        }
        let mut ep = self.lock();
        if image == self.me {
            // SAFETY: `src` is readable for `n` bytes (caller) and the destination lies in
            // this image's segment; `copy` allows overlap.
            unsafe { std::ptr::copy(src as *const u8, (self.seg + offset) as *mut u8, n) };
            fence(Ordering::Release);
            // SAFETY: an open endpoint with a counter (counting is on).
            check(unsafe { ff_count_add(ep.ff) }, "fi_cntr_add");
            return true;
        }
        let l = [Iov { base: src, len: n }];
        let r = [self.piece(image, offset, n)];
        self.post(&mut ep, true, image, &l, &r, Mark::Count);
        self.wait(&mut ep);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_attached_event_is_counted() {
        let c = Counting::new(true);
        assert!(!c.is(64), "nothing attached yet");
        c.attach(64);
        c.attach(128);
        assert!(c.is(64));
        assert!(!c.is(128), "later events stay notified");
    }

    #[test]
    fn without_a_counting_endpoint_nothing_is_counted() {
        let c = Counting::new(false);
        c.attach(64);
        assert!(!c.is(64));
        assert!(!c.on());
    }

    #[test]
    fn taken_posts_are_not_available_again() {
        let c = Counting::new(true);
        assert_eq!(c.available(5), 5);
        c.take(3);
        assert_eq!(c.available(5), 2);
        assert_eq!(c.available(7), 4);
        c.take(4);
        assert_eq!(c.available(7), 0);
    }
}
