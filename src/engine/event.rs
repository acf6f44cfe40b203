//! EVENT POST, EVENT WAIT and EVENT_QUERY (Fortran 2018 11.6.7–11.6.9, 16.9.72), three ways
//! (`FERROCAF_EVENTS`):
//! - `atomic`: two 64-bit counters per event, posts and consumed posts, on different cache
//!   lines; post = fetch-add of posts + ring, wait = sleep until posts − consumed ≥ threshold,
//!   then add the threshold to consumed (written only by the owner, so the waiter never takes
//!   the posters' line away from them: one line transfer per post, as with a plain flag);
//! - `p2p`: post = an eager message into the owner's notification ring; wait consumes
//!   `threshold` matching messages from the unexpected list;
//! - `notified`: post = a zero-byte notified put with the event's tag; wait = a request on that
//!   tag through the matching engine.
//!
//! Every strategy is also how an attached put notifies its event (`engine/attach.rs`). Where
//! the transport counts puts (`Transport::put_counted`), posts of its counted event also
//! arrive as counted puts: waits and queries add them to the strategy's own count.

use super::notify::{Filter, Notifier};
use super::stats::{Counter, WaitKind};
use super::status::{check_alive, check_others};
use super::team::Team;
use super::wait::Waiter;
use crate::error::CafResult;
use crate::transport::doorbell::event_key;
use crate::transport::ring::INLINE;
use crate::transport::{AtomicOp, Notification, Transport};
use std::sync::atomic::{AtomicU64, Ordering};

/// Events per group: a group is one line of post counts followed by one line of consumed counts.
const GROUP: usize = 8;
/// Bytes per group.
const GROUP_BYTES: usize = 128;
/// Distance from an event's post count to its consumed count (the next line).
pub const CONSUMED: usize = 64;

/// Byte offset of event `index`'s post count in its coarray (gfortran numbers the elements).
pub fn slot(index: usize) -> usize {
    index / GROUP * GROUP_BYTES + index % GROUP * 8
}

/// Bytes of a coarray of `n` events.
pub fn bytes(n: usize) -> usize {
    n.div_ceil(GROUP).saturating_mul(GROUP_BYTES)
}

/// The post and consumed counts of the event whose post count is at `addr` (64-byte aligned
/// groups, as the symmetric heap's granule guarantees).
///
/// # Safety
/// `addr` is the address of an event's post count in mapped memory.
unsafe fn counters<'a>(addr: usize) -> (&'a AtomicU64, &'a AtomicU64) {
    // SAFETY: both words are aligned u64 counters of the event's group (caller's guarantee).
    unsafe {
        (
            &*(addr as *const AtomicU64),
            &*((addr + CONSUMED) as *const AtomicU64),
        )
    }
}
/// Tags of event notifications carry this bit (user tags are below 2^31).
pub const EVENT_TAG: u64 = 1 << 62;

/// How events are implemented.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// RMA-atomic counter.
    Atomic,
    /// Eager message with an unexpected list.
    P2p,
    /// The notified-access matching engine.
    Notified,
}

impl Strategy {
    /// Parses `atomic`, `p2p` or `notified`.
    pub fn parse(s: &str) -> Option<Strategy> {
        match s.trim() {
            "atomic" => Some(Strategy::Atomic),
            "p2p" => Some(Strategy::P2p),
            "notified" => Some(Strategy::Notified),
            _ => None,
        }
    }
}

/// What event operations need from the image.
pub struct Events<'a> {
    /// Transport.
    pub tp: &'a dyn Transport,
    /// This image's waiter.
    pub w: &'a Waiter,
    /// This image's notification state.
    pub notifier: &'a Notifier,
    /// The strategy in force.
    pub strategy: Strategy,
    /// The current team (whose other members could still post).
    pub team: &'a Team,
}

fn filter(slot: usize) -> Filter {
    Filter {
        source: None,
        tag: Some(EVENT_TAG | slot as u64),
    }
}

