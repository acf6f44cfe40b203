//! Per-image statistics (FERROCAF_STATS=1): how many puts, gets, bytes, notifications and events
//! this image made, and how long it waited, by kind of wait. Every counter is a relaxed atomic
//! of this image's own [`Stats`], touched only by this image; when statistics are off, every
//! hook is one load of a flag that never changes, and a branch.

use std::fmt::Write;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::Duration;

/// What is counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// Coindexed writes (and notified puts).
    Puts,
    /// Coindexed reads (and notified gets).
    Gets,
    /// Bytes written or read remotely.
    Bytes,
    /// Notifications placed in another image's ring.
    NotifySent,
    /// Notifications taken from this image's ring.
    NotifyReceived,
    /// Event posts (EVENT POST, and puts into an attached coarray).
    EventsPosted,
    /// Event posts consumed by EVENT WAIT.
    EventsWaited,
    /// Of the events posted, those posted by counted puts (`Transport::put_counted`).
    EventsCounted,
    /// Sleeps on this image's doorbell that a ring ended (not the sleep's time bound): how
    /// often other images woke this one (`transport/doorbell.rs`).
    Wakeups,
}

/// Number of [`Counter`]s.
const COUNTERS: usize = 9;

/// What a blocking wait is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum WaitKind {
    /// Anything not listed below: the runtime's implicit synchronisations (program start and
    /// end, team statements, coarray deallocation) and full notification rings.
    Other = 0,
    /// SYNC ALL and SYNC IMAGES.
    Sync = 1,
    /// Collective subroutines.
    Collective = 2,
    /// EVENT WAIT.
    Event = 3,
    /// LOCK (and CRITICAL).
    Lock = 4,
    /// notify_wait.
    Notify = 5,
}

/// The names of the [`WaitKind`]s in the report, in discriminant order (one per kind).
const KINDS: [&str; 6] = ["other", "sync", "collective", "event", "lock", "notify"];

/// The statistics of one image.
#[derive(Debug, Default)]
pub struct Stats {
    on: bool,
    counts: [AtomicU64; COUNTERS],
    wait_ns: [AtomicU64; KINDS.len()],
    kind: AtomicU8,
}

/// Restores the previous wait kind when dropped (see [`Stats::during`]).
pub struct KindGuard<'a> {
    stats: &'a Stats,
    previous: u8,
}

impl Drop for KindGuard<'_> {
    fn drop(&mut self) {
        if self.stats.on {
            self.stats.kind.store(self.previous, Ordering::Relaxed);
        }
    }
}

impl Stats {
    /// Statistics that are collected if `on`, else ignored.
    pub fn new(on: bool) -> Stats {
        Stats {
            on,
            ..Default::default()
        }
    }

    /// Whether statistics are collected.
    pub fn on(&self) -> bool {
        self.on
    }

    /// Adds `v` to counter `c`.
    #[inline]
    pub fn add(&self, c: Counter, v: u64) {
        if self.on {
            self.counts[c as usize].fetch_add(v, Ordering::Relaxed);
        }
    }

    /// Counts one put (`get` false) or get of `bytes` bytes.
    #[inline]
    pub fn access(&self, get: bool, bytes: u64) {
        self.add(if get { Counter::Gets } else { Counter::Puts }, 1);
        self.add(Counter::Bytes, bytes);
    }

    /// Attributes the waits of this image to `kind` until the guard is dropped.
    #[inline]
    pub fn during(&self, kind: WaitKind) -> KindGuard<'_> {
        let previous = if self.on {
            self.kind.swap(kind as u8, Ordering::Relaxed)
        } else {
            0
        };
        KindGuard {
            stats: self,
            previous,
        }
    }

    /// Adds a wait of duration `d` to the current wait kind.
    pub fn waited(&self, d: Duration) {
        let k = self.kind.load(Ordering::Relaxed) as usize;
        let ns = u64::try_from(d.as_nanos()).unwrap_or(u64::MAX);
        self.wait_ns[k].fetch_add(ns, Ordering::Relaxed);
    }

    fn get(&self, c: Counter) -> u64 {
        self.counts[c as usize].load(Ordering::Relaxed)
    }

    /// The report line of image `image` (1-based).
    pub fn line(&self, image: usize) -> String {
        use Counter::*;
        let mut s = format!(
            "ferrocaf stats: image {image}: puts {} gets {} bytes {} notifications sent {} \
             received {} events posted {} counted {} waited {} wait ms:",
            self.get(Puts),
            self.get(Gets),
            self.get(Bytes),
            self.get(NotifySent),
            self.get(NotifyReceived),
            self.get(EventsPosted),
            self.get(EventsCounted),
            self.get(EventsWaited),
        );
        for (name, ns) in KINDS.iter().zip(&self.wait_ns) {
            let ms = ns.load(Ordering::Relaxed) as f64 / 1e6;
            let _ = write!(s, " {name} {ms:.3}");
        }
        let _ = write!(s, " wake-ups {}", self.get(Wakeups));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_when_on() {
        let off = Stats::new(false);
        off.access(false, 8);
        let _g = off.during(WaitKind::Lock);
        assert!(off
            .line(1)
            .starts_with("ferrocaf stats: image 1: puts 0 gets 0 bytes 0 "));
        let on = Stats::new(true);
        on.access(false, 8);
        on.access(true, 16);
        on.add(Counter::EventsWaited, 3);
        assert!(on
            .line(2)
            .starts_with("ferrocaf stats: image 2: puts 1 gets 1 bytes 24 "));
        on.add(Counter::EventsCounted, 2);
        assert!(on.line(2).contains("events posted 0 counted 2 waited 3 "));
        on.add(Counter::Wakeups, 4);
        assert!(on.line(2).ends_with(" wake-ups 4"), "{}", on.line(2));
    }

    #[test]
    fn waits_go_to_the_current_kind() {
        let s = Stats::new(true);
        {
            let _g = s.during(WaitKind::Event);
            s.waited(Duration::from_millis(2));
            {
                let _h = s.during(WaitKind::Collective);
                s.waited(Duration::from_millis(1));
            }
            s.waited(Duration::from_millis(2));
        }
        s.waited(Duration::from_millis(5));
        let l = s.line(1);
        assert!(
            l.ends_with(
                "other 5.000 sync 0.000 collective 1.000 event 4.000 lock 0.000 notify 0.000 \
                 wake-ups 0"
            ),
            "{l}"
        );
    }
}
