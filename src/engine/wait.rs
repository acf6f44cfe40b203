//! Blocking waits that never burn a shared core: spin briefly, then sleep on this image's
//! doorbell (a futex in its control block) until a poster rings it.

use crate::error::CafResult;
use crate::transport::control::{Header, JobBlock};
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Upper bound on one sleep; waits re-check their condition (and job abort) at least this often.
const NAP: Duration = Duration::from_millis(100);

/// Polls between two `sched_yield` calls while spinning.
const YIELD_EVERY: u32 = 64;

/// Everything a blocking wait of this image needs.
pub struct Waiter {
    header: &'static Header,
    job: &'static JobBlock,
    spin: u32,
}

impl Waiter {
    /// A waiter sleeping on `header`'s doorbell, watching `job` for error termination.
    pub fn new(header: &'static Header, job: &'static JobBlock, spin: u32) -> Waiter {
        Waiter { header, job, spin }
    }

    /// Exit code of a job-wide error termination in progress, if any.
    pub fn aborting(&self) -> Option<i32> {
        JobBlock::abort_code(self.job.abort.load(Ordering::SeqCst))
    }

    /// Calls `poll` until it yields a result. Between polls, spins up to the configured count,
    /// then sleeps until the doorbell rings. If another image starts error termination while
    /// this one waits, this image ends with that exit code.
    pub fn block<T>(&self, mut poll: impl FnMut() -> Option<CafResult<T>>) -> CafResult<T> {
        for i in 0..self.spin {
            if let Some(r) = poll() {
                return r;
            }
            if i % YIELD_EVERY == YIELD_EVERY - 1 {
                // The image this one waits for may be queued on this very core (other load,
                // or more runnable processes than cores): let it run instead of spinning out
                // the time slice.
                std::thread::yield_now();
            } else {
                std::hint::spin_loop();
            }
        }
        let h = self.header;
        loop {
            if let Some(r) = poll() {
                return r;
            }
            if let Some(code) = self.aborting() {
                crate::sys::proc::exit(code);
            }
            h.sleepers.fetch_add(1, Ordering::SeqCst);
            let seq = h.bell.load(Ordering::SeqCst);
            if let Some(r) = poll() {
                h.sleepers.fetch_sub(1, Ordering::SeqCst);
                return r;
            }
            crate::sys::futex::wait(&h.bell, seq, NAP);
            h.sleepers.fetch_sub(1, Ordering::SeqCst);
        }
    }
}
