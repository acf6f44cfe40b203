//! Joining a job, or — for a program started directly — becoming its supervisor.

use super::{config, Runtime};
use crate::engine::alloc::Heap;
use crate::engine::barrier::Barrier;
use crate::engine::collective::Collectives;
use crate::engine::notify::Notifier;
use crate::engine::stats::Stats;
use crate::engine::sync_images::SyncImages;
use crate::engine::team::Team;
use crate::engine::wait::Waiter;
use crate::launch::job::Job;
use crate::launch::supervisor::{supervise, Launch};
use crate::sys::proc::say;
use crate::transport::control::{Header, JobBlock, Layout, HEADER, JOB, MAGIC};
use crate::transport::shm::{Segments, Shm};
use crate::transport::Transport;
use config::Kind;
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::sync::atomic::Ordering;
use std::sync::Mutex;

/// Ends the process with a setup error (no runtime exists yet to do it properly).
pub(super) fn fail(msg: impl std::fmt::Display) -> ! {
    say(format_args!("ferrocaf: {msg}"));
    crate::sys::proc::exit(1)
}

/// Builds the runtime of this process: joins the job named in the environment, or runs the
/// program on N images as their supervisor (and then never returns).
pub(super) fn start() -> Runtime {
    // A program whose ABI generation cannot be told ends here, before any image starts.
    crate::abi::generation::current();
    match Job::from_env() {
        Err(e) => fail(e),
        Ok(Some((job, me))) => join(job, me),
        Ok(None) => match config::transport().unwrap_or_else(|e| fail(e)) {
            Some(Kind::Mpi) => join_mpi(),
            Some(Kind::Fabric) => join_fabric(),
            Some(Kind::Shm) => supervise_self(),
            None if launcher().is_some() && cfg!(feature = "mpi") => join_mpi(),
            None => supervise_self(),
        },
    }
}

/// Variables by which MPI launchers (Open MPI, MPICH/Hydra, Slurm's PMI and PMIx) announce the
/// size of a job.
const MPI_SIZE_VARS: &[&str] = &[
    "OMPI_COMM_WORLD_SIZE",
    "PMI_SIZE",
    "PMIX_SIZE",
    "MPI_LOCALNRANKS",
];

/// The first MPI launcher variable set, with its value.
pub(super) fn launcher() -> Option<(&'static str, String)> {
    MPI_SIZE_VARS
        .iter()
        .find_map(|var| std::env::var(var).ok().map(|v| (*var, v)))
}

/// Joins an MPI job: this process is one image of it.
#[cfg(feature = "mpi")]
fn join_mpi() -> Runtime {
    super::start_mpi::join()
}

/// Without the `mpi` feature, an MPI launch is refused with instructions.
#[cfg(not(feature = "mpi"))]
fn join_mpi() -> Runtime {
    fail(
        "this ferrocaf was built without the MPI transport; rebuild it with \
         `cargo build --release --features mpi` (needs an MPI library such as Open MPI or \
         MPICH), or run the program with `ferrocaf run -n N ./prog` on one machine",
    )
}

/// Joins a job over libfabric: this process is one image of it.
#[cfg(feature = "fabric")]
fn join_fabric() -> Runtime {
    super::start_fabric::join()
}

/// Without the `fabric` feature, FERROCAF_TRANSPORT=fabric is refused with instructions.
#[cfg(not(feature = "fabric"))]
fn join_fabric() -> Runtime {
    fail(
        "FERROCAF_TRANSPORT=fabric: this ferrocaf was built without the libfabric transport; \
         rebuild it with `cargo build --release --features fabric` (needs libfabric-dev and \
         libpmix-dev)",
    )
}

/// Re-runs this program as N images under a supervisor and exits with the job's status.
fn supervise_self() -> ! {
    if let Some((var, v)) = launcher() {
        if v.trim().parse::<usize>().is_ok_and(|n| n > 1) {
            fail(format!(
                "this program was started by an MPI launcher ({var}={v}), but {}; run it with \
                 `ferrocaf run -n N ./prog` instead",
                if cfg!(feature = "mpi") {
                    "FERROCAF_TRANSPORT=shm asks for the shared-memory transport"
                } else {
                    "this ferrocaf has no MPI transport (build it with `--features mpi`)"
                }
            ));
        }
    }
    let n = config::num_images().unwrap_or_else(|e| fail(e));
    let heap = config::heap_size().unwrap_or_else(|e| fail(e));
    let cmdline = std::fs::read("/proc/self/cmdline")
        .unwrap_or_else(|e| fail(format!("cannot read /proc/self/cmdline: {e}")));
    let mut argv: Vec<OsString> = cmdline
        .split(|b| *b == 0)
        .map(|a| OsString::from_vec(a.to_vec()))
        .collect();
    if argv.last().is_some_and(|a| a.is_empty()) {
        argv.pop();
    }
    let exe =
        std::env::current_exe().unwrap_or_else(|e| fail(format!("cannot find this program: {e}")));
    let arg0 = if argv.is_empty() {
        exe.clone().into_os_string()
    } else {
        argv.remove(0)
    };
    let launch = Launch {
        n,
        program: exe.into_os_string(),
        arg0,
        args: argv,
        heap,
    };
    match supervise(&launch) {
        Ok(code) => crate::sys::proc::exit(code),
        Err(e) => fail(e),
    }
}

