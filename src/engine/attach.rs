//! Event attachment (the notified-access extension for Fortran): after `event_attach(ev, x)`,
//! every put into the attached byte range of `x` on image j posts `ev` on image j, after the
//! data is visible there (optionally gets too); when `x` is a whole object, every put
//! statement into it does, whatever bytes it writes ([`Attachments::cover`],
//! `Runtime::after_bytes`). Attachments are symmetric — every image executes the same attach
//! — so the sender's own table describes the target's attachments and a put needs no extra
//! round trip to find out.

use crate::error::{CafError, CafResult};
use std::sync::atomic::{fence, AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

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

impl Attachment {
    /// An attachment of `[start, end)` to the event at `slot` that puts alone post (tests).
    #[cfg(test)]
    pub(crate) fn put_only(start: usize, end: usize, slot: usize) -> Attachment {
        Attachment {
            start,
            end,
            slot,
            on_get: false,
        }
    }

    fn notifies(&self, lo: usize, hi: usize, is_get: bool) -> bool {
        self.start < hi && lo < self.end && (!is_get || self.on_get)
    }
}

/// How attachments meet an object ([`Attachments::cover`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cover {
    /// None overlaps it.
    Untouched,
    /// One attachment covers all of it: the event at this slot.
    Whole(usize),
    /// Attachments overlap part of it, or several do.
    Part,
}

/// Attachments every access can scan without a lock (more go through the locked list).
const TABLE: usize = 8;

/// This image's attachment table: the list (changed under a lock by `event_attach` and
/// `event_detach`) and a copy of it that accesses read without taking any lock, published
/// under a sequence lock (a read lock cost every attached put two atomic read-modify-writes).
#[derive(Debug, Default)]
pub struct Attachments {
    list: Mutex<Vec<Attachment>>,
    any: AtomicBool,
    /// Odd while the copy is being rewritten.
    seq: AtomicU64,
    /// Attachments in `table`, or more than [`TABLE`]: the list is too long, read it locked.
    len: AtomicUsize,
    /// Start, end and `slot << 1 | on_get` of each attachment.
    table: [[AtomicUsize; 3]; TABLE],
}

impl Attachments {
    fn locked(&self) -> MutexGuard<'_, Vec<Attachment>> {
        self.list.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds an attachment. Overlapping an existing range attached to a different event is an
    /// error, and so is attaching the same range to the same event twice.
    pub fn attach(&self, a: Attachment) -> CafResult<()> {
        let mut list = self.locked();
        if let Some(o) = list.iter().find(|o| o.start < a.end && a.start < o.end) {
            return Err(CafError::InvalidArgument(if o.slot == a.slot {
                "event_attach: this memory is already attached to this event".into()
            } else {
                "event_attach: this memory overlaps memory attached to a different event".into()
            }));
        }
        list.push(a);
        self.publish(&list);
        Ok(())
    }

    /// Removes the attachment of exactly `[start, end)` to `slot`.
    pub fn detach(&self, start: usize, end: usize, slot: usize) -> CafResult<()> {
        let mut list = self.locked();
        let i = list
            .iter()
            .position(|o| o.start == start && o.end == end && o.slot == slot)
            .ok_or_else(|| {
                CafError::InvalidArgument(
                    "event_detach: this memory was never attached to this event".into(),
                )
            })?;
        list.swap_remove(i);
        self.publish(&list);
        Ok(())
    }

    /// Rewrites the lock-free copy from `list` (called with the list locked: one writer).
    fn publish(&self, list: &[Attachment]) {
        let s = self.seq.load(Ordering::Relaxed);
        self.seq.store(s + 1, Ordering::Relaxed);
        fence(Ordering::Release);
        for (row, a) in self.table.iter().zip(list) {
            row[0].store(a.start, Ordering::Relaxed);
            row[1].store(a.end, Ordering::Relaxed);
            row[2].store(a.slot << 1 | a.on_get as usize, Ordering::Relaxed);
        }
        self.len.store(list.len(), Ordering::Relaxed);
        self.seq.store(s + 2, Ordering::Release);
        self.any.store(!list.is_empty(), Ordering::Release);
    }

