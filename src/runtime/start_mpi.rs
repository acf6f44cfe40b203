//! Joining a job started by an MPI launcher: MPI ranks are the images.

use super::start::{build, fail, launcher};
use super::{config, Runtime};
use crate::transport::control::Layout;
use crate::transport::mpi::Mpi;

/// Initialises MPI, creates the windows over every image's segment and builds the runtime.
pub(super) fn join() -> Runtime {
    let heap = config::heap_size().unwrap_or_else(|e| fail(e));
    let shm = config::mpi_shm().unwrap_or_else(|e| fail(e));
    let sizes = |n: usize| {
        let ctrl = Layout { n }.size();
        (ctrl, ctrl + 2 * heap)
    };
    let mpi = Mpi::init(sizes, shm).unwrap_or_else(|e| fail(e));
    if mpi.n > config::MAX_IMAGES {
        fail(format!(
            "{} MPI ranks: ferrocaf supports at most {} images",
            mpi.n,
            config::MAX_IMAGES
        ));
    }
    check_launcher(&mpi);
    let seg_size = sizes(mpi.n).1;
    // MPI launchers bind each rank to its own cores, so the CPUs this process may use say
    // nothing about oversubscription: compare the node's images with the node's processors
    // (and the job's with as many processors per node).
    let cpus = crate::sys::proc::online_cpus();
    let spin =
        config::spin_on(mpi.node_images(), cpus, config::SPIN_NAPPING).unwrap_or_else(|e| fail(e));
    let job_cpus = cpus * mpi.n.div_ceil(mpi.node_images());
    // No job block reference: error termination is MPI_Abort, which ends every rank.
    build(
        Box::leak(Box::new(mpi)),
        None,
        heap,
        seg_size,
        (spin, job_cpus),
    )
}

/// Refuses a job whose launcher announced several processes while MPI sees only this one: the
/// launcher belongs to another MPI library (Open MPI's mpirun starting a program whose
/// libferrocaf was built against MPICH, or the reverse), and each process would otherwise run
/// alone as image 1 of 1.
fn check_launcher(mpi: &Mpi) {
    let Some((var, v)) = launcher() else { return };
    if mpi.n == 1 && v.trim().parse::<usize>().is_ok_and(|k| k > 1) {
        fail(format!(
            "this program was started by an MPI launcher for several processes ({var}={v}), \
             but the MPI library ferrocaf was built with ({}) sees only this one: start it \
             with that library's launcher, rebuild ferrocaf against the launcher's library, \
             or run it on one machine with `ferrocaf run -n N ./prog`",
            Mpi::library()
        ));
    }
}
