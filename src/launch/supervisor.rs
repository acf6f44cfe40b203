//! The supervisor: creates the job's segments, starts N images, waits for them, and turns what
//! happened into one exit status and (for failures) one message.

use super::job::{Job, IMAGE_VAR, JOB_VAR};
use super::wait::{self, wait_any, Waited};
use crate::runtime::config::ConfigError;
use crate::sys::proc;
use crate::transport::control::{status, Header, JobBlock, Layout, HEADER, JOB};
use crate::transport::shm::segments::{Geometry, Segments};
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::ffi::OsString;
use std::hash::{BuildHasher, Hasher};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// What to start.
#[derive(Clone, Debug)]
pub struct Launch {
    /// Number of images.
    pub n: usize,
    /// Program to run on every image.
    pub program: OsString,
    /// `argv[0]` to show the program (usually how the user typed it).
    pub arg0: OsString,
    /// Arguments after the program name.
    pub args: Vec<OsString>,
    /// Symmetric heap bytes per image.
    pub heap: usize,
}

/// How long images get to end by themselves after an error termination before they are killed.
const GRACE: Duration = Duration::from_millis(500);
/// How long images get to end after a forwarded SIGTERM, SIGINT or SIGHUP (to write a
/// checkpoint, say) before they are killed.
pub const SIGNAL_GRACE: Duration = Duration::from_secs(3);
/// The address range segments may be placed in (16 TiB .. 80 TiB: no loader or heap uses it).
const REGION: (usize, usize) = (0x1000_0000_0000, 0x5000_0000_0000);

/// Chooses where the segments live: a random, 1 GiB-aligned base in [`REGION`].
fn geometry(n: usize, heap: usize) -> Result<Geometry, ConfigError> {
    let ctrl = Layout { n }.size();
    let seg_size = (ctrl + 2 * heap).next_multiple_of(2 << 20);
    let total = seg_size
        .checked_mul(n)
        .filter(|t| *t <= REGION.1 - REGION.0)
        .ok_or_else(|| {
            ConfigError(format!(
                "{n} images with FERROCAF_HEAP_SIZE={heap} bytes need more address space than one \
             process has; lower FERROCAF_HEAP_SIZE"
            ))
        })?;
    let slots = (REGION.1 - REGION.0 - total) >> 30;
    let pick = RandomState::new().build_hasher().finish() as usize % (slots + 1);
    Ok(Geometry {
        n,
        base: REGION.0 + (pick << 30),
        seg_size,
    })
}

/// The outcome collected while images end.
#[derive(Default)]
struct Outcome {
    /// Exit code of the first error termination, if any.
    error: Option<i32>,
    /// STOP codes by image.
    stop_codes: Vec<i32>,
    /// The first forwarded signal, if the job was asked to end by one.
    signal: Option<i32>,
}

/// Runs a job to completion and returns the exit status for the shell.
pub fn supervise(l: &Launch) -> Result<i32, ConfigError> {
    crate::runtime::config::validate(l.n)?;
    let g = geometry(l.n, l.heap)?;
    let sys = |what: &str, e: std::io::Error| ConfigError(format!("cannot {what}: {e}"));
    let fds = Segments::create(&g).map_err(|e| sys("create shared memory", e))?;
    let maps = Segments::map_for_supervisor(&g, &fds).map_err(|e| {
        ConfigError(super::limits::map_failure(
            "cannot map shared memory",
            &e,
            &g,
            l.heap,
        ))
    })?;
    let job = Job {
        geometry: g,
        heap: l.heap,
        fds: fds.iter().map(|f| f.as_raw_fd()).collect(),
        supervisor: std::process::id() as i32,
    };
    for fd in &job.fds {
        crate::sys::mem::set_cloexec(*fd, false).map_err(|e| sys("share memory", e))?;
    }
    let encoded = job.encode();
    let mut children: HashMap<u32, (usize, Child)> = HashMap::new();
    let sup = job.supervisor;
    wait::block();
    for i in 0..l.n {
        let mut cmd = Command::new(&l.program);
        cmd.arg0(&l.arg0)
            .args(&l.args)
            .env(JOB_VAR, &encoded)
            .env(IMAGE_VAR, (i + 1).to_string());
        // SAFETY: the closure runs in the child between fork and exec and only calls
        // async-signal-safe functions (sigprocmask, prctl, getppid, _exit).
        unsafe {
            cmd.pre_exec(move || {
                wait::unblock_in_child();
                if !proc::die_with_parent(sup) {
                    proc::exit_now(1);
                }
                Ok(())
            });
        }
        match cmd.spawn() {
            Ok(child) => {
                children.insert(child.id(), (i, child));
            }
            Err(e) => {
                for (_, c) in children.values_mut() {
                    let _ = c.kill();
                    let _ = c.wait();
                }
                return Err(ConfigError(format!("cannot start {:?}: {e}", l.program)));
            }
        }
    }
    drop(fds);
    let w = Watch {
        maps: &maps,
        n: l.n,
    };
    Ok(w.run(children))
}

