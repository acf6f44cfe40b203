//! Blocking waits that never burn a shared core: spin briefly, then sleep on this image's
//! doorbell (a futex in its control block) until a poster rings it.
//!
//! The user's [`Policy`] (FERROCAF_WAIT) selects the phases of the one shared wait: `auto`
//! spins, yields while yields pay and sleeps ([`Waiter::block`]); `passive` goes straight to
//! the sleep after one poll and shuts the image's [`YieldGate`], so nothing of the image
//! yields; `active` never sleeps (`Waiter::active`): posters ring a bell nobody sleeps on,
//! and the wait checks for error termination on the clock as the sleep does on waking.
//!
//! Over a transport that cannot wake another process (MPI across nodes), waits poll with
//! naps, and never poll the network: a poll that loads only this image's memory
//! ([`Waiter::block`], [`Waiter::block_ready`]) runs at every turn; one that reads other
//! images' words ([`Waiter::block_remote`], [`Waiter::block_lock`]: a lock's state word, the
//! central barrier's generation) runs again only when the bell word in this image's header
//! moved, which posters of such changes move remotely ([`Transport::alert`]), the futex
//! doorbell protocol with a watched word; there `auto` spins up to the configured count, then
//! yields through the [`YieldGate`] for up to `YIELD_FOR` (none once a yield proved slow), then
//! naps; `passive` naps from the first poll and `active` spins without naps, yielding every
//! `YIELD_EVERY` turns when the job's images outnumber the cores, as it does where waits can
//! sleep. Checks for terminated images and for error termination read remote words only once
//! a termination has been announced (`status::news`).

use super::long_wait::{History, Span, SHORT_POLLS};
use super::pace::{Pace, Step, YIELD_EVERY};
use super::stats::{Counter, Stats};
use super::status::news;
use super::wait_policy::Policy;
use crate::error::CafResult;
use crate::transport::control::{Header, JobBlock};
use crate::transport::doorbell::{Bell, OsFutex, NO_EVENT};
use crate::transport::owner;
use crate::transport::yield_gate::{self, YieldGate};
use crate::transport::Transport;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How long a wait polls with `sched_yield` after spinning and before it sleeps (while its
/// [`YieldGate`] is open).
const YIELD_FOR: Duration = Duration::from_micros(50);
/// Upper bound on one sleep; waits re-check their condition (and job abort) at least this often.
const NAP: Duration = Duration::from_millis(100);
/// How long an image that sees another's error termination leaves it to end the job itself
/// (transports with a job-wide abort), before aborting the job too.
const FOLLOW_GRACE: Duration = Duration::from_millis(500);

/// The most polls of a wait before it sleeps while the [`YieldGate`] is closed (outside
/// load), without yielding: a partner running on the other core at the same time is caught
/// without a sleep and a wake-up. (An adaptive count, 8-256 polls as glibc's adaptive
/// mutexes, and an adaptive time, 2 µs-2 ms, were measured against it and showed nothing:
/// bench/NOTES.md.)
const LOADED_SPIN: u32 = 256;

/// The most polls of a LOCK's wait before it sleeps while the [`YieldGate`] is closed
/// ([`Waiter::block_lock`]).
const LOCK_POLLS: u32 = 100;

/// What a wait's poll reads, which decides how it polls.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Only this image's memory ([`Waiter::block`]).
    Local,
    /// Other images' memory too ([`Waiter::block_remote`]).
    Remote,
    /// A lock's words ([`Waiter::block_lock`]).
    Lock,
}

/// Polls of an active wait between two reads of the clock (which decide when it checks for
/// error termination, every [`NAP`] as a sleeping wait does).
const CLOCK_EVERY: u32 = 256;

/// Everything a blocking wait of this image needs.
pub struct Waiter {
    header: &'static Header,
    /// The job block, when this process can read it directly (shm); `None` when the transport
    /// ends the job itself on error termination (MPI_Abort).
    job: Option<&'static JobBlock>,
    tp: &'static dyn Transport,
    spin: u32,
    /// The wait policy (FERROCAF_WAIT): which phases the waits go through.
    policy: Policy,
    /// Whether the job's images outnumber the cores.
    shared: bool,
    /// Whether spinning and yielding pay now (no outside load): the image's gate, which the
    /// transports' waits that cannot sleep until woken yield through too.
    gate: &'static YieldGate,
    /// Whether the current wait's polls are those right before it sleeps ([`Waiter::parking`]).
    parking: AtomicBool,
    /// How long this image's recent waits were: whether the next sleeps at once (only when
    /// each image has a core; with images outnumbering the cores yields are how they take
    /// turns).
    history: Option<History>,
    /// This image's statistics (wait times are added to them).
    pub stats: &'static Stats,
}

