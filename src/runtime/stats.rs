//! FERROCAF_STATS=1: at normal termination each image prints its statistics line
//! ([`crate::engine::stats::Stats::line`]) on stderr, in image order. Every image has initiated
//! termination by then, so no collective is possible; instead the images take turns on the
//! job block's `stats_turn` word: image k prints when it holds k, then passes it on (a failed
//! image's turn is skipped by whoever waits behind it).

use super::Runtime;
use crate::engine::status;
use crate::transport::control::status::FAILED;
use std::io::Write;
use std::sync::atomic::Ordering;

impl Runtime {
    /// Prints this image's statistics line in its turn, if statistics are on.
    pub(super) fn print_stats(&self) {
        if !self.stats.on() {
            return;
        }
        let turn = &self.job.stats_turn;
        let me = self.me as u32;
        let _ = self.waiter.block(|| {
            let t = turn.load(Ordering::Acquire);
            if t == me {
                return Some(Ok(()));
            }
            if t < me && status::of(&*self.tp, t as usize) == FAILED {
                let _ = turn.compare_exchange(t, t + 1, Ordering::AcqRel, Ordering::Acquire);
            }
            None
        });
        let mut err = std::io::stderr().lock();
        let _ = writeln!(err, "{}", self.stats.line(self.me + 1));
        let _ = err.flush();
        turn.store(me + 1, Ordering::Release);
        for j in 0..self.n {
            self.tp.ring(j);
        }
    }
}
