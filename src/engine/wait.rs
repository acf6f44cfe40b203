//! Blocking waits that never burn a shared core: spin briefly, then sleep on this image's
//! doorbell (a futex in its control block) until a poster rings it.

use super::stats::Stats;
use crate::error::CafResult;
use crate::transport::control::{Header, JobBlock};
use crate::transport::doorbell::{Bell, OsFutex};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Upper bound on one sleep; waits re-check their condition (and job abort) at least this often.
const NAP: Duration = Duration::from_millis(100);

/// Everything a blocking wait of this image needs.
pub struct Waiter {
    header: &'static Header,
    job: &'static JobBlock,
    spin: u32,
    /// This image's statistics (wait times are added to them).
    pub stats: &'static Stats,
}

impl Waiter {
    /// A waiter sleeping on `header`'s doorbell, watching `job` for error termination, timing
    /// its waits into `stats` when they are on.
    pub fn new(
        header: &'static Header,
        job: &'static JobBlock,
        spin: u32,
        stats: &'static Stats,
    ) -> Waiter {
        Waiter {
            header,
            job,
            spin,
            stats,
        }
    }

    /// Exit code of a job-wide error termination in progress, if any.
    pub fn aborting(&self) -> Option<i32> {
        JobBlock::abort_code(self.job.abort.load(Ordering::SeqCst))
    }

    /// Calls `poll` until it yields a result. Between polls, spins up to the configured count,
    /// then sleeps until the doorbell rings. If another image starts error termination while
    /// this one waits, this image ends with that exit code. With statistics on, the time is
    /// added to the current wait kind ([`Stats::during`]).
    pub fn block<T>(&self, poll: impl FnMut() -> Option<CafResult<T>>) -> CafResult<T> {
        if !self.stats.on() {
            return self.wait(poll);
        }
        let t0 = Instant::now();
        let r = self.wait(poll);
        self.stats.waited(t0.elapsed());
        r
    }

    /// [`Waiter::block`] without statistics.
    fn wait<T>(&self, mut poll: impl FnMut() -> Option<CafResult<T>>) -> CafResult<T> {
        for _ in 0..self.spin {
            if let Some(r) = poll() {
                return r;
            }
            std::hint::spin_loop();
        }
        let bell = Bell {
            seq: &self.header.bell,
            sleepers: &self.header.sleepers,
        };
        loop {
            if let Some(r) = poll() {
                return r;
            }
            if let Some(code) = self.aborting() {
                crate::sys::proc::exit(code);
            }
            let mut found = None;
            bell.sleep(&OsFutex(NAP), || {
                found = poll();
                found.is_some()
            });
            if let Some(r) = found {
                return r;
            }
        }
    }
}
