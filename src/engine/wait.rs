//! Blocking waits that never burn a shared core: spin briefly, then sleep on this image's
//! doorbell (a futex in its control block) until a poster rings it. Over a transport that
//! cannot wake another process (MPI across nodes), waits poll instead, with short naps.

use crate::error::CafResult;
use crate::transport::control::{Header, JobBlock};
use crate::transport::Transport;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Upper bound on one sleep; waits re-check their condition (and job abort) at least this often.
const NAP: Duration = Duration::from_millis(100);
/// One nap of a polling wait (transports that cannot wake): short enough for latency, long
/// enough to leave the core to another image.
const POLL_NAP: Duration = Duration::from_micros(20);

/// Everything a blocking wait of this image needs.
pub struct Waiter {
    header: &'static Header,
    /// The job block, when this process can read it directly (shm); `None` when the transport
    /// ends the job itself on error termination (MPI_Abort).
    job: Option<&'static JobBlock>,
    tp: &'static dyn Transport,
    spin: u32,
}

impl Waiter {
    /// A waiter sleeping on `header`'s doorbell (or polling `tp` when it cannot wake),
    /// watching `job` for error termination.
    pub fn new(
        header: &'static Header,
        job: Option<&'static JobBlock>,
        tp: &'static dyn Transport,
        spin: u32,
    ) -> Waiter {
        Waiter {
            header,
            job,
            tp,
            spin,
        }
    }

    /// Exit code of a job-wide error termination in progress, if any.
    pub fn aborting(&self) -> Option<i32> {
        JobBlock::abort_code(self.job?.abort.load(Ordering::SeqCst))
    }

    /// Calls `poll` until it yields a result. Between polls, spins up to the configured count,
    /// then sleeps until the doorbell rings. If another image starts error termination while
    /// this one waits, this image ends with that exit code.
    pub fn block<T>(&self, mut poll: impl FnMut() -> Option<CafResult<T>>) -> CafResult<T> {
        if !self.tp.can_wake() {
            return self.poll_with_naps(poll);
        }
        for _ in 0..self.spin {
            if let Some(r) = poll() {
                return r;
            }
            std::hint::spin_loop();
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

    /// The wait of a transport that cannot wake: progress, poll, and after the spin budget a
    /// nap of [`POLL_NAP`] between polls. Progress comes first so that the poll's loads of
    /// this image's memory see every remote update completed before it.
    fn poll_with_naps<T>(&self, mut poll: impl FnMut() -> Option<CafResult<T>>) -> CafResult<T> {
        let mut polls = 0u32;
        loop {
            self.tp.progress();
            if let Some(r) = poll() {
                self.tp.progress();
                return r;
            }
            if let Some(code) = self.aborting() {
                crate::sys::proc::exit(code);
            }
            if polls >= self.spin {
                std::thread::sleep(POLL_NAP);
            } else {
                polls += 1;
            }
        }
    }
}
