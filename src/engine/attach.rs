//! Event attachment (the notified-access extension for Fortran): after `event_attach(ev, x)`,
//! every put into the attached byte range of `x` on image j posts `ev` on image j, after the
//! data is visible there (optionally gets too). Attachments are symmetric — every image
//! executes the same attach — so the sender's own table describes the target's attachments
//! and a put needs no extra round trip to find out.

use crate::error::{CafError, CafResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::RwLock;

/// One attachment: segment byte range `[start, end)` notifies the event at segment offset `slot`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attachment {
    /// First byte (segment offset).
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
    /// Segment offset of the event.
    pub slot: usize,
    /// Whether gets from the range notify too.
    pub on_get: bool,
}

/// This image's attachment table.
#[derive(Debug, Default)]
pub struct Attachments {
    list: RwLock<Vec<Attachment>>,
    any: AtomicBool,
}

impl Attachments {
    /// Adds an attachment. Overlapping an existing range attached to a different event is an
    /// error, and so is attaching the same range to the same event twice.
    pub fn attach(&self, a: Attachment) -> CafResult<()> {
        let mut list = self.list.write().unwrap_or_else(|p| p.into_inner());
        if let Some(o) = list.iter().find(|o| o.start < a.end && a.start < o.end) {
            return Err(CafError::InvalidArgument(if o.slot == a.slot {
                "event_attach: this memory is already attached to this event".into()
            } else {
                "event_attach: this memory overlaps memory attached to a different event".into()
            }));
        }
        list.push(a);
        self.any.store(true, Ordering::Release);
        Ok(())
    }

    /// Removes the attachment of exactly `[start, end)` to `slot`.
    pub fn detach(&self, start: usize, end: usize, slot: usize) -> CafResult<()> {
        let mut list = self.list.write().unwrap_or_else(|p| p.into_inner());
        let i = list
            .iter()
            .position(|o| o.start == start && o.end == end && o.slot == slot)
            .ok_or_else(|| {
                CafError::InvalidArgument(
                    "event_detach: this memory was never attached to this event".into(),
                )
            })?;
        list.swap_remove(i);
        self.any.store(!list.is_empty(), Ordering::Release);
        Ok(())
    }

    /// Whether anything is attached (one load: the check every put makes first).
    pub fn any(&self) -> bool {
        self.any.load(Ordering::Acquire)
    }

    /// The attachments overlapping bytes `[lo, hi)`.
    pub fn overlapping(&self, lo: usize, hi: usize) -> Vec<Attachment> {
        if !self.any() {
            return Vec::new();
        }
        let list = self.list.read().unwrap_or_else(|p| p.into_inner());
        list.iter()
            .filter(|o| o.start < hi && lo < o.end)
            .copied()
            .collect()
    }

    /// Events to post after an access of bytes `[lo, hi)` (`is_get`: a read), each once.
    pub fn hits(&self, lo: usize, hi: usize, is_get: bool) -> Slots {
        let mut slots = Slots::default();
        if !self.any() {
            return slots;
        }
        let list = self.list.read().unwrap_or_else(|p| p.into_inner());
        list.iter()
            .filter(|o| o.start < hi && lo < o.end && (!is_get || o.on_get))
            .for_each(|o| slots.insert(o.slot));
        slots.finish();
        slots
    }
}

/// Slots kept without allocation (an access usually hits one attachment).
const FEW: usize = 4;

/// A set of distinct event slots: up to [`FEW`] inline, in the order found; beyond that, all of
/// them sorted on the heap.
#[derive(Debug, Default)]
pub struct Slots {
    n: usize,
    few: [usize; FEW],
    many: Vec<usize>,
}

impl Slots {
    fn insert(&mut self, slot: usize) {
        if !self.many.is_empty() {
            self.many.push(slot);
        } else if !self.few[..self.n].contains(&slot) {
            if self.n < FEW {
                self.few[self.n] = slot;
                self.n += 1;
            } else {
                self.many.extend_from_slice(&self.few);
                self.many.push(slot);
            }
        }
    }

    fn finish(&mut self) {
        self.many.sort_unstable();
        self.many.dedup();
    }

    /// The slots.
    pub fn as_slice(&self) -> &[usize] {
        if self.many.is_empty() {
            &self.few[..self.n]
        } else {
            &self.many
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start: usize, end: usize, slot: usize) -> Attachment {
        Attachment {
            start,
            end,
            slot,
            on_get: false,
        }
    }

    #[test]
    fn hits_overlapping_ranges_once() {
        let t = Attachments::default();
        assert!(t.hits(0, 100, false).as_slice().is_empty());
        t.attach(at(100, 200, 8)).unwrap();
        t.attach(at(200, 300, 8)).unwrap();
        t.attach(at(400, 500, 16)).unwrap();
        assert_eq!(t.hits(150, 250, false).as_slice(), [8]);
        assert_eq!(t.hits(150, 450, false).as_slice(), [8, 16]);
        assert!(t.hits(300, 400, false).as_slice().is_empty());
        assert!(
            t.hits(100, 200, true).as_slice().is_empty(),
            "gets notify only when asked"
        );
    }

    #[test]
    fn many_hits_are_distinct() {
        let t = Attachments::default();
        for k in 0..10 {
            t.attach(at(100 * k, 100 * k + 50, 8 * (k % 6))).unwrap();
        }
        assert_eq!(t.hits(0, 330, false).as_slice(), [0, 8, 16, 24]);
        assert_eq!(t.hits(0, 1000, false).as_slice(), [0, 8, 16, 24, 32, 40]);
    }

    #[test]
    fn misuse_is_rejected() {
        let t = Attachments::default();
        t.attach(at(0, 64, 8)).unwrap();
        assert!(
            t.attach(at(32, 96, 16)).is_err(),
            "overlap with another event"
        );
        assert!(t.attach(at(0, 64, 8)).is_err(), "twice");
        assert!(t.detach(0, 32, 8).is_err(), "not what was attached");
        t.detach(0, 64, 8).unwrap();
        assert!(t.detach(0, 64, 8).is_err(), "already detached");
        assert!(t.hits(0, 64, false).as_slice().is_empty());
    }
}
