//! FERROCAF_STATS=1: at normal termination each image prints its statistics line
//! ([`crate::engine::stats::Stats::line`]) on stderr, in image order. Every image has initiated
//! termination by then, so no collective is possible; instead the images take turns on the
//! job block's `stats_turn` word: image k prints when it holds k, then passes it on (a failed
//! image's turn is skipped by whoever waits behind it).

use super::Runtime;
use crate::engine::status;
use crate::transport::control::status::FAILED;
use crate::transport::control::{JobBlock, JOB};
use crate::transport::AtomicOp;
use std::io::Write;

impl Runtime {
    /// Prints this image's statistics line in its turn, if statistics are on.
    pub(super) fn print_stats(&self) {
        if !self.stats.on() {
            return;
        }
        // The turn word lives in image 1's job block; every access goes through the transport
        // (over MPI it is a remote word).
        let turn = JOB + std::mem::offset_of!(JobBlock, stats_turn);
        let me = self.me as u64;
        let _ = self.waiter.block_remote(|| {
            let t = self.tp.fetch_op(0, turn, 4, AtomicOp::Load, 0);
            if t == me {
                return Some(Ok(()));
            }
            if t < me && status::of(self.tp, t as usize) == FAILED {
                self.tp.compare_swap(0, turn, 4, t, t + 1);
            }
            None
        });
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{}", self.stats.line(self.me + 1));
        let _ = err.flush();
        self.tp.fetch_op(0, turn, 4, AtomicOp::Swap, me + 1);
        for j in 0..self.n {
            self.tp.alert(j);
        }
    }
}
