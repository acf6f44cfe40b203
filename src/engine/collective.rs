//! Collectives of at most one cache line run in `coll_small.rs` ([`Collectives::run_small`]);
//! larger ones here.
//!
//! Collectives over shared buffers: binomial trees in which every image's buffer lives in its
//! own segment and its tree neighbours reach it directly (one copy per edge, no messages).
//!
//! Up phase: each image waits for its children's mailboxes, combines their buffers into its own
//! (reductions only, reading the children's buffers in place), then announces its buffer to its
//! parent. Down phase: the parent pushes the result into each child's buffer (when the child
//! receives one) and posts to it; a child's buffer is alive and untouched until that post, and
//! no image reads its parent's buffer, so no acknowledgement round is needed.
//!
//! Every collective runs the up phase, even a broadcast (as arrival notices): the down phase
//! then starts only once every image has entered the collective, so a mailbox is never
//! rewritten for the next collective before its reader has consumed it, even though trees of
//! consecutive collectives have different roots.

use super::coll_small::{Fold, Small};
use super::status::{check_team, publish, Op};
use super::team::Team;
use super::wait::Waiter;
use crate::error::CafResult;
use crate::transport::control::{Layout, Mailbox, LEVELS, ROUNDS};
use crate::transport::plan::contiguous;
use crate::transport::{AtomicOp, CopyPlan, Place, Transport};
use std::sync::atomic::{AtomicU64, Ordering};

/// Combines `other` into `acc` (both packed, same length): the reduction operator.
pub type Combine<'a> = &'a dyn Fn(&mut [u8], &[u8]) -> CafResult<()>;

/// This image's collective state per team level: messages consumed per mailbox.
/// Counting consumed messages (instead of comparing with a collective number) keeps mailboxes
/// valid when teams with different histories form; each team level has its own mailboxes for
/// the reason given in `barrier.rs`.
#[derive(Debug)]
pub struct Collectives {
    levels: [Level; LEVELS],
    small: Small,
    cpus: usize,
}

/// Consumed-message counts of one team level.
#[derive(Debug)]
struct Level {
    seen: [AtomicU64; ROUNDS + 1],
}

impl Collectives {
    /// Collective state for a process that may use `cpus` CPUs (teams larger than that run
    /// small collectives as a central gather).
    pub fn new(cpus: usize) -> Collectives {
        Collectives {
            levels: std::array::from_fn(|_| Level {
                seen: std::array::from_fn(|_| AtomicU64::new(0)),
            }),
            small: Small::default(),
            cpus,
        }
    }
}

/// What one collective call does.
pub enum Kind<'a> {
    /// Reduce with the operator; the result lands on `root` only, or everywhere if `None`.
    Reduce {
        /// Team rank receiving the result, or every image.
        root: Option<usize>,
        /// The operator.
        combine: Combine<'a>,
    },
    /// Copy root's buffer to every image.
    Broadcast {
        /// Team rank of the source.
        root: usize,
    },
}

/// The binomial tree of a team rooted at `root`, seen from this image.
struct Tree {
    /// Parent as (initial image, tree level), if not the root.
    parent: Option<(usize, usize)>,
    /// Children as (initial image, tree level), lowest level first.
    children: Vec<(usize, usize)>,
}

impl Tree {
    fn new(team: &Team, root: usize) -> Tree {
        let n = team.len();
        let rel = (team.rank + n - root) % n;
        let abs = |r: usize| team.members[(r + root) % n];
        let (mut children, mut parent) = (Vec::new(), None);
        let (mut mask, mut level) = (1usize, 0usize);
        while mask < n {
            if rel & mask != 0 {
                parent = Some((abs(rel - mask), level));
                break;
            }
            if rel + mask < n {
                children.push((abs(rel + mask), level));
            }
            mask <<= 1;
            level += 1;
        }
        Tree { parent, children }
    }
}

/// A mailbox of this image.
fn mailbox(tp: &dyn Transport, offset: usize) -> &Mailbox {
    let a = tp
        .direct(tp.this_image(), offset)
        .expect("own segment is mapped");
    // SAFETY: control-block mailboxes are aligned Mailbox lines in this image's mapped segment.
    unsafe { &*(a as *const Mailbox) }
}

/// Posts `buf` to mailbox `offset` of `image` (offset first, then the count, released) and
/// wakes it.
fn post(tp: &dyn Transport, image: usize, offset: usize, buf: usize) {
    tp.fetch_op(image, offset + 8, 8, AtomicOp::Swap, buf as u64);
    tp.fetch_op(image, offset, 8, AtomicOp::Add, 1);
    tp.ring(image);
}

