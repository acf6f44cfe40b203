//! Configuration from the environment. Every FERROCAF_* setting is parsed here except two:
//! the job description the launcher passes to images (FERROCAF_JOB, FERROCAF_IMAGE:
//! `launch/job.rs`) and FERROCAF_GFORTRAN_ABI (`abi/generation.rs`). An invalid value is an
//! error naming the variable, never silently ignored.

use std::fmt;

/// A configuration problem, reported as `ferrocaf: <message>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError(pub String);

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Every environment variable ferrocaf reads, with its meaning (shown by `ferrocaf info`).
pub const VARIABLES: &[(&str, &str)] = &[
    ("FERROCAF_NUM_IMAGES", "number of images when a program is started directly (default: CPUs available)"),
    ("GFORTRAN_NUM_IMAGES", "same as FERROCAF_NUM_IMAGES (GCC 16 convention); FERROCAF_NUM_IMAGES wins"),
    ("FERROCAF_HEAP_SIZE", "bytes of symmetric coarray heap per image, e.g. 512M, 2GiB, 1.5G (units are powers of 1024; default 1G)"),
    ("FERROCAF_SPIN", "spin iterations of a FERROCAF_WAIT=auto wait before it yields and sleeps (default: 20000 over shared memory, 2000 over MPI and libfabric, 0 when oversubscribed); 0 = no spinning, but the wait still yields for up to 50 us while yields pay (FERROCAF_WAIT=passive sleeps at once)"),
    ("FERROCAF_WAIT", "how blocking waits spend their time: auto (spin, yield while yields pay, then sleep; the default), passive (poll once, then sleep: no spinning, no sched_yield) or active (poll until answered, never sleep)"),
    ("FERROCAF_CPUS", "CPUs the images share, which choose the barrier and small-collective algorithms and the spin default (default: CPUs available)"),
    ("FERROCAF_EVENTS", "how EVENT POST/WAIT work: atomic (counter), p2p (eager messages) or notified (matching engine); default atomic"),
    ("FERROCAF_TRANSPORT", "shm (one machine, the default), mpi (default when started by an MPI launcher; needs the `mpi` feature) or fabric (libfabric under a PMIx launcher; needs the `fabric` feature)"),
    ("FERROCAF_FABRIC_NOTIFY", "over fabric: counting (the default: puts into memory attached to the first attached event are counted puts where the provider has FI_RMA_EVENT, other notified puts as immediate), immediate (a notified put is one fi_writedata) or emulated (put, wait for its completion, then a notification message)"),
    ("FERROCAF_MPI_SHM", "0 = over MPI, reach on-node images through RMA too instead of a shared-memory window (default 1)"),
    ("FERROCAF_STATS", "1: each image prints its statistics (puts, gets, bytes, notifications, events, wait times) at the end; default 0"),
    ("FERROCAF_CACHE_SIZE", "size limit of the build cache of `ferrocaf run prog.f90`; least recently used builds are removed beyond it (default 1G)"),
    ("FERROCAF_GFORTRAN_ABI", "12 (gfortran 8 to 14), 15 or 16: the gfortran ABI of a program that does not name its compiler (its .comment section stripped); a value that contradicts the program is an error (default: read from the program)"),
    ("FERROCAF_JOB", "set by the launcher for each image; never set it by hand"),
    ("FERROCAF_IMAGE", "set by the launcher: this image's number"),
];

/// Default symmetric heap per image.
pub const DEFAULT_HEAP: usize = 1 << 30;

/// Parses a size such as `4096`, `64K`, `512MiB`, `2GB`, `1.5G` or `1T` (powers of 1024).
pub fn parse_size(var: &str, text: &str) -> Result<usize, ConfigError> {
    super::size::bytes(text).ok_or_else(|| {
        ConfigError(format!(
            "{var}={text:?} is not a size (expected a positive number with an optional unit: \
             K, M, G, T, KB, MiB, GiB, ...; e.g. 512M or 2GiB)"
        ))
    })
}

/// Parses a positive count.
pub fn parse_count(var: &str, text: &str, max: usize) -> Result<usize, ConfigError> {
    match text.trim().parse::<usize>() {
        Ok(v) if v >= 1 && v <= max => Ok(v),
        _ => Err(ConfigError(format!(
            "{var}={text:?} is not a number of images between 1 and {max}"
        ))),
    }
}

/// Reads an optional variable through `parse`.
pub fn read<T>(
    var: &str,
    parse: impl Fn(&str, &str) -> Result<T, ConfigError>,
) -> Result<Option<T>, ConfigError> {
    match std::env::var(var) {
        Ok(v) => parse(var, &v).map(Some),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(_) => Err(ConfigError(format!("{var} is not valid UTF-8"))),
    }
}