    /// Whether anything is attached (one load: the check every put makes first).
    pub fn any(&self) -> bool {
        self.any.load(Ordering::Acquire)
    }

    /// Fills `out` with the attachments overlapping bytes `[lo, hi)`, sorted by their first
    /// byte (they are disjoint). Read without a lock while at most `TABLE` attachments exist,
    /// into the caller's list: a put into an object attached in parts allocates nothing here.
    pub fn overlapping(&self, lo: usize, hi: usize, out: &mut Vec<Attachment>) {
        out.clear();
        if !self.any() {
            return;
        }
        self.fold(out, Vec::clear, |out, a| {
            if a.start < hi && lo < a.end {
                out.push(a);
            }
        });
        out.sort_unstable_by_key(|a| a.start);
    }

    /// Calls `post` once for each event to post after an access of bytes `[lo, hi)`
    /// (`is_get`: a read), stopping at its first error. The events are collected in this
    /// function's frame and handed over one by one (a set returned by value was copied through
    /// the stack by a wide load waiting on narrower stores: the hottest instruction of the
    /// attached put in a profile).
    pub fn each_hit(
        &self,
        lo: usize,
        hi: usize,
        is_get: bool,
        mut post: impl FnMut(usize) -> CafResult<()>,
    ) -> CafResult<()> {
        if !self.any() {
            return Ok(());
        }
        let mut slots = Slots::default();
        self.collect(lo, hi, is_get, &mut slots);
        slots.as_slice().iter().try_for_each(|&s| post(s))
    }

    /// The event to post after a put into bytes `[lo, hi)` when exactly one is attached there
    /// (what a notified put can carry).
    pub fn single_hit(&self, lo: usize, hi: usize) -> Option<usize> {
        if !self.any() {
            return None;
        }
        let mut slots = Slots::default();
        self.collect(lo, hi, false, &mut slots);
        match slots.as_slice() {
            &[slot] => Some(slot),
            _ => None,
        }
    }

    /// How the attachments that `is_get` accesses notify meet bytes `[lo, hi)` (a whole
    /// coarray object, for the statement rule of `Runtime::after_bytes`). Read without a lock
    /// while at most `TABLE` attachments exist.
    #[inline]
    pub fn cover(&self, lo: usize, hi: usize, is_get: bool) -> Cover {
        if !self.any() {
            return Cover::Untouched;
        }
        // Attachments overlapping the bytes, and the last one's slot when it covers them all.
        let mut found = (0usize, None);
        self.fold(
            &mut found,
            |f| *f = (0, None),
            |(n, slot), a| {
                if a.notifies(lo, hi, is_get) {
                    *n += 1;
                    *slot = (a.start <= lo && hi <= a.end).then_some(a.slot);
                }
            },
        );
        match found {
            (0, _) => Cover::Untouched,
            (1, Some(slot)) => Cover::Whole(slot),
            _ => Cover::Part,
        }
    }

    /// Fills `slots` with the events attached to bytes overlapping `[lo, hi)`.
    fn collect(&self, lo: usize, hi: usize, is_get: bool, slots: &mut Slots) {
        self.fold(
            slots,
            |s| *s = Slots::default(),
            |s, a| {
                if a.notifies(lo, hi, is_get) {
                    s.insert(a.slot);
                }
            },
        );
        slots.finish();
    }

