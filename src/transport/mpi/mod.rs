//! The MPI transport (feature `mpi`): one window per image over its whole segment, passive
//! target RMA in one `MPI_Win_lock_all` epoch, completion by `MPI_Win_flush`.
//!
//! Memory model. The windows are opened once and never closed until the end, so every access
//! is in a passive-target epoch. Remote data moves with `MPI_Put`/`MPI_Rget` and is complete
//! when `copy` returns (`MPI_Win_flush`; a get waits for its request first, yielding). Every read-modify-write of a control word,
//! by any image including its owner, goes through `MPI_Fetch_and_op`/`MPI_Compare_and_swap`,
//! so all atomics on a word are MPI atomics (MPI guarantees atomicity only among those) —
//! except when this node's shared window holds every image: then every image maps every
//! word, and all of them use the processor's atomics instead (MPICH runs MPI atomics, and even
//! puts into a shared window, as active messages that wait for the target to enter MPI). An
//! image waits on words of its own segment with plain loads: under the unified memory model
//! (`MPI_WIN_UNIFIED`, what Open MPI and MPICH provide on cache-coherent machines) a
//! completed remote update becomes visible to local loads eventually, without an RMA call
//! (MPI 3.1, 11.4), as long as MPI progresses: [`Transport::progress`] enters MPI before every
//! poll, and it and [`Transport::settle`] (after the last) end with a processor fence
//! (`MPI_Win_sync` when every image is mapped). A poster completes its data (`flush`) before
//! the atomic that signals it, so a waiter that sees the signal and then fences sees the data.
//!
//! Waking. No process can wake another across nodes (`can_wake` is false), so `ring` does
//! nothing and waits poll words of their own segment with naps. A wait that reads other
//! images' words instead watches its bell word, which [`Transport::alert`] moves with an MPI
//! atomic, so no wait polls the network. Progress also drives MPI's progress engine for
//! implementations whose passive-target RMA needs the target to enter MPI.
//!
//! Accessors of images this process does not map run on their owner: a request message, served
//! by the owner's `progress`, and a reply (`am.rs`, `transport/owner.rs`,
//! `transport/carrier.rs`).
//!
//! Notifications travel as eager messages (`MPI_Send` of one 64-byte cell on a private
//! communicator), drained with `MPI_Improbe`/`MPI_Mrecv`: one message instead of a remote CAS,
//! a put, a flush and an atomic (four round trips) to claim a cell of the target's ring; MPI
//! keeps per-source order and buffers unexpected messages, so the queue never reports full.

mod am;
mod atomics;
mod note;
mod osc;
mod signal;
mod symmetric;
mod tags;
mod tune;
mod types;
mod words;
mod world;

use super::backoff::{Schedule, YIELDS_WHILE_FAST};
use super::carrier;
use super::control::{Header, HEADER};
use super::one_sided;
use super::owner::OwnerCalls;
use super::plan::contiguous;
use super::{cpu_atomic, AtomicOp, CopyPlan, Full, Notification, Place, Transport};
use atomics::Rmw;
use mpi_sys as m;
use std::collections::VecDeque;
use std::ffi::c_void;
use std::sync::atomic::{fence, AtomicU32, Ordering};
use std::sync::{Mutex, Once};
use std::time::Duration;
use types::Type;
use world::{check, World};

/// With every image mapped, [`Transport::progress`] enters MPI once per this many calls.
const PROGRESS_EVERY: u32 = 64;
/// Offset of an image's count of notifications sent to it ([`Header::notes`]).
const NOTES: usize = HEADER + std::mem::offset_of!(Header, notes);

/// The MPI transport of one image (rank = 0-based image index).
pub struct Mpi {
    w: World,
    /// Number of images.
    pub n: usize,
    /// Every image's segment is mapped here (one node, shared window): atomics use the
    /// processor's instructions, in every image alike.
    all_mapped: bool,
    /// Notifications this image has received (compared with its [`Header::notes`]).
    received: AtomicU32,
    /// Some image's segment is not mapped here at its owner's address, so other images may
    /// run accessors on this one (owner-side calls, `am.rs`).
    serves: bool,
    /// Calls of [`Transport::progress`] (counted when every image is mapped).
    turns: AtomicU32,
    /// Notifications this image sent itself, in order (MPICH's `MPI_Send` to the own rank
    /// blocks until a receive matches it, so they never go through MPI).
    own: Mutex<VecDeque<Notification>>,
    finished: Once,
}

impl Mpi {
    /// Makes completed remote updates of this image's memory visible to its loads.
    fn sync(&self) {
        // SAFETY: the windows are in their lock_all epochs.
        unsafe {
            check(m::MPI_Win_sync(self.w.win), "MPI_Win_sync");
            if let Some(nw) = self.w.node_win {
                check(m::MPI_Win_sync(nw), "MPI_Win_sync");
            }
        }
    }