/// Watches running images through the supervisor's own mapping of their control blocks.
struct Watch<'a> {
    maps: &'a [usize],
    n: usize,
}

impl Watch<'_> {
    fn header(&self, i: usize) -> &Header {
        // SAFETY: every segment is mapped for the supervisor's lifetime and starts with a Header.
        unsafe { &*((self.maps[i] + HEADER) as *const Header) }
    }

    fn job(&self) -> &JobBlock {
        // SAFETY: image 0's segment is mapped and holds the JobBlock at offset JOB.
        unsafe { &*((self.maps[0] + JOB) as *const JobBlock) }
    }

    /// Starts error termination: tells waiting images, who exit by themselves.
    fn abort(&self, code: i32) {
        let job = self.job();
        if job.abort_claim.swap(1, Ordering::SeqCst) == 0 {
            job.abort
                .store(JobBlock::encode_abort(code), Ordering::SeqCst);
        }
        for i in 0..self.n {
            let h = self.header(i);
            h.bell.fetch_add(1, Ordering::SeqCst);
            crate::sys::futex::wake_all(&h.bell);
        }
    }

    fn run(&self, mut children: HashMap<u32, (usize, Child)>) -> i32 {
        let mut out = Outcome {
            error: None,
            stop_codes: vec![0; self.n],
            signal: None,
        };
        let mut deadline: Option<Instant> = None;
        while !children.is_empty() {
            let (pid, ws) = match wait_any(deadline) {
                Waited::Exited(pid, ws) => (pid, ws),
                Waited::Deadline => {
                    for (_, c) in children.values_mut() {
                        let _ = c.kill();
                    }
                    deadline = None;
                    continue;
                }
                Waited::Signal(sig) => {
                    if out.signal.is_none() {
                        eprintln!(
                            "ferrocaf: received {}; passed it on to the images, which are killed \
                             if still running in {} s",
                            proc::signal_name(sig),
                            SIGNAL_GRACE.as_secs()
                        );
                        out.signal = Some(sig);
                        let end = Instant::now() + SIGNAL_GRACE;
                        deadline = Some(deadline.map_or(end, |d| d.min(end)));
                    }
                    for pid in children.keys() {
                        proc::kill(*pid as i32, sig);
                    }
                    continue;
                }
                Waited::NoChildren => break,
            };
            let Some((image, _)) = children.remove(&pid) else {
                continue;
            };
            let terminating = out.error.is_some() || out.signal.is_some();
            if let Some(code) = self.classify(image, ws, terminating, &mut out) {
                if out.error.is_none() {
                    out.error = Some(code);
                }
                self.abort(code);
                deadline.get_or_insert_with(|| Instant::now() + GRACE);
            }
        }
        if let Some(sig) = out.signal {
            return 128 + sig;
        }
        if let Some(code) = out.error {
            // The first error termination's code, as the images recorded it (an image that
            // merely reacted to it may have been reaped first).
            return JobBlock::abort_code(self.job().abort.load(Ordering::SeqCst)).unwrap_or(code);
        }
        out.stop_codes
            .iter()
            .copied()
            .find(|c| *c != 0)
            .unwrap_or(0)
    }

    /// Records how `image` ended; returns an exit code if this starts error termination.
    fn classify(
        &self,
        image: usize,
        ws: std::process::ExitStatus,
        terminating: bool,
        out: &mut Outcome,
    ) -> Option<i32> {
        let h = self.header(image);
        let st = h.status.load(Ordering::SeqCst);
        let code = h.code.load(Ordering::SeqCst) as i32;
        if let Some(sig) = ws.signal() {
            if terminating {
                return None;
            }
            eprintln!(
                "ferrocaf: image {} was killed by signal {sig} ({}); ending all images",
                image + 1,
                proc::signal_name(sig)
            );
            return Some(128 + sig);
        }
        let exit = ws.code().unwrap_or(1);
        match st {
            status::STOPPED => {
                out.stop_codes[image] = exit;
                None
            }
            status::ERROR_STOPPED => Some(code),
            status::FAILED => None,
            _ if terminating
                || JobBlock::abort_code(self.job().abort.load(Ordering::SeqCst)).is_some() =>
            {
                JobBlock::abort_code(self.job().abort.load(Ordering::SeqCst))
            }
            _ => {
                eprintln!(
                    "ferrocaf: image {} ended with exit status {exit} without STOP or END PROGRAM; \
                     ending all images",
                    image + 1
                );
                Some(if exit == 0 { 1 } else { exit })
            }
        }
    }
}
