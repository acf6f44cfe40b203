//! Process-wide state: which image this is, the job's transport, the coarray heaps and
//! registry, and per-image synchronisation state. Created lazily by the first runtime call
//! (static coarrays are registered before `main`, so that may precede `_gfortran_caf_init`).

mod broadcast;
pub mod coarrays;
pub mod collective;
pub mod config;
pub mod lifecycle;
pub mod notified;
pub mod registry;
pub mod size;
mod start;
#[cfg(feature = "fabric")]
mod start_fabric;
#[cfg(feature = "mpi")]
mod start_mpi;
pub mod statement;
mod stats;
pub mod status;
pub mod teams;

use crate::engine::alloc::Heap;
use crate::engine::attach::Attachments;
use crate::engine::barrier::Barrier;
use crate::engine::collective::Collectives;
use crate::engine::event::{Events, Strategy};
use crate::engine::notify::Notifier;
use crate::engine::stats::Stats;
use crate::engine::sync_images::SyncImages;
use crate::engine::wait::Waiter;
use crate::transport::control::Header;
use crate::transport::Transport;
use std::sync::{Mutex, MutexGuard, OnceLock};

/// The one runtime object of an image process.
pub struct Runtime {
    /// The transport to every image (leaked: it lives as long as the process, and waits
    /// hold it too).
    pub tp: &'static dyn Transport,
    /// 0-based index of this image in the initial team.
    pub me: usize,
    /// Images in the job.
    pub n: usize,
    /// The current team (dereferences to it; switched by CHANGE TEAM and END TEAM).
    pub team: teams::Teams,
    /// This image's doorbell-based waiter.
    pub waiter: Waiter,
    /// SYNC ALL state of every team level.
    pub barrier: Barrier,
    /// Collective state of every team level.
    pub collectives: Collectives,
    /// Event attachments (symmetric on every image).
    pub attachments: Attachments,
    /// Notified-access state (ring consumer, unexpected list, requests).
    pub notifier: Notifier,
    /// How events are implemented (FERROCAF_EVENTS).
    pub event_strategy: Strategy,
    /// SYNC IMAGES state.
    pub sync_images: SyncImages,
    /// Collective (symmetric) heap.
    pub sym: Mutex<Heap>,
    /// This image's local heap.
    pub local: Mutex<Heap>,
    /// Live registrations by offset.
    pub registry: registry::Registry,
    /// This image's control-block header.
    pub header: &'static Header,
    /// Address of this image's segment.
    pub seg_base: usize,
    /// Bytes per segment.
    pub seg_size: usize,
    /// This image's statistics (FERROCAF_STATS).
    pub stats: &'static Stats,
    /// Whether they are collected (`stats.on()`, kept here too: one load fewer on the fast
    /// paths).
    pub stats_on: bool,
    /// Whether the next SYNC ALL completes an ALLOCATE.
    pub pending: statement::Pending,
}

static RUNTIME: OnceLock<Runtime> = OnceLock::new();

/// The runtime, joining the job (or becoming its supervisor) on first use.
pub fn get() -> &'static Runtime {
    RUNTIME.get_or_init(start::start)
}

/// The runtime, without the test that it has been started.
///
/// # Safety
/// [`get`] has returned before (in any thread).
pub unsafe fn started() -> &'static Runtime {
    // SAFETY: initialised, as the caller guarantees; a OnceLock is never emptied.
    unsafe { RUNTIME.get().unwrap_unchecked() }
}

/// The runtime if it has been started.
pub fn try_get() -> Option<&'static Runtime> {
    RUNTIME.get()
}

impl Runtime {
    /// Locks a heap, ignoring poisoning (a panic aborts the process anyway).
    pub fn heap(m: &Mutex<Heap>) -> MutexGuard<'_, Heap> {
        m.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Segment offset of a local address inside this image's segment.
    pub fn offset_of(&self, addr: usize) -> Option<usize> {
        addr.checked_sub(self.seg_base)
            .filter(|o| *o < self.seg_size)
    }

    /// Event operations with the configured strategy.
    pub fn events(&self) -> Events<'_> {
        Events {
            tp: self.tp,
            w: &self.waiter,
            notifier: &self.notifier,
            strategy: self.event_strategy,
            team: &self.team,
        }
    }

    /// Local address of offset `off` in this image's segment.
    pub fn local_addr(&self, off: usize) -> usize {
        self.seg_base + off
    }
}