/// Largest image count accepted.
pub const MAX_IMAGES: usize = 4096;

/// The image count for a program started directly: FERROCAF_NUM_IMAGES, GFORTRAN_NUM_IMAGES,
/// else the CPUs this process may use.
pub fn num_images() -> Result<usize, ConfigError> {
    let count = |v: &str, t: &str| parse_count(v, t, MAX_IMAGES);
    if let Some(n) = read("FERROCAF_NUM_IMAGES", count)? {
        return Ok(n);
    }
    if let Some(n) = read("GFORTRAN_NUM_IMAGES", count)? {
        return Ok(n);
    }
    Ok(std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// The symmetric heap size per image.
pub fn heap_size() -> Result<usize, ConfigError> {
    Ok(read("FERROCAF_HEAP_SIZE", parse_size)?.unwrap_or(DEFAULT_HEAP))
}

/// Default size limit of the build cache.
pub const DEFAULT_CACHE_SIZE: usize = 1 << 30;

/// The size limit of the build cache (FERROCAF_CACHE_SIZE).
pub fn cache_size() -> Result<usize, ConfigError> {
    Ok(read("FERROCAF_CACHE_SIZE", parse_size)?.unwrap_or(DEFAULT_CACHE_SIZE))
}

/// The event strategy (FERROCAF_EVENTS).
pub fn events() -> Result<crate::engine::event::Strategy, ConfigError> {
    let parse = |v: &str, t: &str| {
        crate::engine::event::Strategy::parse(t).ok_or_else(|| {
            ConfigError(format!(
                "{v}={t:?} is not an event strategy (atomic, p2p or notified)"
            ))
        })
    };
    Ok(read("FERROCAF_EVENTS", parse)?.unwrap_or(crate::engine::event::Strategy::Atomic))
}

/// The wait policy (FERROCAF_WAIT, default auto).
pub fn wait_policy() -> Result<crate::engine::wait_policy::Policy, ConfigError> {
    use crate::engine::wait_policy::Policy;
    Ok(read("FERROCAF_WAIT", parse_policy)?.unwrap_or(Policy::Auto))
}

/// Parses a wait policy named by `var`.
fn parse_policy(var: &str, text: &str) -> Result<crate::engine::wait_policy::Policy, ConfigError> {
    crate::engine::wait_policy::Policy::parse(text).ok_or_else(|| {
        ConfigError(format!(
            "{var}={text:?} is not a wait policy (auto, passive or active)"
        ))
    })
}

/// Whether per-image statistics are collected and printed (FERROCAF_STATS).
pub fn stats() -> Result<bool, ConfigError> {
    let parse = |v: &str, t: &str| match t.trim() {
        "1" | "on" | "yes" | "true" => Ok(true),
        "0" | "off" | "no" | "false" | "" => Ok(false),
        _ => Err(ConfigError(format!("{v}={t:?} is not 0 or 1"))),
    };
    Ok(read("FERROCAF_STATS", parse)?.unwrap_or(false))
}

/// Which transport FERROCAF_TRANSPORT asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Cross-mapped shared memory under ferrocaf's supervisor.
    Shm,
    /// MPI one-sided communication under an MPI launcher.
    Mpi,
    /// libfabric RMA under a PMIx launcher.
    Fabric,
}

/// The transport FERROCAF_TRANSPORT names, if set.
pub fn transport() -> Result<Option<Kind>, ConfigError> {
    read("FERROCAF_TRANSPORT", |v, t| match t.trim() {
        "shm" => Ok(Kind::Shm),
        "mpi" => Ok(Kind::Mpi),
        "fabric" => Ok(Kind::Fabric),
        _ => Err(ConfigError(format!(
            "{v}={t:?} is not a transport (shm, mpi or fabric)"
        ))),
    })
}

/// Whether the MPI transport may map on-node peers through a shared-memory window
/// (FERROCAF_MPI_SHM, default on).
pub fn mpi_shm() -> Result<bool, ConfigError> {
    let parse = |v: &str, t: &str| match t.trim() {
        "0" => Ok(false),
        "1" => Ok(true),
        _ => Err(ConfigError(format!("{v}={t:?} must be 0 or 1"))),
    };
    Ok(read("FERROCAF_MPI_SHM", parse)?.unwrap_or(true))
}

/// How the fabric transport's notified and attached puts travel (FERROCAF_FABRIC_NOTIFY):
/// counting (the default), immediate or emulated.
#[cfg(feature = "fabric")]
pub fn fabric_notify() -> Result<crate::transport::fabric::NotifyPath, ConfigError> {
    use crate::transport::fabric::NotifyPath;
    let parse = |v: &str, t: &str| {
        NotifyPath::parse(t).ok_or_else(|| {
            ConfigError(format!("{v}={t:?} must be counting, immediate or emulated"))
        })
    };
    Ok(read("FERROCAF_FABRIC_NOTIFY", parse)?.unwrap_or(NotifyPath::Counting))
}

/// CPUs the images share (FERROCAF_CPUS, default: the CPUs this process may use). Teams
/// larger than this use the algorithms made for oversubscription.
pub fn cpus() -> Result<usize, ConfigError> {
    cpus_or(std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// FERROCAF_CPUS if set, else `default` (the processors the transport knows the job has).
pub fn cpus_or(default: usize) -> Result<usize, ConfigError> {
    let parse = |v: &str, t: &str| match t.trim().parse::<usize>() {
        Ok(c) if c > 0 => Ok(c),
        _ => Err(ConfigError(format!("{v}={t:?} is not a positive number"))),
    };
    Ok(read("FERROCAF_CPUS", parse)?.unwrap_or(default))
}

/// Default spin budget of a wait that sleeps on a doorbell until woken (shared memory) when
/// each image has a CPU: about 0.5 ms of polls (25 ns each), so that a 2-image wait outlasts
/// the usual imbalance of the images' compute instead of paying a futex sleep and wake-up
/// (bench/NOTES.md, branch spin).
pub const SPIN_SLEEPING: u32 = 20_000;
/// Default spin budget of a wait that naps between polls (MPI, libfabric: each turn drives the
/// transport's progress) when each image has a CPU.
pub const SPIN_NAPPING: u32 = 2_000;

/// Spin iterations before sleeping over shared memory, given the image count (images share
/// [`cpus`]).
pub fn spin(n_images: usize) -> Result<u32, ConfigError> {
    spin_on(n_images, cpus()?, SPIN_SLEEPING)
}

/// Spin iterations before sleeping for `n_images` images sharing `cpus` processors: FERROCAF_SPIN
/// if set, else `spin_default` with `budget`.
pub fn spin_on(n_images: usize, cpus: usize, budget: u32) -> Result<u32, ConfigError> {
    let parse = |v: &str, t: &str| {
        t.trim()
            .parse::<u32>()
            .map_err(|_| ConfigError(format!("{v}={t:?} is not a non-negative number")))
    };
    Ok(read("FERROCAF_SPIN", parse)?.unwrap_or(spin_default(n_images, cpus, budget)))
}

/// The spin budget without FERROCAF_SPIN: `budget` when each of `n_images` images has one of
/// the `cpus` processors, else 0 (waits sleep at once and leave the cores to the images).
fn spin_default(n_images: usize, cpus: usize, budget: u32) -> u32 {
    if n_images > cpus {
        0
    } else {
        budget
    }
}

/// Checks every variable an image will read, so that a bad value is reported once, by the
/// launcher, before any image starts.
pub fn validate(n_images: usize) -> Result<(), ConfigError> {
    heap_size()?;
    transport()?;
    mpi_shm()?;
    cpus()?;
    spin(n_images)?;
    events()?;
    wait_policy()?;
    stats()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("X", "64K"), Ok(65536));
        assert_eq!(parse_size("X", "2g"), Ok(2 << 30));
        assert_eq!(parse_size("X", "4096"), Ok(4096));
        assert!(parse_size("X", "lots").is_err());
        assert!(parse_size("X", "0").is_err());
        assert!(parse_size("X", "-1M").is_err());
        assert!(parse_size("X", "99999999999T").is_err());
    }

    #[test]
    fn counts() {
        assert_eq!(parse_count("N", " 4 ", 16), Ok(4));
        assert!(parse_count("N", "0", 16).is_err());
        assert!(parse_count("N", "17", 16).is_err());
        assert!(parse_count("N", "four", 16)
            .unwrap_err()
            .0
            .contains("N=\"four\""));
    }

    #[test]
    fn wait_policies() {
        use crate::engine::wait_policy::Policy;
        assert_eq!(parse_policy("W", "Passive"), Ok(Policy::Passive));
        assert_eq!(parse_policy("W", "active"), Ok(Policy::Active));
        assert_eq!(parse_policy("W", "AUTO"), Ok(Policy::Auto));
        let err = parse_policy("FERROCAF_WAIT", "busy").unwrap_err().0;
        assert_eq!(
            err,
            "FERROCAF_WAIT=\"busy\" is not a wait policy (auto, passive or active)"
        );
    }

    #[test]
    fn spin_defaults() {
        assert_eq!(spin_default(2, 2, SPIN_SLEEPING), 20_000);
        assert_eq!(spin_default(1, 2, SPIN_NAPPING), 2_000);
        assert_eq!(spin_default(3, 2, SPIN_SLEEPING), 0);
        assert_eq!(spin_default(8, 2, SPIN_NAPPING), 0);
    }
}