    /// Initialises MPI and the windows; `sizes(n)` gives the control-block and segment bytes
    /// of a job of `n` images; `shm` allows a shared-memory window for on-node images.
    pub fn init(sizes: impl Fn(usize) -> (usize, usize), shm: bool) -> Result<Mpi, String> {
        let w = World::init(sizes, shm)?;
        crate::sys::proc::tight_timer_slack();
        let serves = (0..w.size).any(|j| w.mapped[j] != Some(w.home[j]));
        if serves {
            super::owner::set_serving();
        }
        Ok(Mpi {
            n: w.size,
            all_mapped: w.mapped.iter().all(Option::is_some),
            serves,
            w,
            received: AtomicU32::new(0),
            turns: AtomicU32::new(0),
            own: Mutex::default(),
            finished: Once::new(),
        })
    }

    /// The MPI library's name and version (from `MPI_Get_library_version`).
    pub fn library() -> String {
        world::library()
    }

    /// Images on this node (they share its processors).
    pub fn node_images(&self) -> usize {
        self.w.node_size
    }

    /// Receives the signals and serves the owner-side calls that have arrived, entering MPI's
    /// progress engine once when nothing else is waiting: one probe of any tag, and a receive
    /// by tag of what it found (a probe that finds a message does not progress). A
    /// notification or a reply first in line is left for `drain` or the waiting call: the
    /// signals and requests behind it are then received by their tags.
    fn take_messages(&self) {
        let mut add = |offset| self.add_own(offset);
        while let Some(tag) = words::first_tag(&self.w) {
            let taken = match tag {
                tags::SIGNAL => signal::receive_one(&self.w, &mut add),
                tags::REQUEST if self.serves => carrier::serve_one(&self.w),
                _ => false,
            };
            if !taken {
                signal::receive(&self.w, add);
                self.serve();
                return;
            }
        }
    }

    /// The address of the atomic word `(image, offset)` when every image maps every segment.
    fn shared_word(&self, image: usize, offset: usize) -> Option<usize> {
        self.all_mapped
            .then(|| self.direct(image, offset))
            .flatten()
    }

    /// Adds one to the 8-byte counter at `offset` of this image's control block (a signal,
    /// [`Transport::signal`]).
    fn add_own(&self, offset: usize) {
        let a = self
            .direct(self.w.rank, offset)
            .expect("own segment is mapped");
        // SAFETY: an aligned u64 of this image's control block, mapped for the life of the
        // windows; signal counters are changed only here (every add to them is a message).
        unsafe { cpu_atomic::fetch_op(a, 8, AtomicOp::Add, 1) };
    }

    /// The window displacement of byte `offset` of `image`'s segment.
    fn disp(&self, image: usize, offset: usize) -> m::MPI_Aint {
        (self.w.shift[image] + offset) as m::MPI_Aint
    }

    /// One `MPI_Put` (`put`) or `MPI_Rget` between local memory at `local` and `image`'s
    /// segment at `offset`, each side one datatype, completed by `MPI_Win_flush`; a get first
    /// waits for its request in [`complete`], which yields, so that the flush finds it done.
    /// (The request alone is not enough under MPICH 4.0.2: strided gets between test-bed
    /// hosts read stale data, `vector_subscripts` and `component_chase` failed.)
    fn rma(&self, put: bool, local: usize, image: usize, offset: usize, plan: &CopyPlan) {
        let n = plan.count();
        let bcast = (plan.src.count() == 1 && n > 1).then_some(n);
        let (src, dst) = (
            Type::of(&plan.src, plan.elem, bcast),
            Type::of(&plan.dst, plan.elem, None),
        );
        let (o, t) = if put { (src, dst) } else { (dst, src) };
        let (rank, disp) = (image as i32, self.disp(image, offset));
        // SAFETY: the origin side is local memory described by `o`, readable for a put and
        // writable for a get; the target side lies inside `image`'s window (the engine checks
        // sections against coarray bounds).
        unsafe {
            if put {
                let origin = local as *const c_void;
                let r = m::MPI_Put(
                    origin, o.count, o.raw, rank, disp, t.count, t.raw, self.w.win,
                );
                check(r, "MPI_Put");
                check(m::MPI_Win_flush(rank, self.w.win), "MPI_Win_flush");
            } else {
                let origin = local as *mut c_void;
                let mut req = world::null_handle();
                let r = m::MPI_Rget(
                    origin, o.count, o.raw, rank, disp, t.count, t.raw, self.w.win, &mut req,
                );
                check(r, "MPI_Rget");
                complete(req);
                check(m::MPI_Win_flush(rank, self.w.win), "MPI_Win_flush");
            }
        }
    }
}

