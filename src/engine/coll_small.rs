//! Collectives whose payload fits one cache line ([`SLOT_BYTES`]): the data travels inline in
//! receive slots of the control block, one line per message, and every image gets the result.
//!
//! Teams with at most as many images as CPUs use recursive doubling: with m the largest power
//! of two not above n and rem = n - m, rank 2j (j < rem) first folds its value into rank 2j+1
//! and waits for the result; the m remaining images exchange values with partner `new ^ 2^r`
//! in round r, all pairs at once, so two images need one one-way latency instead of the tree's
//! two. Blocks are always combined lower ranks on the left, so every image evaluates the same
//! expression and gets the same bits (and a non-commutative CO_REDUCE operator is applied in
//! rank order). Slots are double-buffered by collective parity: an image that writes a slot in
//! collective k+2 has finished k+1, which nobody finishes before everyone entered it, i.e.
//! finished k and read its slots.
//!
//! Oversubscribed teams use a central gather, the barrier of `barrier.rs` carrying data: each
//! image writes its value into its own control block and arrives on the leader's counter; the
//! last arriver combines every value in rank order, publishes the result on the leader's
//! result line and wakes everyone — one arrival and at most one wake-up per image, instead of
//! a sleep and wake-up per tree level.

use super::collective::Combine;
use super::status::{check_team, ready_or_gone, Op};
use super::team::Team;
use super::wait::Waiter;
use crate::error::CafResult;
use crate::transport::control::{Layout, SmallLine, LEVELS, SLOT_BYTES, SMALL_STEPS};
use crate::transport::plan::contiguous;
use crate::transport::{AtomicOp, CopyPlan, Place, Transport};
use std::sync::atomic::{AtomicU64, Ordering};

/// How the values of two blocks of ranks combine.
#[derive(Clone, Copy)]
pub enum Fold<'a> {
    /// Left block's value `op` right block's value.
    Reduce(Combine<'a>),
    /// Broadcast: keep the value of the block holding this team rank.
    Pick(usize),
}

/// A payload buffer aligned for any Fortran type a combine may load.
#[repr(C, align(16))]
pub struct Inline(pub [u8; SLOT_BYTES]);

impl Default for Inline {
    fn default() -> Inline {
        Inline([0; SLOT_BYTES])
    }
}

/// Slot messages consumed by this image, per team level, parity and step.
#[derive(Debug, Default)]
pub struct Small {
    seen: [[AtomicU64; 2 * SMALL_STEPS]; LEVELS],
}

/// Whether a collective of `len` bytes over `team` runs here.
pub fn fits(team: &Team, len: usize) -> bool {
    len <= SLOT_BYTES && team.len().ilog2() as usize + 1 < SMALL_STEPS
}

impl Small {
    /// Runs collective number `e` of `team` on `data` (this image's value, replaced by the
    /// result); `crowded` selects the central gather.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        tp: &dyn Transport,
        w: &Waiter,
        team: &Team,
        e: u64,
        data: &mut [u8],
        fold: Fold,
        crowded: bool,
    ) -> CafResult<()> {
        let gone = || check_team(tp, team, Op::Collective, e);
        if crowded {
            return gather(tp, w, team, data, fold, &gone);
        }
        let (n, r, lv, len) = (team.len(), team.rank, team.level, data.len());
        let m = 1usize << n.ilog2();
        let rem = n - m;
        let parity = (e & 1) as usize;
        let slot = |step| Layout::small(lv, SmallLine::Step { parity, step });
        let recv = |step: usize, out: &mut Inline| -> CafResult<()> {
            let at = slot(step);
            let want = self.seen[lv][parity * SMALL_STEPS + step].fetch_add(1, Ordering::Relaxed);
            w.block(|| ready_or_gone(|| count(tp, tp.this_image(), at) > want, gone))?;
            load(tp, tp.this_image(), at, &mut out.0[..len]);
            Ok(())
        };
        let send = |rank: usize, step: usize, bytes: &[u8]| {
            let image = team.members[rank];
            store(tp, image, slot(step), bytes);
            tp.fetch_op(image, slot(step), 8, AtomicOp::Add, 1);
            tp.ring(image);
        };
        let mut theirs = Inline::default();
        if r < 2 * rem && r % 2 == 0 {
            send(r + 1, 0, data);
            recv(0, &mut theirs)?;
            data.copy_from_slice(&theirs.0[..len]);
            return Ok(());
        }
        // Rank that stands for new rank j, and the lowest rank of j's block.
        let stand = |j: usize| if j < rem { 2 * j + 1 } else { j + rem };
        let first = |j: usize| if j < rem { 2 * j } else { j + rem };
        let me = if r < 2 * rem {
            recv(0, &mut theirs)?;
            join(fold, data, &theirs, true, r - 1..r)?;
            r / 2
        } else {
            r - rem
        };
        let (mut mask, mut step) = (1usize, 1usize);
        while mask < m {
            let partner = me ^ mask;
            send(stand(partner), step, data);
            recv(step, &mut theirs)?;
            let base = partner & !(mask - 1);
            let ranks = first(base)..stand(base + mask - 1) + 1;
            join(fold, data, &theirs, partner < me, ranks)?;
            mask <<= 1;
            step += 1;
        }
        if r < 2 * rem {
            send(r - 1, 0, data);
        }
        Ok(())
    }
}

