//! SYNC ALL: a dissemination barrier. In round r, team rank i signals rank (i + 2^r) mod n by
//! bumping that image's round-r counter and waits for its own round-r counter to exceed the
//! number of round-r signals it has already consumed; after ceil(log2 n) rounds every image has
//! heard from every other. Counting consumed signals per round (instead of comparing with a
//! barrier number) keeps the counters valid when teams with different histories form.

use super::status::{check_team, ready_or_gone, BARRIERS};
use super::team::Team;
use super::wait::Waiter;
use crate::error::CafResult;
use crate::transport::control::{Layout, ROUNDS};
use crate::transport::{AtomicOp, Transport};
use std::sync::atomic::{AtomicU64, Ordering};

/// This image's barrier state: barriers entered, and signals consumed per round.
#[derive(Debug, Default)]
pub struct Barrier {
    epoch: AtomicU64,
    consumed: [AtomicU64; ROUNDS],
}

impl Barrier {
    /// Barriers this image has entered.
    pub fn entered(&self) -> u64 {
        self.epoch.load(Ordering::Relaxed)
    }

    /// Runs one barrier over `team`. Returns `StoppedImage`/`FailedImage` if a member has
    /// terminated and so can never arrive.
    pub fn sync(&self, tp: &dyn Transport, w: &Waiter, team: &Team) -> CafResult<()> {
        let e = self.epoch.fetch_add(1, Ordering::Relaxed) + 1;
        let n = team.len();
        let me = tp.this_image();
        let (mut dist, mut round) = (1usize, 0usize);
        while dist < n {
            debug_assert!(round < ROUNDS);
            let to = team.members[(team.rank + dist) % n];
            tp.fetch_op(to, Layout::barrier(round), 8, AtomicOp::Add, 1);
            tp.ring(to);
            let word = tp
                .direct(me, Layout::barrier(round))
                .expect("own segment is mapped");
            // SAFETY: the round counter is an aligned u64 in this image's control block.
            let mine = unsafe { &*(word as *const AtomicU64) };
            let want = self.consumed[round].fetch_add(1, Ordering::Relaxed) + 1;
            w.block(|| {
                ready_or_gone(
                    || mine.load(Ordering::Acquire) >= want,
                    || check_team(tp, &team.members, BARRIERS, e),
                )
            })?;
            dist <<= 1;
            round += 1;
        }
        Ok(())
    }
}
