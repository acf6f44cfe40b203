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
/// last arriver resets the counter and moves the generation, which names it. Every member
/// of a team computes the same algorithm choice, and a barrier completes before the next one
/// can bump the counter (arrivals of the next barrier follow the generation change), so the
/// counter is zero whenever a barrier starts, whatever the team's history.
///
/// Over a transport that can wake, the members are rung down a binary tree rooted at the last
/// arriver ([`wake_next`]), each member ringing its two children once it has seen the new
/// generation, rather than by the last arriver in turn, which a woken image sharing its core
/// may preempt before it rang the rest: beside CPU-bound processes the tree took ft_transpose
/// and alloc_dealloc at 8 images to 0.77–0.98× of their time (bench/NOTES.md). A member that
/// rang a child yields once right after ([`ring_children`]), so that a child woken onto its
/// CPU runs (and rings its own) before this member computes on. Otherwise (naps, MPI across
/// nodes) the last arriver rings every member.
fn central(tp: &dyn Transport, w: &Waiter, team: &Team, e: u64) -> CafResult<()> {
    let leader = team.members[0];
    let (arrive, gen) = (
        Layout::barrier(team.level, ARRIVE),
        Layout::barrier(team.level, GENERATION),
    );
    let g = tp.fetch_op(leader, gen, 8, AtomicOp::Load, 0);
    let n = team.len();
    if tp.fetch_op(leader, arrive, 8, AtomicOp::Add, 1) + 1 == n as u64 {
        // Arrivals of barriers that failed (a member terminated) stay counted: reaching n
        // completes this barrier only if every member entered it.
        check_team(tp, team, Op::Barrier, e)?;
        tp.fetch_op(leader, arrive, 8, AtomicOp::Swap, 0);
        // Nobody else writes the generation while this barrier is open.
        tp.fetch_op(
            leader,
            gen,
            8,
            AtomicOp::Swap,
            next_generation(g, team.rank),
        );
        if tp.can_wake() {
            ring(tp, w, team, team.rank);
        } else {
            team.members.iter().for_each(|&j| tp.alert(j));
        }
        return Ok(());
    }
    let seen = AtomicU64::new(g);
    w.block_remote(|| {
        ready_or_gone(
            || {
                let now = tp.fetch_op(leader, gen, 8, AtomicOp::Load, 0);
                seen.store(now, Ordering::Relaxed);
                now != g
            },
            || check_team(tp, team, Op::Barrier, e),
        )
    })?;
    if tp.can_wake() {
        ring(tp, w, team, (seen.load(Ordering::Relaxed) as u32) as usize);
    }
    Ok(())
}

/// Rings this image's children in the wake-up tree rooted at team rank `root`
/// ([`ring_children`] with `alert`, and `sched_yield` when `w` hands over: on an
/// idle machine the yield cost SYNC ALL at 8 images on 2 cores 7.2 → 13.2 µs).
fn ring(tp: &dyn Transport, w: &Waiter, team: &Team, root: usize) {
    ring_children(
        root,
        team.rank,
        team.len(),
        |r| tp.alert(team.members[r]),
        || {
            if w.hands_over() {
                std::thread::yield_now();
            }
        },
    );
}

/// Rings (`alert`) the children of `rank` in the wake-up tree rooted at `root` among `n`
/// ranks, then, if it rang any, hands its core over once (`hand_over`). The kernel wakes an
/// image onto its waker's CPU when that CPU looks the better place (wake-affine), and under
/// EEVDF the wakee then does not preempt the waker before the waker's slice ends; a waker that
/// goes on computing after the barrier kept its children (and their subtrees) waiting a
/// median 0.9-1.5 ms beside 2 CPU-bound processes, against 40-50 µs with libcaf_shmem, whose
/// waker goes to sleep on the barrier's mutex (bench/NOTES.md, branch share).
fn ring_children(
    root: usize,
    rank: usize,
    n: usize,
    mut alert: impl FnMut(usize),
    hand_over: impl FnOnce(),
) {
    let mut rung = false;
    for r in wake_next(root, rank, n) {
        alert(r);
        rung = true;
    }
    if rung {
        hand_over();
    }
}

/// The generation word after `g` once team rank `last` arrived last: a count in the high
/// half, the last arriver in the low half.
fn next_generation(g: u64, last: usize) -> u64 {
    ((g >> 32) + 1) << 32 | last as u64
}

/// The team ranks that `rank` rings once it knows a central barrier completed, in a binary
/// tree over the ranks counted from `root` (the last arriver) among `n`: the children of
/// relative rank r are 2r + 1 and 2r + 2.
fn wake_next(root: usize, rank: usize, n: usize) -> impl Iterator<Item = usize> {
    let r = (rank + n - root) % n;
    [2 * r + 1, 2 * r + 2]
        .into_iter()
        .filter(move |&c| c < n)
        .map(move |c| (c + root) % n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_member_is_rung_once_by_one_that_knew_before_it() {
        for n in 1..=20 {
            for root in 0..n {
                let mut rung_by = vec![None; n];
                let mut depth = vec![0; n];
                // Breadth first from the root: a member rings only after it was rung.
                let mut queue = std::collections::VecDeque::from([root]);
                while let Some(k) = queue.pop_front() {
                    for c in wake_next(root, k, n) {
                        assert!(c != root && rung_by[c].is_none(), "n={n} root={root} c={c}");
                        rung_by[c] = Some(k);
                        depth[c] = depth[k] + 1;
                        queue.push_back(c);
                    }
                }
                assert!((0..n).all(|k| k == root || rung_by[k].is_some()));
                let longest = depth.iter().max().copied().unwrap_or(0);
                assert!(1usize << longest <= n, "n={n}: {longest} rings deep");
            }
        }
    }

    #[test]
    fn a_member_that_rang_a_child_hands_its_core_over_once_after_ringing() {
        for n in 1..=9 {
            for root in 0..n {
                for rank in 0..n {
                    let log = std::cell::RefCell::new(Vec::new());
                    ring_children(
                        root,
                        rank,
                        n,
                        |r| log.borrow_mut().push(Some(r)),
                        || log.borrow_mut().push(None),
                    );
                    let log = log.into_inner();
                    let children: Vec<_> = wake_next(root, rank, n).map(Some).collect();
                    if children.is_empty() {
                        assert!(log.is_empty(), "n={n} root={root} rank={rank}");
                    } else {
                        assert_eq!(log[..log.len() - 1], children[..]);
                        assert_eq!(log.last(), Some(&None), "n={n} root={root} rank={rank}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_generation_names_the_last_arriver_and_always_moves() {
        let g = next_generation(0, 3);
        assert_eq!((g as u32, g >> 32), (3, 1));
        let h = next_generation(g, 3);
        assert_ne!(h, g);
        assert_eq!((h as u32, h >> 32), (3, 2));
    }
}