impl Waiter {
    /// A waiter sleeping on `header`'s doorbell (or polling `tp` when it cannot wake),
    /// watching `job` for error termination, timing its waits into `stats` when they are on;
    /// `spin`: polls before an `auto` wait yields and sleeps; `shared`: the job's images
    /// outnumber its cores ([`YieldGate::set_shared`]); `policy`: which phases waits go
    /// through (`passive` shuts the image's gate for good).
    pub fn new(
        header: &'static Header,
        job: Option<&'static JobBlock>,
        tp: &'static dyn Transport,
        (spin, shared, policy): (u32, bool, Policy),
        stats: &'static Stats,
    ) -> Waiter {
        let gate = yield_gate::image();
        gate.set_shared(shared);
        if policy == Policy::Passive {
            gate.shut();
        }
        Waiter {
            header,
            job,
            tp,
            spin,
            policy,
            shared,
            gate,
            parking: AtomicBool::new(false),
            history: (!shared).then(History::default),
            stats,
        }
    }

    /// Whether the poll running now is one right before this image sleeps (or, over a
    /// transport that cannot wake, naps until its bell moves): a poll announces only then
    /// what a poster must wake it for (LOCK's parked bit), so that a wait answered while
    /// polling costs the poster no wake-up.
    pub fn parking(&self) -> bool {
        self.parking.load(Ordering::Relaxed)
    }

    /// Whether a waker should hand its core over after ringing (the barrier's wake-up tree):
    /// this image's waits currently see outside load (its [`YieldGate`] is closed: yields
    /// handed the core to processes that ran on), unless the policy is `passive`, which never
    /// yields.
    pub fn hands_over(&self) -> bool {
        self.policy != Policy::Passive && !self.gate.open()
    }

    /// Exit code of a job-wide error termination in progress, if any. Without a mapped job
    /// block (MPI) a remote read, made only once a termination has been announced (an image
    /// that starts error termination announces it).
    pub fn aborting(&self) -> Option<i32> {
        let word = match self.job {
            Some(job) => job.abort.load(Ordering::SeqCst),
            None if news(self.tp) == 0 => return None,
            None => self.tp.fetch_op(
                0,
                super::status::JOB_ABORT,
                8,
                crate::transport::AtomicOp::Load,
                0,
            ),
        };
        JobBlock::abort_code(word)
    }

    /// Ends this image because another one started error termination with `code`: through the
    /// transport's job-wide abort where there is one (MPI), else by exiting (the supervisor
    /// ends the rest). Under MPI the image that started it aborts the job itself right after
    /// publishing the code, so this one first leaves it `FOLLOW_GRACE` to do so: when several
    /// ranks call MPI_Abort at once, MPICH's launcher may drop that image's message.
    pub fn follow_abort(&self, code: i32) -> ! {
        if self.job.is_none() {
            std::thread::sleep(FOLLOW_GRACE);
        }
        self.tp.abort_job(code);
        crate::sys::proc::exit(code)
    }

    /// Calls `poll` until it yields a result, in the phases the [`Policy`] chooses: `passive`
    /// polls once, then sleeps until the doorbell rings; `active` polls until answered
    /// (`Waiter::active`); `auto`: between polls, spins up to the configured count,
    /// then yields the core for up to `YIELD_FOR`, then sleeps until the doorbell rings;
    /// once a yield proved slow (outside load, [`YieldGate`]), it polls without yielding at
    /// most `LOADED_SPIN` times (and the configured count), then sleeps. When each image has
    /// a core and this image's recent waits were long and shared its CPU with another task
    /// (`engine/long_wait.rs`), it polls only `SHORT_POLLS` times, then sleeps. If
    /// another image starts error termination while this one waits, this image ends with that
    /// exit code. With statistics on, the time is added to the current wait kind
    /// ([`Stats::during`]).
    ///
    /// `poll` must load only this image's memory (or gate other loads on `status::news`):
    /// a transport that cannot wake runs it at every turn.
    pub fn block<T>(&self, poll: impl FnMut() -> Option<CafResult<T>>) -> CafResult<T> {
        self.timed(poll, Kind::Local, NO_EVENT)
    }

