//! Joining a job over libfabric, started by a PMIx launcher: the launcher's ranks are the
//! images.

use super::start::{build, fail};
use super::{config, Runtime};
use crate::transport::control::Layout;
use crate::transport::fabric::Fabric;
use crate::transport::Transport;

/// Connects to the launcher, opens the endpoint over a registered segment and builds the
/// runtime.
pub(super) fn join() -> Runtime {
    let heap = config::heap_size().unwrap_or_else(|e| fail(e));
    let path = config::fabric_notify().unwrap_or_else(|e| fail(e));
    let sizes = |n: usize| {
        let ctrl = Layout { n }.size();
        (ctrl, ctrl + 2 * heap)
    };
    let fabric = Fabric::init(sizes, path).unwrap_or_else(|e| fail(e));
    if fabric.num_images() > config::MAX_IMAGES {
        fail(format!(
            "{} processes: ferrocaf supports at most {} images",
            fabric.num_images(),
            config::MAX_IMAGES
        ));
    }
    let seg_size = sizes(fabric.num_images()).1;
    let cpus = crate::sys::proc::online_cpus();
    // Where the launcher placed the images is unknown here: assume they share this node's
    // processors (the safe choice: waits nap instead of spinning when oversubscribed).
    let spin = config::spin_on(fabric.num_images(), cpus, config::SPIN_NAPPING)
        .unwrap_or_else(|e| fail(e));
    let fabric: &'static Fabric = Box::leak(Box::new(fabric));
    fabric.start_progress();
    // No job block reference: error termination is PMIx_Abort, which ends every process.
    build(fabric, None, heap, seg_size, (spin, cpus))
}