/// An MPI get's pauses between tests: yields while they pay, then naps from 20 µs doubling to
/// 1 ms.
const GET_PAUSES: Schedule = Schedule::new(
    0,
    YIELDS_WHILE_FAST,
    Duration::from_micros(20),
    Duration::from_millis(1),
);

/// A drain's naps while notifications are in flight: from 1 µs doubling to 1 ms, no yields.
const DRAIN_PAUSES: Schedule =
    Schedule::new(0, 0, Duration::from_micros(1), Duration::from_millis(1));

/// Waits for request `req` (an `MPI_Rget`) with `MPI_Test`, yielding the processor after
/// each test that finds it pending while yields pay, then napping ([`GET_PAUSES`]: beside
/// CPU-bound processes each yield may cost a time slice). MPICH's `MPI_Win_flush` polls without ever yielding: on a
/// busy machine the origin held its core while the target, which must enter MPI to serve the
/// get (MPICH active messages, Open MPI's osc/pt2pt), waited for it; stress_alloc's gets between
/// test-bed hosts took 3-5 ms each under MPICH.
fn complete(mut req: m::MPI_Request) {
    let mut idle = 0;
    loop {
        let mut done = 0;
        // SAFETY: `req` is an active request of this process, completed (and freed by MPI)
        // at most once: the loop ends when MPI_Test reports it done.
        check(
            unsafe { m::MPI_Test(&mut req, &mut done, m::RSMPI_STATUS_IGNORE) },
            "MPI_Test",
        );
        if done != 0 {
            return;
        }
        GET_PAUSES.pause(&mut idle);
    }
}

impl Transport for Mpi {
    fn num_images(&self) -> usize {
        self.n
    }

    fn this_image(&self) -> usize {
        self.w.rank
    }

    fn copy(&self, dst: Place, src: Place, plan: &CopyPlan) {
        one_sided::copy(self, dst, src, plan, |put, local, image, offset, plan| {
            self.rma(put, local, image, offset, plan)
        });
    }

    fn copy_bytes(&self, dst: Place, src: Place, n: usize) {
        match (one_sided::mapped(self, dst), one_sided::mapped(self, src)) {
            (Some(d), Some(s)) => {
                // SAFETY: as for `copy`: both sides are memory of this process (private, or
                // mapped window memory) inside ranges the engine checked; `ptr::copy` allows
                // overlap.
                unsafe { std::ptr::copy(s as *const u8, d as *mut u8, n) };
                fence(Ordering::SeqCst);
            }
            _ => {
                let bytes = contiguous(n, 1);
                self.copy(dst, src, &CopyPlan::new(1, &bytes, &bytes));
            }
        }
    }

    fn fetch_op(&self, image: usize, offset: usize, width: usize, op: AtomicOp, v: u64) -> u64 {
        if let Some(a) = self.shared_word(image, offset) {
            // SAFETY: mapped window memory for the life of the windows (until exit); every
            // image accesses the job's atomic words only through processor atomics.
            return unsafe { cpu_atomic::fetch_op(a, width, op, v) };
        }
        // SAFETY: predefined reduction operations, valid after MPI_Init.
        let mop = unsafe {
            match op {
                AtomicOp::Add | AtomicOp::Load => m::RSMPI_SUM,
                AtomicOp::And => m::RSMPI_BAND,
                AtomicOp::Or => m::RSMPI_BOR,
                AtomicOp::Xor => m::RSMPI_BXOR,
                AtomicOp::Swap => return self.swap(image, offset, width, v),
            }
        };
        let v = if op == AtomicOp::Load { 0 } else { v };
        self.atomic(image, offset, width, Rmw::Op(mop, v))
    }

    fn compare_swap(&self, image: usize, offset: usize, width: usize, exp: u64, new: u64) -> u64 {
        if let Some(a) = self.shared_word(image, offset) {
            // SAFETY: as in fetch_op.
            return unsafe { cpu_atomic::compare_swap(a, width, exp, new) };
        }
        self.atomic(image, offset, width, Rmw::Cas(exp, new))
    }

    fn fence(&self) {
        // SAFETY: the window is in its lock_all epoch.
        unsafe { check(m::MPI_Win_flush_all(self.w.win), "MPI_Win_flush_all") };
        fence(Ordering::SeqCst);
    }

    fn ring(&self, _image: usize) {}

    /// With every image mapped, a processor atomic add (the default). Otherwise a message
    /// (`signal.rs`), which the target applies in [`Transport::progress`]: one way instead of
    /// an MPI atomic's round trip, which across nodes waits for the target to enter MPI.
    /// Every add to such a counter then comes as a message, so the owner's processor atomic
    /// is the only RMW of the word.
    fn signal(&self, image: usize, offset: usize) {
        if self.all_mapped {
            self.fetch_op(image, offset, 8, AtomicOp::Add, 1);
        } else if image == self.w.rank {
            self.add_own(offset);
        } else {
            signal::send(&self.w, image, offset);
        }
    }

