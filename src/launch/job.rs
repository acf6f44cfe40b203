//! The job description an image receives from its supervisor in `FERROCAF_JOB`.

use crate::runtime::config::ConfigError;
use crate::transport::shm::segments::{segment_name, Geometry};

/// Environment variable holding the encoded [`Job`].
pub const JOB_VAR: &str = "FERROCAF_JOB";
/// Environment variable holding this image's 1-based number.
pub const IMAGE_VAR: &str = "FERROCAF_IMAGE";

/// Everything an image needs to join its job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Where the segments are mapped.
    pub geometry: Geometry,
    /// Bytes of symmetric heap in each segment (the rest after the control block is local heap).
    pub heap: usize,
    /// Inherited file descriptors of the segments, in image order.
    pub fds: Vec<i32>,
    /// Process id of the supervisor (images die with it).
    pub supervisor: i32,
}

impl Job {
    /// Encodes the job for the environment.
    pub fn encode(&self) -> String {
        let fds: Vec<String> = self.fds.iter().map(|f| f.to_string()).collect();
        format!(
            "v1;n={};base={:x};seg={:x};heap={:x};sup={};fds={}",
            self.geometry.n,
            self.geometry.base,
            self.geometry.seg_size,
            self.heap,
            self.supervisor,
            fds.join(",")
        )
    }

    /// Decodes a job; an error means the variable was not written by a ferrocaf supervisor of
    /// this version.
    pub fn decode(text: &str) -> Result<Job, ConfigError> {
        let bad = || {
            ConfigError(format!(
                "{JOB_VAR}={text:?} was not set by this ferrocaf's launcher"
            ))
        };
        let mut parts = text.split(';');
        if parts.next() != Some("v1") {
            return Err(bad());
        }
        let (mut n, mut base, mut seg, mut heap, mut sup, mut fds) =
            (None, None, None, None, None, None);
        for p in parts {
            let (k, v) = p.split_once('=').ok_or_else(bad)?;
            let hex = || usize::from_str_radix(v, 16).map_err(|_| bad());
            match k {
                "n" => n = Some(v.parse::<usize>().map_err(|_| bad())?),
                "base" => base = Some(hex()?),
                "seg" => seg = Some(hex()?),
                "heap" => heap = Some(hex()?),
                "sup" => sup = Some(v.parse::<i32>().map_err(|_| bad())?),
                "fds" => {
                    let list: Result<Vec<i32>, _> =
                        v.split(',').map(|f| f.parse::<i32>()).collect();
                    fds = Some(list.map_err(|_| bad())?);
                }
                _ => return Err(bad()),
            }
        }
        let job = Job {
            geometry: Geometry {
                n: n.ok_or_else(bad)?,
                base: base.ok_or_else(bad)?,
                seg_size: seg.ok_or_else(bad)?,
            },
            heap: heap.ok_or_else(bad)?,
            fds: fds.ok_or_else(bad)?,
            supervisor: sup.ok_or_else(bad)?,
        };
        if job.fds.len() != job.geometry.n || job.geometry.n == 0 {
            return Err(bad());
        }
        Ok(job)
    }

    /// Reads this process's job and image number, if it was started by a supervisor.
    pub fn from_env() -> Result<Option<(Job, usize)>, ConfigError> {
        let Ok(text) = std::env::var(JOB_VAR) else {
            return Ok(None);
        };
        let job = Job::decode(&text)?;
        let image = std::env::var(IMAGE_VAR)
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
            .filter(|i| (1..=job.geometry.n).contains(i))
            .ok_or_else(|| ConfigError(format!("{IMAGE_VAR} is missing or out of range")))?;
        job.check_inherited()?;
        Ok(Some((job, image - 1)))
    }

    /// Checks that this process really is an image of the job: a descendant of its supervisor
    /// (its child, or started by a wrapper the supervisor started: `sh -c`, a script, `strace`,
    /// `time`, `gdb`, `valgrind`) that inherited the job's segments. A copy of `FERROCAF_JOB` in
    /// another process names descriptors that process does not have (or that are other files),
    /// so it must never be mapped as if it were the job's memory.
    fn check_inherited(&self) -> Result<(), ConfigError> {
        let copied = |why: String| {
            ConfigError(format!(
                "{JOB_VAR} in this process's environment was not given to it by a ferrocaf \
                 launcher ({why}); it cannot be used to join another job: unset {JOB_VAR} and \
                 {IMAGE_VAR} to run this program"
            ))
        };
        let parent = std::os::unix::process::parent_id() as i32;
        if parent != self.supervisor {
            if !crate::sys::ancestry::descends_from(self.supervisor) {
                return Err(copied(format!(
                    "its supervisor is process {}, which this process does not descend from",
                    self.supervisor
                )));
            }
            // Under a wrapper: die with it, as it dies with the supervisor.
            if !crate::sys::proc::die_with_parent(parent) {
                return Err(ConfigError(format!(
                    "the process that started this image ({parent}) ended before it joined the job"
                )));
            }
        }
        for (i, fd) in self.fds.iter().enumerate() {
            let path = format!("/proc/self/fd/{fd}");
            let target = std::fs::read_link(&path).unwrap_or_default();
            let size = std::fs::metadata(&path).map_or(0, |m| m.len());
            let name = format!("/memfd:{} ", segment_name(i));
            if !target.to_string_lossy().starts_with(&name) || size != self.geometry.seg_size as u64
            {
                return Err(copied(format!(
                    "descriptor {fd} is not the shared memory of image {}",
                    i + 1
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip() {
        let j = Job {
            geometry: Geometry {
                n: 3,
                base: 0x1000_0000_0000,
                seg_size: 0x8000_0000,
            },
            heap: 0x4000_0000,
            fds: vec![3, 4, 5],
            supervisor: 77,
        };
        assert_eq!(Job::decode(&j.encode()), Ok(j));
    }

    #[test]
    fn rejects_garbage() {
        assert!(Job::decode("v0;n=1").is_err());
        assert!(Job::decode("v1;n=2;base=10;seg=10;heap=1;sup=1;fds=3").is_err());
        assert!(Job::decode("v1;n=x").is_err());
    }
}
