//! Image termination: normal (STOP, END PROGRAM), error (ERROR STOP, runtime errors) and the
//! message format of fatal runtime errors.

use super::Runtime;
use crate::engine::status::{
    self as status, CODE, JOB_ABORT, JOB_ABORT_CLAIM, JOB_FAILED, JOB_STOPPED, STATUS,
};
use crate::error::CafError;
use crate::sys::proc::say;
use crate::transport::control::{status::ERROR_STOPPED, status::STOPPED, JobBlock};
use crate::transport::AtomicOp;
use std::io::Write;

impl Runtime {
    /// Initiates normal termination (Fortran 2018 5.3.7): marks this image stopped, then waits
    /// until every image has initiated termination, so its memory stays reachable for them.
    pub fn terminate_normally(&self, code: i32) {
        self.set_status(STOPPED, code);
        self.tp.fetch_op(0, JOB_STOPPED, 4, AtomicOp::Add, 1);
        status::announce(self.tp);
        self.await_job_end();
    }

    /// Stores this image's termination `code`, then its `state` (through the transport, so
    /// that peers' atomic reads see them in that order).
    pub(super) fn set_status(&self, state: u32, code: i32) {
        let me = self.me;
        self.tp
            .fetch_op(me, CODE, 4, AtomicOp::Swap, code as u32 as u64);
        self.tp
            .fetch_op(me, STATUS, 4, AtomicOp::Swap, state as u64);
    }

    /// Waits until every image has stopped or failed, then releases the transport.
    pub(super) fn await_job_end(&self) {
        let n = self.n as u64;
        let _ = self.waiter.block_remote(|| {
            let done = self.tp.fetch_op(0, JOB_STOPPED, 4, AtomicOp::Load, 0)
                + self.tp.fetch_op(0, JOB_FAILED, 4, AtomicOp::Load, 0);
            (done >= n).then_some(Ok(()))
        });
        self.print_stats();
        self.tp.finish();
    }

    /// STOP: prints `STOP <code>` (unless quiet or bare), terminates normally, exits with `code`.
    pub fn stop(&self, code: i32, text: Option<&str>, quiet: bool) -> ! {
        if !quiet {
            match text {
                Some(t) => say(format_args!("STOP {t}")),
                None if code != 0 => say(format_args!("STOP {code}")),
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
                Some(t) => say(format_args!("ERROR STOP {t}")),
                None => say(format_args!("ERROR STOP {code}")),
            }
        }
        self.abort(code)
    }

    /// Error termination without a message: records the code, wakes every image, exits.
    pub fn abort(&self, code: i32) -> ! {
        // The abort word first: an image that sees this status then also sees the code, and
        // ends quietly with it instead of reporting this image as stopped. Only the first to
        // claim it writes it.
        if self.tp.compare_swap(0, JOB_ABORT_CLAIM, 4, 0, 1) == 0 {
            self.tp.fetch_op(
                0,
                JOB_ABORT,
                8,
                AtomicOp::Swap,
                JobBlock::encode_abort(code),
            );
        }
        self.set_status(ERROR_STOPPED, code);
        status::announce(self.tp);
        let _ = std::io::stdout().flush();
        let _ = std::io::stderr().flush();
        self.tp.abort_job(code);
        crate::sys::proc::exit(code)
    }

    /// Ends the program because `err` happened in `what` and no `stat=` was given:
    /// `ferrocaf: image N: <error> (<what>)`, then error termination with status 1.
    pub fn fatal(&self, err: &CafError, what: &str) -> ! {
        if let Some(code) = self.waiter.aborting() {
            // Another image already started error termination; its message is the one that
            // matters, and this error is a consequence of it.
            self.waiter.follow_abort(code);
        }
        say(format_args!(
            "ferrocaf: image {}: {err} ({what})",
            self.me + 1
        ));
        self.abort(1)
    }
}