    /// Applies `step` to `acc`, emptied by `reset`, and each attachment in turn: from the
    /// lock-free copy, started again from empty when it changed meanwhile, or from the
    /// locked list when it is too long for the copy. (`acc` stays in the caller's frame: a
    /// set returned by value was copied through the stack, see [`Attachments::each_hit`].)
    fn fold<S>(
        &self,
        acc: &mut S,
        reset: impl Fn(&mut S),
        mut step: impl FnMut(&mut S, Attachment),
    ) {
        loop {
            let s = self.seq.load(Ordering::Acquire);
            let n = self.len.load(Ordering::Relaxed);
            if s & 1 == 1 {
                std::hint::spin_loop();
                continue;
            }
            if n > TABLE {
                break;
            }
            reset(acc);
            for row in &self.table[..n] {
                let w = row[2].load(Ordering::Relaxed);
                let a = Attachment {
                    start: row[0].load(Ordering::Relaxed),
                    end: row[1].load(Ordering::Relaxed),
                    slot: w >> 1,
                    on_get: w & 1 == 1,
                };
                step(acc, a);
            }
            // Pairs with the fence in `publish`: if the sequence is unchanged after the
            // loads, none of them saw a rewrite in progress.
            fence(Ordering::Acquire);
            if self.seq.load(Ordering::Relaxed) == s {
                return;
            }
        }
        reset(acc);
        self.locked().iter().for_each(|&o| step(acc, o));
    }
}

/// Slots kept without allocation (an access usually hits one attachment).
const FEW: usize = 4;

