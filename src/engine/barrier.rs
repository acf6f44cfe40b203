//! SYNC ALL: a dissemination barrier. In round r, team rank i signals rank (i + 2^r) mod n by
//! bumping that image's round-r counter and waits for its own round-r counter to exceed the
//! number of round-r signals it has already consumed; after ceil(log2 n) rounds every image has
//! heard from every other.
//!
//! Counting consumed signals per round (instead of comparing with a barrier number) keeps the
//! counters valid when teams with different histories form. Each team nesting level has its own
//! counters: at one level an image belongs to one team at a time, and a member of a later team
//! at that level can signal only after FORM TEAM, a collective of the parent that this image
//! must have left its previous team to join. Without the split, an image already back in the
//! parent after END TEAM could signal a parent barrier into a counter that a slower image still
//! waits on for its child team.

use super::status::{check_team, publish, ready_or_gone, Op};
use super::team::Team;
use super::wait::Waiter;
use crate::error::CafResult;
use crate::transport::control::{Layout, LEVELS, ROUNDS};
use crate::transport::{AtomicOp, Transport};
use std::sync::atomic::{AtomicU64, Ordering};

/// Barrier-block lines of the central barrier: arrivals and generation, in the team leader's
/// control block. Dissemination uses at most 12 rounds (4096 images), so they never collide.
const ARRIVE: usize = ROUNDS - 2;
const GENERATION: usize = ROUNDS - 1;

/// This image's barrier state: signals consumed per team level and round, and the CPU count
/// that decides the algorithm.
#[derive(Debug)]
pub struct Barrier {
    consumed: [[AtomicU64; ROUNDS]; LEVELS],
    cpus: usize,
}

impl Barrier {
    /// Barrier state for a process that may use `cpus` CPUs.
    pub fn new(cpus: usize) -> Barrier {
        Barrier {
            consumed: Default::default(),
            cpus,
        }
    }

    /// Runs one barrier over `team`. Returns `StoppedImage`/`FailedImage` if a member has
    /// terminated and so can never arrive. Teams with more images than CPUs use a central
    /// counter (each image arrives once and is woken once); others the dissemination barrier,
    /// whose log2(n) rounds would each cost a sleep and a wake-up when oversubscribed.
    pub fn sync(&self, tp: &dyn Transport, w: &Waiter, team: &Team) -> CafResult<()> {
        // Over MPI, lets this image's queued notifications (eager sends) leave before anyone
        // can pass the barrier: the barrier's words are processor atomics that never enter MPI.
        tp.progress();
        let e = team.enter_barrier();
        publish(tp, team);
        if team.len() > self.cpus {
            return central(tp, w, team, e);
        }
        let n = team.len();
        let me = tp.this_image();
        let consumed = &self.consumed[team.level];
        let (mut dist, mut round) = (1usize, 0usize);
        while dist < n {
            debug_assert!(round < ROUNDS);
            let at = Layout::barrier(team.level, round);
            let to = team.members[(team.rank + dist) % n];
            tp.signal(to, at);
            let word = tp.direct(me, at).expect("own segment is mapped");
            // SAFETY: the round counter is an aligned u64 in this image's control block.
            let mine = unsafe { &*(word as *const AtomicU64) };
            let want = consumed[round].fetch_add(1, Ordering::Relaxed) + 1;
            w.block_ready(
                || mine.load(Ordering::Acquire) >= want,
                || check_team(tp, team, Op::Barrier, e),
            )?;
            dist <<= 1;
            round += 1;
        }
        Ok(())
    }
}

/// Sense-reversing central barrier: read the leader's generation, arrive on its counter; the
/// last arriver resets the counter, bumps the generation and rings every member. Every member
/// of a team computes the same algorithm choice, and a barrier completes before the next one
/// can bump the counter (arrivals of the next barrier follow the generation change), so the
/// counter is zero whenever a barrier starts, whatever the team's history.
fn central(tp: &dyn Transport, w: &Waiter, team: &Team, e: u64) -> CafResult<()> {
    let leader = team.members[0];
    let (arrive, gen) = (
        Layout::barrier(team.level, ARRIVE),
        Layout::barrier(team.level, GENERATION),
    );
    let g = tp.fetch_op(leader, gen, 8, AtomicOp::Load, 0);
    if tp.fetch_op(leader, arrive, 8, AtomicOp::Add, 1) + 1 == team.len() as u64 {
        // Arrivals of barriers that failed (a member terminated) stay counted: reaching n
        // completes this barrier only if every member entered it.
        check_team(tp, team, Op::Barrier, e)?;
        tp.fetch_op(leader, arrive, 8, AtomicOp::Swap, 0);
        tp.fetch_op(leader, gen, 8, AtomicOp::Add, 1);
        team.members.iter().for_each(|&j| tp.alert(j));
        return Ok(());
    }
    w.block_remote(|| {
        ready_or_gone(
            || tp.fetch_op(leader, gen, 8, AtomicOp::Load, 0) != g,
            || check_team(tp, team, Op::Barrier, e),
        )
    })
}
