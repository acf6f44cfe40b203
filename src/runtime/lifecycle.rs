//! Image termination: normal (STOP, END PROGRAM), error (ERROR STOP, runtime errors) and the
//! message format of fatal runtime errors.

use super::Runtime;
use crate::error::CafError;
use crate::transport::control::{status, JobBlock};
use std::io::Write;
use std::sync::atomic::Ordering;

impl Runtime {
    /// Tells every image to re-check what it waits for.
    fn ring_all(&self) {
        for j in 0..self.n {
            self.tp.ring(j);
        }
    }

    /// Initiates normal termination (Fortran 2018 5.3.7): marks this image stopped, then waits
    /// until every image has initiated termination, so its memory stays reachable for them.
    pub fn terminate_normally(&self, code: i32) {
        let h = self.header;
        h.code.store(code as u32, Ordering::SeqCst);
        h.status.store(status::STOPPED, Ordering::SeqCst);
        self.job.stopped.fetch_add(1, Ordering::SeqCst);
        self.ring_all();
        let n = self.n as u32;
        let _ = self.waiter.block(|| {
            let done =
                self.job.stopped.load(Ordering::SeqCst) + self.job.failed.load(Ordering::SeqCst);
            (done >= n).then_some(Ok(()))
        });
        self.print_stats();
    }

    /// STOP: prints `STOP <code>` (unless quiet or bare), terminates normally, exits with `code`.
    pub fn stop(&self, code: i32, text: Option<&str>, quiet: bool) -> ! {
        if !quiet {
            match text {
                Some(t) => eprintln!("STOP {t}"),
                None if code != 0 => eprintln!("STOP {code}"),
                None => {}
            }
        }
        self.terminate_normally(code);
        crate::sys::proc::exit(code)
    }

    /// ERROR STOP: prints `ERROR STOP <code>` (unless quiet), makes every image end promptly,
    /// exits with `code`.
    pub fn error_stop(&self, code: i32, text: Option<&str>, quiet: bool) -> ! {
        if !quiet {
            match text {
                Some(t) => eprintln!("ERROR STOP {t}"),
                None => eprintln!("ERROR STOP {code}"),
            }
        }
        self.abort(code)
    }

    /// Error termination without a message: records the code, wakes every image, exits.
    pub fn abort(&self, code: i32) -> ! {
        let h = self.header;
        h.code.store(code as u32, Ordering::SeqCst);
        h.status.store(status::ERROR_STOPPED, Ordering::SeqCst);
        let _ = self.job.abort.compare_exchange(
            0,
            JobBlock::encode_abort(code),
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
        self.ring_all();
        let _ = std::io::stderr().flush();
        crate::sys::proc::exit(code)
    }

    /// Ends the program because `err` happened in `what` and no `stat=` was given:
    /// `ferrocaf: image N: <error> (<what>)`, then error termination with status 1.
    pub fn fatal(&self, err: &CafError, what: &str) -> ! {
        if let Some(code) = self.waiter.aborting() {
            // Another image already started error termination; its message is the one that
            // matters, and this error is a consequence of it.
            crate::sys::proc::exit(code);
        }
        eprintln!("ferrocaf: image {}: {err} ({what})", self.me + 1);
        self.abort(1)
    }
}