/// A set of distinct event slots: up to [`FEW`] inline, in the order found; beyond that, all of
/// them sorted on the heap.
#[derive(Debug, Default)]
struct Slots {
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
    fn as_slice(&self) -> &[usize] {
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

    /// The events `each_hit` posts, in order.
    fn hits(t: &Attachments, lo: usize, hi: usize, is_get: bool) -> Vec<usize> {
        let mut v = Vec::new();
        t.each_hit(lo, hi, is_get, |s| {
            v.push(s);
            Ok(())
        })
        .unwrap();
        v
    }

    fn at(start: usize, end: usize, slot: usize) -> Attachment {
        Attachment::put_only(start, end, slot)
    }

    #[test]
    fn hits_overlapping_ranges_once() {
        let t = Attachments::default();
        assert!(hits(&t, 0, 100, false).is_empty());
        t.attach(at(100, 200, 8)).unwrap();
        t.attach(at(200, 300, 8)).unwrap();
        t.attach(at(400, 500, 16)).unwrap();
        assert_eq!(hits(&t, 150, 250, false), [8]);
        assert_eq!(hits(&t, 150, 450, false), [8, 16]);
        assert!(hits(&t, 300, 400, false).is_empty());
        assert!(
            hits(&t, 100, 200, true).is_empty(),
            "gets notify only when asked"
        );
    }

    #[test]
    fn single_hit_only_when_one_event() {
        let t = Attachments::default();
        assert_eq!(t.single_hit(0, 8), None);
        t.attach(at(100, 200, 8)).unwrap();
        t.attach(at(200, 300, 8)).unwrap();
        t.attach(at(400, 500, 16)).unwrap();
        assert_eq!(t.single_hit(150, 250), Some(8));
        assert_eq!(t.single_hit(150, 450), None);
        assert_eq!(t.single_hit(300, 400), None);
    }

    #[test]
    fn cover_tells_one_event_over_all_the_bytes_from_parts() {
        let t = Attachments::default();
        assert_eq!(t.cover(100, 164, false), Cover::Untouched);
        t.attach(at(96, 200, 8)).unwrap();
        assert_eq!(t.cover(100, 164, false), Cover::Whole(8));
        assert_eq!(t.cover(96, 200, false), Cover::Whole(8));
        assert_eq!(
            t.cover(90, 164, false),
            Cover::Part,
            "bytes before the attachment"
        );
        assert_eq!(
            t.cover(0, 50, false),
            Cover::Untouched,
            "no attachment there"
        );
        t.attach(at(200, 300, 16)).unwrap();
        assert_eq!(t.cover(150, 250, false), Cover::Part, "two events");
        t.detach(96, 200, 8).unwrap();
        t.attach(at(96, 150, 8)).unwrap();
        assert_eq!(
            t.cover(100, 200, false),
            Cover::Part,
            "one event, part of the bytes"
        );
        assert_eq!(t.cover(100, 150, false), Cover::Whole(8));
        for k in 0..TABLE {
            t.attach(at(1000 + 10 * k, 1010 + 10 * k, 24)).unwrap();
        }
        assert_eq!(
            t.cover(100, 150, false),
            Cover::Whole(8),
            "from the locked list"
        );
        assert_eq!(t.cover(1000, 1010, false), Cover::Whole(24));
        assert_eq!(
            t.cover(1000, 1020, false),
            Cover::Part,
            "two attachments of one event"
        );
        assert_eq!(
            t.cover(100, 150, true),
            Cover::Untouched,
            "gets do not notify a puts-only event"
        );
        t.detach(96, 150, 8).unwrap();
        t.attach(Attachment {
            on_get: true,
            ..at(96, 150, 8)
        })
        .unwrap();
        assert_eq!(
            t.cover(100, 150, true),
            Cover::Whole(8),
            "gets notify this one"
        );
        assert_eq!(t.cover(100, 150, false), Cover::Whole(8));
    }

    #[test]
    fn overlapping_lists_the_attachments_by_first_byte_in_the_callers_list() {
        let t = Attachments::default();
        let mut out = vec![at(1, 2, 3)];
        t.overlapping(0, 1000, &mut out);
        assert!(out.is_empty(), "nothing attached: the list is emptied");
        t.attach(at(400, 500, 16)).unwrap();
        t.attach(at(100, 200, 8)).unwrap();
        t.attach(at(200, 300, 8)).unwrap();
        t.overlapping(150, 450, &mut out);
        assert_eq!(out, [at(100, 200, 8), at(200, 300, 8), at(400, 500, 16)]);
        t.overlapping(300, 400, &mut out);
        assert!(out.is_empty(), "the bytes between two attachments");
        for k in (0..TABLE).rev() {
            t.attach(at(1000 + 10 * k, 1010 + 10 * k, 24)).unwrap();
        }
        t.overlapping(195, 1015, &mut out);
        let from_list = [
            at(100, 200, 8),
            at(200, 300, 8),
            at(400, 500, 16),
            at(1000, 1010, 24),
            at(1010, 1020, 24),
        ];
        assert_eq!(out, from_list, "more than the copy holds: the locked list");
    }

    #[test]
    fn many_hits_are_distinct() {
        let t = Attachments::default();
        for k in 0..10 {
            t.attach(at(100 * k, 100 * k + 50, 8 * (k % 6))).unwrap();
        }
        assert_eq!(hits(&t, 0, 330, false), [0, 8, 16, 24]);
        assert_eq!(hits(&t, 0, 1000, false), [0, 8, 16, 24, 32, 40]);
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
        assert!(hits(&t, 0, 64, false).is_empty());
    }

    #[test]
    fn more_attachments_than_the_table_go_through_the_list() {
        let t = Attachments::default();
        for k in 0..TABLE + 3 {
            t.attach(at(100 * k, 100 * k + 50, 8 * k)).unwrap();
            assert_eq!(hits(&t, 100 * k + 10, 100 * k + 11, false), [8 * k]);
        }
        assert_eq!(hits(&t, 0, 1000, false).len(), 10);
        for k in 0..TABLE + 3 {
            t.detach(100 * k, 100 * k + 50, 8 * k).unwrap();
            assert!(hits(&t, 100 * k, 100 * k + 50, false).is_empty());
            assert_eq!(hits(&t, 0, 100_000, false).len(), TABLE + 2 - k);
        }
        assert!(!t.any());
    }

    #[test]
    fn readers_see_every_attachment_whole_while_it_changes() {
        let t = Attachments::default();
        t.attach(at(0, 64, 8)).unwrap();
        std::thread::scope(|s| {
            s.spawn(|| {
                for k in 0..20_000 {
                    let a = at(1000 + k % 7, 2000, 16 + k % 3 * 8);
                    t.attach(a).unwrap();
                    t.detach(a.start, a.end, a.slot).unwrap();
                }
            });
            for _ in 0..200_000 {
                let v = hits(&t, 0, 1500, false);
                assert_eq!(v[0], 8, "the steady attachment is always found");
                assert!(v.len() <= 2 && v[1..].iter().all(|&x| (16..=32).contains(&x)));
            }
        });
    }
}