    /// [`Waiter::block`] for a poll that reads other images' memory, whose changes the poster
    /// signals with [`Transport::alert`]: a transport that cannot wake runs it again only when
    /// this image's bell moved (or after `NAP`).
    pub fn block_remote<T>(&self, poll: impl FnMut() -> Option<CafResult<T>>) -> CafResult<T> {
        self.timed(poll, Kind::Remote, NO_EVENT)
    }

    /// [`Waiter::block_remote`] for LOCK: never spins. While yields pay ([`YieldGate`] open)
    /// it polls once per `sched_yield` for up to `YIELD_FOR`, else at most `LOCK_POLLS`
    /// times; then it sleeps. A holder that releases and re-takes the lock at once (barging)
    /// is only slowed by a waiter polling the lock's line: a waiter that polls about once a
    /// microsecond leaves the line to the holder, which runs on until the waiter claims the
    /// next hand-off (`engine/lock.rs`; a contended 2-image LOCK took 0.15 µs per critical
    /// section so, 0.25 µs with 100 spinning polls, bench/NOTES.md).
    pub fn block_lock<T>(&self, poll: impl FnMut() -> Option<CafResult<T>>) -> CafResult<T> {
        self.timed(poll, Kind::Lock, NO_EVENT)
    }

    /// Waits until `ready()` (a load of this image's memory) holds, or `gone()` (which may
    /// read other images' state) reports that it never will; `gone` runs first and then only
    /// when a termination was announced since its last run, the only event that changes its
    /// answer. A `gone` error is re-checked against `ready`, after [`Transport::progress`]
    /// has received what has arrived: a peer may signal, then stop, and where signals travel
    /// as messages (MPI across nodes) its signal may have arrived unreceived when its
    /// termination, an atomic on the same channel after it, is seen.
    pub fn block_ready(
        &self,
        ready: impl Fn() -> bool,
        gone: impl Fn() -> CafResult<()>,
    ) -> CafResult<()> {
        self.block_event(NO_EVENT, ready, gone)
    }

    /// [`Waiter::block_ready`] for a post of the event whose key is `key`
    /// ([`crate::transport::doorbell::event_key`]; [`NO_EVENT`] for every other wait): only
    /// that event's posts and changes that are not an event's post wake it from its sleep
    /// ([`Transport::ring_event`]).
    pub fn block_event(
        &self,
        key: u32,
        ready: impl Fn() -> bool,
        gone: impl Fn() -> CafResult<()>,
    ) -> CafResult<()> {
        let mut seen = None;
        let poll = || {
            if ready() {
                return Some(Ok(()));
            }
            // `news` of this image's own header: one load per poll, no transport call.
            let now = Some(self.header.news.load(Ordering::Acquire));
            if seen == now {
                return None;
            }
            seen = now;
            let err = gone().err()?;
            self.tp.progress();
            Some(if ready() { Ok(()) } else { Err(err) })
        };
        self.timed(poll, Kind::Local, key)
    }

    /// [`Waiter::block`] with statistics when they are on.
    fn timed<T>(
        &self,
        poll: impl FnMut() -> Option<CafResult<T>>,
        kind: Kind,
        key: u32,
    ) -> CafResult<T> {
        if !self.stats.on() {
            return self.wait(poll, kind, key);
        }
        let t0 = Instant::now();
        let r = self.wait(poll, kind, key);
        self.stats.waited(t0.elapsed());
        r
    }

    /// [`Waiter::block`] without statistics; its sleeps wait for `key`
    /// ([`crate::transport::doorbell`]).
    fn wait<T>(
        &self,
        poll: impl FnMut() -> Option<CafResult<T>>,
        kind: Kind,
        key: u32,
    ) -> CafResult<T> {
        if !self.tp.can_wake() {
            self.parking.store(true, Ordering::Relaxed);
            let pace = match self.policy {
                Policy::Auto => Pace::yielding(self.spin, YIELD_FOR),
                Policy::Passive => Pace::new(0),
                Policy::Active => Pace::endless(self.shared),
            };
            return self.poll_with_naps(poll, kind != Kind::Local, pace);
        }
        crate::transport::shm::stream::wait_begins(self.header);
        let r = match self.policy {
            Policy::Auto => self.spin_then_sleep(poll, kind == Kind::Lock, key),
            Policy::Passive => self.sleep(poll, key),
            Policy::Active => self.active(poll),
        };
        self.parking.store(false, Ordering::Relaxed);
        r
    }

