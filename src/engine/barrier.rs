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
/// last arriver resets the counter, bumps the generation and rings every member, and every
/// member that leaves rings the next one while the next barrier has no arrival. Every member
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
    })?;
    // With images outnumbering the cores, an image the last arriver woke may take its core
    // before it has rung the rest, which then sleep on for up to a time slice while a core
    // idles: every member that leaves passes the wake-up on to the next one. Not once the next
    // barrier has an arrival: the next member may sleep in that one, and would wake for nothing.
    // Over a transport that cannot wake (MPI, fabric: waits poll) there is nothing to pass on.
    if tp.can_wake() && tp.fetch_op(leader, arrive, 8, AtomicOp::Load, 0) == 0 {
        tp.alert(team.members[(team.rank + 1) % team.len()]);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stats::Stats;
    use crate::transport::control::Header;
    use crate::transport::{CopyPlan, Full, Notification, Place};
    use std::sync::Mutex;

    /// The central barrier's words of a 3-image team as image 1 (not the last to arrive) sees
    /// them: the generation has moved by its first poll; the arrival counter reads
    /// `next_arrivals` once it has left; `wakes`: whether rings wake. Records the images it
    /// alerts.
    struct Words {
        gen_loads: AtomicU64,
        next_arrivals: u64,
        wakes: bool,
        alerted: Mutex<Vec<usize>>,
    }

    impl Transport for Words {
        fn num_images(&self) -> usize {
            3
        }
        fn this_image(&self) -> usize {
            1
        }
        fn copy(&self, _: Place, _: Place, _: &CopyPlan) {
            unreachable!("no data moves")
        }
        fn fetch_op(&self, image: usize, offset: usize, _: usize, op: AtomicOp, _: u64) -> u64 {
            assert_eq!(image, 0, "the words are the leader's");
            let generation = offset == Layout::barrier(0, GENERATION);
            match (generation, op) {
                (true, AtomicOp::Load) => self.gen_loads.fetch_add(1, Ordering::SeqCst).min(1),
                (false, AtomicOp::Add) => 0,
                (false, AtomicOp::Load) => self.next_arrivals,
                _ => unreachable!("a member that is not last only arrives and reads"),
            }
        }
        fn compare_swap(&self, _: usize, _: usize, _: usize, _: u64, _: u64) -> u64 {
            unreachable!("no compare-and-swap")
        }
        fn fence(&self) {}
        fn can_wake(&self) -> bool {
            self.wakes
        }
        fn ring(&self, image: usize) {
            self.alerted.lock().unwrap().push(image);
        }
        fn direct(&self, _: usize, _: usize) -> Option<usize> {
            None
        }
        fn notify(&self, _: usize, _: &Notification) -> Result<(), Full> {
            unreachable!("no notifications")
        }
        fn drain(&self, _: &mut dyn FnMut(Notification)) {}
    }

    /// Image 1 leaves a central barrier of 3 images; returns the images it alerted.
    fn leave(next_arrivals: u64, wakes: bool) -> Vec<usize> {
        let tp: &'static Words = Box::leak(Box::new(Words {
            gen_loads: AtomicU64::new(0),
            next_arrivals,
            wakes,
            alerted: Mutex::new(Vec::new()),
        }));
        // SAFETY: a Header is atomics and padding bytes, for which all zeroes are valid.
        let header: &'static Header = Box::leak(Box::new(unsafe { std::mem::zeroed() }));
        let stats = Box::leak(Box::new(Stats::new(false)));
        let w = Waiter::new(header, None, tp, (0, true), stats);
        central(tp, &w, &Team::initial(3, 1), 0).expect("the generation moved");
        tp.alerted.lock().unwrap().clone()
    }

    #[test]
    fn a_member_leaving_passes_the_wake_up_on_to_the_next() {
        assert_eq!(leave(0, true), vec![2]);
    }

    #[test]
    fn not_once_the_next_barrier_has_an_arrival() {
        assert_eq!(leave(1, true), Vec::<usize>::new());
    }

    #[test]
    fn nor_over_a_transport_that_cannot_wake() {
        // An alert there would add to image 2's bell word: a fetch_op the mock refuses.
        assert_eq!(leave(0, false), Vec::<usize>::new());
    }
}