/// Maps the job's segments and builds the image's runtime.
fn join(job: Job, me: usize) -> Runtime {
    let g = job.geometry;
    let segs = Segments::map_fixed(&g, &job.fds).unwrap_or_else(|e| {
        fail(crate::launch::limits::map_failure(
            &format!(
                "image {}: cannot map the job's shared memory at {:#x}",
                me + 1,
                g.base
            ),
            &e,
            &g,
            job.heap,
        ))
    });
    for fd in &job.fds {
        // SAFETY: the descriptors were inherited for this purpose and are not used after mapping.
        unsafe { libc::close(*fd) };
    }
    // SAFETY: image 0's segment holds the JobBlock at JOB and stays mapped for the life of the
    // process.
    let jobblk = unsafe { &*((segs.addr(0, JOB)) as *const JobBlock) };
    let seg_size = segs.seg_size();
    let tp: &'static dyn Transport = Box::leak(Box::new(Shm::new(me, segs)));
    let spin = config::spin(g.n).unwrap_or_else(|e| fail(e));
    let cpus = std::thread::available_parallelism().map_or(1, |c| c.get());
    build(tp, Some(jobblk), job.heap, seg_size, (spin, cpus))
}

/// The runtime of image `tp.this_image()` over `tp`, whose segments of `seg_size` bytes hold a
/// control block, the symmetric heap of `heap` bytes, then the local heap; waits spin `spin`
/// polls before sleeping; `cpus` is what the job's images share (teams larger than that are
/// oversubscribed).
pub(super) fn build(
    tp: &'static dyn Transport,
    job: Option<&'static JobBlock>,
    heap: usize,
    seg_size: usize,
    (spin, cpus): (u32, usize),
) -> Runtime {
    let (me, n) = (tp.this_image(), tp.num_images());
    let seg_base = tp.direct(me, 0).expect("own segment is mapped");
    let ctrl = Layout { n }.size();
    let cpus = config::cpus_or(cpus).unwrap_or_else(|e| fail(e));
    // SAFETY: every segment begins with a Header and stays mapped for the life of the process.
    let header = unsafe { &*((seg_base + HEADER) as *const Header) };
    let stats: &'static Stats = Box::leak(Box::new(Stats::new(
        config::stats().unwrap_or_else(|e| fail(e)),
    )));
    header.magic.store(MAGIC, Ordering::SeqCst);
    install_panic_hook(me);
    Runtime {
        tp,
        me,
        n,
        team: super::teams::Teams::new(Team::initial(n, me)),
        waiter: Waiter::new(
            header,
            job,
            tp,
            (
                spin,
                n > cpus,
                config::wait_policy().unwrap_or_else(|e| fail(e)),
            ),
            stats,
        ),
        barrier: Barrier::new(cpus),
        collectives: Collectives::new(cpus),
        notifier: Notifier::new(stats),
        attachments: Default::default(),
        event_strategy: config::events().unwrap_or_else(|e| fail(e)),
        sync_images: SyncImages::new(n),
        sym: Mutex::new(Heap::new(ctrl, heap, "symmetric")),
        local: Mutex::new(Heap::new(ctrl + heap, seg_size - ctrl - heap, "local")),
        registry: Default::default(),
        header,
        seg_base,
        seg_size,
        stats,
        stats_on: stats.on(),
        pending: Default::default(),
    }
}

/// Turns an internal error (a Rust panic) into the runtime's one-line message and error
/// termination of the whole job, instead of a panic message and a lone aborted image.
fn install_panic_hook(me: usize) {
    std::panic::set_hook(Box::new(move |info| {
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        say(format_args!(
            "ferrocaf: image {}: internal error: {what}{at}; please report it",
            me + 1
        ));
        match super::try_get() {
            Some(rt) => rt.abort(1),
            None => crate::sys::proc::exit_now(1),
        }
    }));
}
