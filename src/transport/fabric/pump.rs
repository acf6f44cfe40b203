//! The progress thread. With manual data progress (tcp;ofi_rxm, shm), a provider moves data
//! into an image's memory, answers reads and applies atomics only while that image calls into
//! libfabric. Waits do so by polling [`Transport::progress`](crate::transport::Transport);
//! an image that computes for long would stall every peer's access to it, so a thread polls
//! the endpoint every [`PERIOD`] (taking the endpoint lock only when it is free). It sleeps in
//! between, so it costs no core: with the waiters driving progress themselves, it matters only
//! for a target that is busy elsewhere.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread::JoinHandle;
use std::time::Duration;

/// Pause between two polls of the progress thread.
pub(super) const PERIOD: Duration = Duration::from_millis(1);

/// A running progress thread.
pub(super) struct Pump {
    stop: &'static AtomicBool,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl Pump {
    /// Starts a thread calling `poll` every [`PERIOD`] until [`Pump::stop`].
    pub(super) fn start(poll: impl Fn() + Send + 'static) -> Pump {
        let stop: &'static AtomicBool = Box::leak(Box::new(AtomicBool::new(false)));
        let thread = std::thread::Builder::new()
            .name("ferrocaf-fabric".into())
            .spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    poll();
                    std::thread::sleep(PERIOD);
                }
            })
            .expect("cannot start the fabric progress thread");
        Pump {
            stop,
            thread: Mutex::new(Some(thread)),
        }
    }

    /// Stops the thread and waits for it.
    pub(super) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        let t = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(t) = t {
            let _ = t.join();
        }
    }
}