/// The central gather (see the module documentation).
fn gather(
    tp: &dyn Transport,
    w: &Waiter,
    team: &Team,
    data: &mut [u8],
    fold: Fold,
    gone: &dyn Fn() -> CafResult<()>,
) -> CafResult<()> {
    let (lv, leader, me) = (team.level, team.members[0], tp.this_image());
    let line = |which| Layout::small(lv, which);
    let (mine, arrive, result) = (
        line(SmallLine::Mine),
        line(SmallLine::Arrive),
        line(SmallLine::Result),
    );
    let g = count(tp, leader, result);
    store(tp, me, mine, data);
    // The contribution's length goes in the line's count word: the last arriver combines the
    // longest one, so that an image taking part without data (an unallocated argument, which
    // it reports as an error) cannot truncate the others' result.
    tp.fetch_op(me, mine, 8, AtomicOp::Swap, data.len() as u64);
    if tp.fetch_op(leader, arrive, 8, AtomicOp::Add, 1) + 1 == team.len() as u64 {
        // After a member terminated, arrivals of failed gathers stay counted, so reaching n
        // proves nothing: publish only if every member entered this gather (the waiters then
        // find the error themselves).
        gone()?;
        let len = team.members.iter().map(|&j| count(tp, j, mine)).max();
        let len = (len.unwrap_or(0) as usize).min(SLOT_BYTES);
        let mut acc = Inline::default();
        let mut theirs = Inline::default();
        let acc = &mut acc.0[..len];
        load(tp, team.members[0], mine, acc);
        for (k, &j) in team.members.iter().enumerate().skip(1) {
            load(tp, j, mine, &mut theirs.0[..len]);
            join(fold, acc, &theirs, false, k..k + 1)?;
        }
        store(tp, leader, result, acc);
        tp.fetch_op(leader, arrive, 8, AtomicOp::Swap, 0);
        tp.fetch_op(leader, result, 8, AtomicOp::Add, 1);
        team.members.iter().for_each(|&j| tp.ring(j));
        data.copy_from_slice(&acc[..data.len()]);
        return Ok(());
    }
    w.block(|| ready_or_gone(|| count(tp, leader, result) != g, gone))?;
    load(tp, leader, result, data);
    Ok(())
}

/// Combines `theirs` (the value of team ranks `ranks`, on the left of `acc`'s block if
/// `left`) into `acc`.
fn join(
    fold: Fold,
    acc: &mut [u8],
    theirs: &Inline,
    left: bool,
    ranks: std::ops::Range<usize>,
) -> CafResult<()> {
    let theirs = &theirs.0[..acc.len()];
    match fold {
        Fold::Pick(root) if ranks.contains(&root) => acc.copy_from_slice(theirs),
        Fold::Pick(_) => {}
        Fold::Reduce(combine) if left => {
            let mut out = Inline::default();
            let out = &mut out.0[..acc.len()];
            out.copy_from_slice(theirs);
            combine(out, acc)?;
            acc.copy_from_slice(out);
        }
        Fold::Reduce(combine) => combine(acc, theirs)?,
    }
    Ok(())
}

/// The message count of slot `at` of `image`.
fn count(tp: &dyn Transport, image: usize, at: usize) -> u64 {
    tp.fetch_op(image, at, 8, AtomicOp::Load, 0)
}

/// Writes `bytes` into the payload of slot `at` of `image` (before its count is bumped, by a
/// read-modify-write that orders these stores before it).
fn store(tp: &dyn Transport, image: usize, at: usize, bytes: &[u8]) {
    if let Some(a) = tp.direct(image, at + 8) {
        // SAFETY: a slot's payload is SLOT_BYTES >= bytes.len() bytes of a mapped control
        // block; the protocol gives this image the only writer's turn on it (module docs).
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), a as *mut u8, bytes.len()) };
        return;
    }
    tp.copy(
        Place::Remote {
            image,
            offset: at + 8,
        },
        Place::Local(bytes.as_ptr() as usize),
        &plan(bytes.len()),
    );
}

/// Reads `out.len()` payload bytes of slot `at` of `image` (after its count was seen).
fn load(tp: &dyn Transport, image: usize, at: usize, out: &mut [u8]) {
    if let Some(a) = tp.direct(image, at + 8) {
        // SAFETY: as in `store`; the count that published these bytes was loaded before, and
        // the writer's next message to this slot waits for this image (module docs).
        unsafe { std::ptr::copy_nonoverlapping(a as *const u8, out.as_mut_ptr(), out.len()) };
        return;
    }
    tp.copy(
        Place::Local(out.as_mut_ptr() as usize),
        Place::Remote {
            image,
            offset: at + 8,
        },
        &plan(out.len()),
    );
}

/// A contiguous byte copy of `len` bytes.
fn plan(len: usize) -> CopyPlan {
    CopyPlan::new(1, &contiguous(len, 1), &contiguous(len, 1))
}