    /// The `auto` phases of a wait over a transport that can wake: polls ([`Waiter::phases`], which
    /// this image's [`History`] of waits chooses and records into; for a `lock`, the polls
    /// [`Waiter::block_lock`] describes), then sleeps on the doorbell until `poll` answers.
    fn spin_then_sleep<T>(
        &self,
        mut poll: impl FnMut() -> Option<CafResult<T>>,
        lock: bool,
        key: u32,
    ) -> CafResult<T> {
        if lock {
            let polled = if self.gate.open() {
                self.yields(&mut poll, &mut Span::new(false))
            } else {
                self.polls(&mut poll, LOCK_POLLS)
            };
            return match polled {
                Some(r) => r,
                None => self.sleep(poll, key),
            };
        }
        let mut span = Span::new(self.history.is_some());
        let r = self.phases(&mut poll, &mut span, key);
        if let Some(h) = &self.history {
            h.record(&span);
        }
        r
    }

    /// The polls of a wait, then its sleep: after long waits that shared the CPU
    /// ([`History`]) at most [`SHORT_POLLS`] without yielding; under outside load (the
    /// [`YieldGate`] closed) at most [`LOADED_SPIN`] without yielding; else spinning and
    /// yielding. `span` records how it went.
    fn phases<T>(
        &self,
        poll: &mut impl FnMut() -> Option<CafResult<T>>,
        span: &mut Span,
        key: u32,
    ) -> CafResult<T> {
        if self.history.as_ref().is_some_and(History::sleeps_at_once) {
            if let Some(r) = self.polls(poll, SHORT_POLLS) {
                return r;
            }
            span.sleeping();
        } else if !self.gate.open() {
            if let Some(r) = self.polls(poll, LOADED_SPIN) {
                return r;
            }
            span.sleeping();
        } else if let Some(r) = self.spin_and_yield(poll, span) {
            return r;
        }
        self.sleep(poll, key)
    }