    fn direct(&self, image: usize, offset: usize) -> Option<usize> {
        self.w.mapped[image].map(|b| b + offset)
    }

    fn notify(&self, image: usize, n: &Notification) -> Result<(), Full> {
        if image == self.w.rank {
            self.own
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push_back(*n);
            return Ok(());
        }
        note::send(&self.w, image, n);
        self.fetch_op(image, NOTES, 4, AtomicOp::Add, 1);
        Ok(())
    }

    /// Receives what has arrived, then, while fewer notifications have been received than
    /// senders counted in [`Header::notes`], drives MPI's progress until the missing ones
    /// arrive: their sends completed, so they are in flight, and the image control statement
    /// that ordered a sender's count before this drain orders its notification too. (An MPI
    /// probe may enter the progress engine only after finding nothing, so a message already
    /// delivered can stay unseen for one probe.)
    fn drain(&self, f: &mut dyn FnMut(Notification)) {
        let own = std::mem::take(&mut *self.own.lock().unwrap_or_else(|p| p.into_inner()));
        own.into_iter().for_each(&mut *f);
        let mut came = note::receive(&self.w, f);
        let mut any = came > 0;
        let mut idle = 0;
        loop {
            let received = self
                .received
                .fetch_add(came, Ordering::Relaxed)
                .wrapping_add(came);
            if !self.all_mapped {
                self.sync();
            }
            let word = self
                .direct(self.w.rank, NOTES)
                .expect("own segment is mapped");
            // SAFETY: NOTES is an aligned u32 in this image's header, updated only atomically.
            let sent = unsafe { &*(word as *const AtomicU32) }.load(Ordering::Acquire);
            if sent.wrapping_sub(received) as i32 <= 0 {
                break;
            }
            DRAIN_PAUSES.pause(&mut idle);
            note::poke(&self.w);
            came = note::receive(&self.w, f);
            any |= came > 0;
        }
        if any {
            self.progress();
        }
    }

    fn can_wake(&self) -> bool {
        false
    }

    /// Drives MPI, serves the owner-side calls (accessors) other images addressed to this one
    /// (`am.rs`) and makes remote updates visible. With every image mapped, nothing a wait
    /// polls moves through MPI (stores and processor atomics are coherent, notifications are
    /// received by `drain` itself, accessors run in the caller), so only every
    /// `PROGRESS_EVERY`-th call enters MPI: a probe costs more than a round trip through
    /// shared memory (SYNC ALL of 2 images took 1.3 µs when every poll probed). Otherwise
    /// MPI is entered once (`Mpi::take_messages`), then a processor fence orders this
    /// image's following loads: each entry into the progress engine costs a `poll` and a
    /// `sched_yield` where ranks yield when idle (the test bed), and SYNC ALL between bed hosts
    /// made 12 of each where `MPI_Barrier` makes 2 while it probed for signals, then for
    /// requests and called `MPI_Win_sync` (osc/pt2pt's is a progress call). Under
    /// `MPI_WIN_UNIFIED` a completed update of the window is visible to loads eventually
    /// without an RMA call (MPI 3.1, 11.4); a wait polls until it sees it.
    fn progress(&self) {
        if !self.all_mapped {
            self.take_messages();
            fence(Ordering::SeqCst);
            return;
        }
        if self
            .turns
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(PROGRESS_EVERY)
        {
            note::poke(&self.w);
            self.sync();
            self.serve();
        }
    }

    /// Without every image mapped, a processor fence: the poll that succeeded followed a
    /// progress call, and entering MPI again cost one more `sched_yield` per wait on the bed
    /// (see [`Transport::progress`]).
    fn settle(&self) {
        if self.all_mapped {
            self.progress();
        } else {
            fence(Ordering::SeqCst);
        }
    }

    fn home(&self, image: usize) -> usize {
        self.w.home[image]
    }

    fn collective_exit(&self) -> bool {
        true
    }

    fn finish(&self) {
        self.finished.call_once(|| self.w.finalize());
    }

    fn abort_job(&self, code: i32) {
        self.w.abort(code);
    }

    fn owner_calls(&self) -> Option<&dyn OwnerCalls> {
        Some(self)
    }
}

impl OwnerCalls for Mpi {
    fn call(
        &self,
        image: usize,
        request: &[u8],
        gone: &mut dyn FnMut() -> bool,
    ) -> Option<Vec<u8>> {
        carrier::call(&self.w, image, request, gone)
    }

    fn serve(&self) {
        if self.serves {
            carrier::serve(&self.w);
        }
    }
}