impl Events<'_> {
    /// Posts the event at `(image, slot)`.
    pub fn post(&self, image: usize, slot: usize) -> CafResult<()> {
        check_alive(self.tp, image)?;
        self.w.stats.add(Counter::EventsPosted, 1);
        match self.strategy {
            Strategy::Atomic => {
                self.tp.fetch_op(image, slot, 8, AtomicOp::Add, 1);
                self.tp.ring_event(image, event_key(slot));
                Ok(())
            }
            Strategy::P2p => {
                let n = Notification {
                    source: self.tp.this_image() as u32,
                    tag: EVENT_TAG | slot as u64,
                    bytes: 0,
                    offset: slot as u64,
                    inline: false,
                    payload: [0; INLINE],
                };
                self.notifier.send(self.tp, self.w, image, &n)
            }
            Strategy::Notified => {
                self.notifier
                    .put(self.tp, self.w, image, slot, &[], EVENT_TAG | slot as u64)
            }
        }
    }

    /// Waits until this image's event at `slot` has `threshold` posts (at least 1, Fortran 2018
    /// 11.6.8) and consumes them. If every other image of the team has terminated first, the posts
    /// can never come: STAT_STOPPED_IMAGE.
    pub fn wait(&self, slot: usize, threshold: i64) -> CafResult<()> {
        let need = threshold.max(1) as u64;
        let (tp, me) = (self.tp, self.tp.this_image());
        let _kind = self.w.stats.during(WaitKind::Event);
        match self.strategy {
            Strategy::Atomic => {
                let addr = tp.direct(me, slot).expect("own segment is mapped");
                // SAFETY: `slot` is an event's post count inside this image's segment.
                let (posts, consumed) = unsafe { counters(addr) };
                // Only this image writes `consumed`.
                let done = consumed.load(Ordering::Relaxed);
                let counted = || tp.counted(slot).unwrap_or(0);
                let ready = || posts.load(Ordering::Acquire).wrapping_sub(done) + counted() >= need;
                self.w
                    .block_event(event_key(slot), ready, || check_others(tp, self.team))?;
                let c = counted().min(need);
                tp.take_counted(slot, c);
                consumed.store(done.wrapping_add(need - c), Ordering::Relaxed);
                Ok(())
            }
            Strategy::P2p => self
                .w
                .block_ready(|| self.take(slot, need), || check_others(tp, self.team)),
            Strategy::Notified if tp.counted(slot).is_some() => self
                .w
                .block_ready(|| self.take(slot, need), || check_others(tp, self.team)),
            Strategy::Notified => {
                let id = self.notifier.matcher(tp).init(filter(slot), need)?;
                self.notifier.matcher(tp).start(id)?;
                let r = self.w.block(|| match self.notifier.matcher(tp).test(id) {
                    Ok(Some(_)) => Some(Ok(())),
                    Ok(None) => check_others(tp, self.team).err().map(Err),
                    Err(e) => Some(Err(e)),
                });
                self.notifier.matcher(tp).free(id)?;
                r
            }
        }
    }

    /// Takes `need` posts of this image's event at `slot` from the counted puts and the
    /// arrived notifications together, or none if fewer have arrived; whether it did.
    fn take(&self, slot: usize, need: u64) -> bool {
        let tp = self.tp;
        let counted = tp.counted(slot).unwrap_or(0).min(need);
        let rest = need - counted;
        if rest > 0 && self.notifier.matcher(tp).take(filter(slot), rest, true).0 < rest {
            return false;
        }
        tp.take_counted(slot, counted);
        true
    }

    /// The count of this image's event at `slot` (EVENT_QUERY's EVENT is never coindexed).
    pub fn query(&self, image: usize, slot: usize) -> u64 {
        let counted = self.tp.counted(slot).unwrap_or(0);
        counted
            + match self.strategy {
                Strategy::Atomic => {
                    let load = |at| self.tp.fetch_op(image, at, 8, AtomicOp::Load, 0);
                    load(slot).wrapping_sub(load(slot + CONSUMED))
                }
                Strategy::P2p | Strategy::Notified => {
                    self.notifier.matcher(self.tp).count(filter(slot))
                }
            }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn post_and_consumed_counts_never_share_a_line() {
        assert_eq!(bytes(1), 128);
        assert_eq!(bytes(8), 128);
        assert_eq!(bytes(9), 256);
        let posts: Vec<usize> = (0..20).map(slot).collect();
        for (i, &p) in posts.iter().enumerate() {
            assert!(
                p + CONSUMED + 8 <= bytes(i + 1),
                "event {i} inside its coarray"
            );
            for &q in &posts {
                assert_ne!(
                    p / 64,
                    (q + CONSUMED) / 64,
                    "a post line holds no consumed count"
                );
            }
        }
        assert_eq!(
            posts
                .iter()
                .collect::<std::collections::BTreeSet<_>>()
                .len(),
            20
        );
    }
}
