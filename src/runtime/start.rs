//! Joining a job, or — for a program started directly — becoming its supervisor.

use super::{config, Runtime};
use crate::engine::alloc::Heap;
use crate::engine::barrier::Barrier;
use crate::engine::notify::Notifier;
use crate::engine::stats::Stats;
use crate::engine::sync_images::SyncImages;
use crate::engine::team::Team;
use crate::engine::wait::Waiter;
use crate::launch::job::Job;
use crate::launch::supervisor::{supervise, Launch};
use crate::transport::control::{Header, JobBlock, Layout, HEADER, JOB, MAGIC};
use crate::transport::shm::{Segments, Shm};
use std::ffi::OsString;
use std::os::unix::ffi::OsStringExt;
use std::sync::atomic::Ordering;
use std::sync::Mutex;

/// Ends the process with a setup error (no runtime exists yet to do it properly).
fn fail(msg: impl std::fmt::Display) -> ! {
    eprintln!("ferrocaf: {msg}");
    crate::sys::proc::exit(1)
}

/// Builds the runtime of this process: joins the job named in the environment, or runs the
/// program on N images as their supervisor (and then never returns).
pub(super) fn start() -> Runtime {
    match Job::from_env() {
        Err(e) => fail(e),
        Ok(None) => supervise_self(),
        Ok(Some((job, me))) => join(job, me),
    }
}

/// Variables by which MPI launchers announce the size of a job.
const MPI_SIZE_VARS: &[&str] = &[
    "OMPI_COMM_WORLD_SIZE",
    "PMI_SIZE",
    "PMIX_SIZE",
    "MPI_LOCALNRANKS",
];

/// Re-runs this program as N images under a supervisor and exits with the job's status.
fn supervise_self() -> ! {
    for var in MPI_SIZE_VARS {
        if let Ok(v) = std::env::var(var) {
            if v.trim().parse::<usize>().is_ok_and(|n| n > 1) {
                fail(format!(
                    "this program was started by an MPI launcher ({var}={v}), but this ferrocaf \
                     has no MPI transport; run it with `ferrocaf run -n N ./prog` instead"
                ));
            }
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
        fail(format!(
            "image {}: cannot map the job's shared memory at {:#x}: {e}",
            me + 1,
            g.base
        ))
    });
    for fd in &job.fds {
        // SAFETY: the descriptors were inherited for this purpose and are not used after mapping.
        unsafe { libc::close(*fd) };
    }
    let seg_base = segs.addr(me, 0);
    let seg_size = segs.seg_size();
    // SAFETY: every segment begins with a Header, and image 0's holds the JobBlock at JOB; the
    // segments stay mapped for the life of the process.
    let (header, jobblk) = unsafe {
        (
            &*((seg_base + HEADER) as *const Header),
            &*((segs.addr(0, JOB)) as *const JobBlock),
        )
    };
    let ctrl = Layout { n: g.n }.size();
    let spin = config::spin(g.n).unwrap_or_else(|e| fail(e));
    let stats: &'static Stats = Box::leak(Box::new(Stats::new(
        config::stats().unwrap_or_else(|e| fail(e)),
    )));
    header.magic.store(MAGIC, Ordering::SeqCst);
    install_panic_hook(me);
    Runtime {
        tp: Box::new(Shm::new(me, segs)),
        me,
        n: g.n,
        team: super::teams::Teams::new(Team::initial(g.n, me)),
        waiter: Waiter::new(header, jobblk, spin, stats),
        barrier: Barrier::default(),
        collectives: Default::default(),
        notifier: Notifier::new(stats),
        attachments: Default::default(),
        event_strategy: config::events().unwrap_or_else(|e| fail(e)),
        sync_images: SyncImages::new(g.n),
        sym: Mutex::new(Heap::new(ctrl, job.heap, "symmetric")),
        local: Mutex::new(Heap::new(
            ctrl + job.heap,
            seg_size - ctrl - job.heap,
            "local",
        )),
        registry: Default::default(),
        header,
        job: jobblk,
        seg_base,
        seg_size,
        stats,
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
        eprintln!(
            "ferrocaf: image {}: internal error: {what}{at}; please report it",
            me + 1
        );
        match super::try_get() {
            Some(rt) => rt.abort(1),
            None => crate::sys::proc::exit_now(1),
        }
    }));
}