    /// An `active` wait: polls until `poll` answers, never sleeping (posters ring a bell
    /// nobody sleeps on, which costs them a fence and a load); yields every [`YIELD_EVERY`]
    /// polls only when the job's images outnumber the cores (the awaited image may need this
    /// very core), whatever the [`YieldGate`] says. Checks for error termination every [`NAP`],
    /// as a sleeping wait does; terminated images are the poll's to see.
    fn active<T>(&self, mut poll: impl FnMut() -> Option<CafResult<T>>) -> CafResult<T> {
        let (mut checked, mut i) = (Instant::now(), 0u32);
        loop {
            if let Some(r) = poll() {
                return r;
            }
            i = i.wrapping_add(1);
            if self.shared && i.is_multiple_of(YIELD_EVERY) {
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
            if i.is_multiple_of(CLOCK_EVERY) && checked.elapsed() >= NAP {
                if let Some(code) = self.aborting() {
                    self.follow_abort(code);
                }
                checked = Instant::now();
            }
        }
    }

    /// Sleeps on the doorbell, waiting for `key`, until `poll` answers.
    fn sleep<T>(&self, mut poll: impl FnMut() -> Option<CafResult<T>>, key: u32) -> CafResult<T> {
        let bell = Bell {
            seq: &self.header.bell,
            sleepers: &self.header.sleepers,
        };
        self.parking.store(true, Ordering::Relaxed);
        loop {
            if let Some(r) = poll() {
                return r;
            }
            if let Some(code) = self.aborting() {
                self.follow_abort(code);
            }
            let mut found = None;
            let seq = self.header.bell.load(Ordering::Relaxed);
            bell.sleep(&OsFutex(NAP), key, || {
                found = poll();
                found.is_some()
            });
            if self.header.bell.load(Ordering::Relaxed) != seq {
                self.stats.add(Counter::Wakeups, 1);
            }
            if let Some(r) = found {
                return r;
            }
        }
    }

    /// Polls without yielding: at most `most` times after the first (and the configured
    /// count). Returns `None` when the wait should sleep.
    fn polls<T>(
        &self,
        poll: &mut impl FnMut() -> Option<CafResult<T>>,
        most: u32,
    ) -> Option<CafResult<T>> {
        (0..=self.spin.min(most)).find_map(|i| {
            if i > 0 {
                std::hint::spin_loop();
            }
            poll()
        })
    }

    /// The polling phases of a wait before it sleeps: up to the configured count of spins,
    /// then `sched_yield` for up to [`YIELD_FOR`]. Returns `None` when the wait should sleep,
    /// early when a yield was slow.
    fn spin_and_yield<T>(
        &self,
        poll: &mut impl FnMut() -> Option<CafResult<T>>,
        span: &mut Span,
    ) -> Option<CafResult<T>> {
        for i in 0..self.spin {
            if let Some(r) = poll() {
                return Some(r);
            }
            if i % YIELD_EVERY == YIELD_EVERY - 1 {
                // The image this one waits for may be queued on this very core (more runnable
                // images than cores): let it run instead of spinning out the time slice.
                span.begin();
                span.yielded(self.gate.yield_timed()?);
            } else {
                std::hint::spin_loop();
            }
        }
        self.yields(poll, span)
    }

    /// Polls with `sched_yield` between polls for up to [`YIELD_FOR`]: the awaited image is
    /// often about to run (or needs this core to); only a long wait pays for a futex sleep and
    /// wake-up. Returns `None` when the wait should sleep, early when a yield was slow.
    fn yields<T>(
        &self,
        poll: &mut impl FnMut() -> Option<CafResult<T>>,
        span: &mut Span,
    ) -> Option<CafResult<T>> {
        span.begin();
        let until = Instant::now() + YIELD_FOR;
        loop {
            if let Some(r) = poll() {
                return Some(r);
            }
            span.yielded(self.gate.yield_timed()?);
            if Instant::now() >= until {
                return None;
            }
        }
    }

    /// The wait of a transport that cannot wake. Each turn: progress, read the bell, poll if the
    /// poll is local, or the bell moved, or [`NAP`] passed since the last poll; then spin or nap,
    /// at the `pace` the policy chose (`auto`: spins up to the configured count, then yields
    /// through the [`YieldGate`] for up to `YIELD_FOR`; `passive`: naps at once; `active`: spins
    /// for good, yielding every few turns when the job's images outnumber the cores), which the
    /// bell and the owner-side calls served set. Posters change their word before they alert, so a
    /// change a poll missed moves the bell after it was read. Progress comes first so that the
    /// loads see every remote update completed before; a poll that succeeds is followed by
    /// [`Transport::settle`].
    fn poll_with_naps<T>(
        &self,
        mut poll: impl FnMut() -> Option<CafResult<T>>,
        remote: bool,
        mut pace: Pace,
    ) -> CafResult<T> {
        let (mut seq, mut due, mut since) = (self.header.bell.load(Ordering::Acquire), true, None);
        let mut served = owner::served();
        loop {
            self.tp.progress();
            let rung = self.header.bell.load(Ordering::Acquire);
            if rung != seq {
                (seq, due) = (rung, true);
                pace.news();
            }
            if owner::served() != served {
                served = owner::served();
                pace.served();
            }
            if due || !remote || since.is_some_and(|t: Instant| t.elapsed() >= NAP) {
                if let Some(r) = poll() {
                    self.tp.settle();
                    return r;
                }
                if let Some(code) = self.aborting() {
                    self.follow_abort(code);
                }
                due = false;
                since = remote.then(Instant::now);
            }
            match pace.step(Instant::now) {
                Step::Spin => std::hint::spin_loop(),
                Step::Yield => std::thread::yield_now(),
                Step::GateYield => {
                    if self.gate.yield_timed().is_none() {
                        pace.slow_yield();
                    }
                }
                Step::Nap(nap) => {
                    std::thread::sleep(nap);
                    // A napping image is often the passive target of another's RMA (a put and
                    // its flush, a get): what arrived during the nap is served by the next
                    // progress, and the origin's follow-up by this one, a yield later (MPI
                    // across bed hosts: puts and gets to an image waiting in SYNC ALL took 2-3
                    // times as long with one entry into MPI per nap).
                    self.tp.progress();
                }
            }
        }
    }
}