impl Collectives {
    /// Runs one collective over `team` whose payload fits a slot ([`super::coll_small::fits`]) on
    /// `data`, this image's value, replaced by the result on every image.
    pub fn run_small(
        &self,
        tp: &dyn Transport,
        w: &Waiter,
        team: &Team,
        data: &mut [u8],
        kind: Kind,
    ) -> CafResult<()> {
        let e = team.enter_collective();
        publish(tp, team);
        let fold = match kind {
            Kind::Reduce { combine, .. } => Fold::Reduce(combine),
            Kind::Broadcast { root } => Fold::Pick(root),
        };
        let crowded = team.len() > self.cpus;
        self.small.run(tp, w, team, e, data, fold, crowded)
    }

    /// Runs one collective over `team` on this image's buffer of `len` bytes at segment offset
    /// `buf` (which must stay allocated until this returns).
    pub fn run(
        &self,
        tp: &dyn Transport,
        w: &Waiter,
        team: &Team,
        buf: usize,
        len: usize,
        kind: Kind,
    ) -> CafResult<()> {
        let e = team.enter_collective();
        publish(tp, team);
        let (lv, state) = (team.level, &self.levels[team.level]);
        let me = tp.this_image();
        let (root, combine, everywhere) = match kind {
            Kind::Reduce { root, combine } => (root.unwrap_or(0), Some(combine), root.is_none()),
            Kind::Broadcast { root } => (root, None, true),
        };
        let tree = Tree::new(team, root);
        let gone = || check_team(tp, team, Op::Collective, e);
        let wait_box = |line: usize| -> CafResult<usize> {
            let b = mailbox(tp, Layout::coll_line(lv, line));
            let want = state.seen[line].fetch_add(1, Ordering::Relaxed) + 1;
            w.block_ready(|| b.count.load(Ordering::Acquire) >= want, gone)?;
            Ok(b.offset.load(Ordering::Relaxed) as usize)
        };
        let mut scratch = Vec::new();
        let mut child_bufs = Vec::with_capacity(tree.children.len());
        for &(child, level) in &tree.children {
            let theirs = wait_box(level)?;
            child_bufs.push(theirs);
            if let Some(combine) = combine {
                let other = read(tp, child, theirs, len, &mut scratch);
                let mine = tp.direct(me, buf).expect("own segment is mapped");
                // SAFETY: `buf` is this image's live collective buffer of `len` bytes.
                let acc = unsafe { std::slice::from_raw_parts_mut(mine as *mut u8, len) };
                combine(acc, other)?;
            }
        }
        if let Some((parent, level)) = tree.parent {
            post(tp, parent, Layout::coll_line(lv, level), buf);
            // When this image receives the result, the parent has pushed it into `buf` before
            // posting; either way, from here on nobody reads `buf` but this image.
            wait_box(ROUNDS)?;
        }
        // Push the result into each child's buffer (alive and untouched: the child waits for
        // this post), so no image ever reads a parent's buffer and no acknowledgement is needed.
        let plan = everywhere.then(|| CopyPlan::new(1, &contiguous(len, 1), &contiguous(len, 1)));
        for (&(child, _), &theirs) in tree.children.iter().zip(&child_bufs) {
            if let Some(plan) = &plan {
                let to = Place::Remote {
                    image: child,
                    offset: theirs,
                };
                tp.copy(
                    to,
                    Place::Remote {
                        image: me,
                        offset: buf,
                    },
                    plan,
                );
            }
            post(tp, child, Layout::coll_line(lv, ROUNDS), buf);
        }
        Ok(())
    }
}

/// The `len` bytes at `(image, offset)`: in place when the transport maps peers, else copied
/// into `scratch`.
fn read<'a>(
    tp: &dyn Transport,
    image: usize,
    offset: usize,
    len: usize,
    scratch: &'a mut Vec<u8>,
) -> &'a [u8] {
    if let Some(a) = tp.direct(image, offset) {
        // SAFETY: the child announced a live buffer of `len` bytes at `offset` and keeps it until
        // it receives this image's down post, which comes after this read.
        return unsafe { std::slice::from_raw_parts(a as *const u8, len) };
    }
    scratch.resize(len, 0);
    let plan = CopyPlan::new(1, &contiguous(len, 1), &contiguous(len, 1));
    tp.copy(
        Place::Local(scratch.as_mut_ptr() as usize),
        Place::Remote { image, offset },
        &plan,
    );
    scratch
}
