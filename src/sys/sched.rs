//! The calling thread's scheduler time slice (`sched_setattr` with `sched_runtime`, EEVDF,
//! Linux 6.12+).

/// `struct sched_attr` as the kernel reads it (`SCHED_ATTR_SIZE_VER1`).
#[repr(C)]
#[derive(Default)]
struct SchedAttr {
    size: u32,
    policy: u32,
    flags: u64,
    nice: i32,
    priority: u32,
    runtime: u64,
    deadline: u64,
    period: u64,
    util_min: u32,
    util_max: u32,
}

/// Sets the calling thread's time slice to `ns` nanoseconds (0: the kernel's default), keeping
/// its nice value; returns the errno when the kernel refuses or the thread is not under the
/// normal policy (`EPERM`: left alone, since setting the slice would reset a policy chosen by
/// the user, as `chrt --batch`). Kernels before 6.12 accept and ignore the slice.
pub fn set_slice(ns: u64) -> Result<(), i32> {
    // SAFETY: sched_getscheduler(0) and getpriority only read the calling thread's attributes.
    let (policy, nice) = unsafe {
        (
            libc::sched_getscheduler(0),
            libc::getpriority(libc::PRIO_PROCESS, 0),
        )
    };
    if policy != libc::SCHED_OTHER {
        return Err(libc::EPERM);
    }
    let attr = SchedAttr {
        size: std::mem::size_of::<SchedAttr>() as u32,
        policy: libc::SCHED_OTHER as u32,
        nice,
        runtime: ns,
        ..SchedAttr::default()
    };
    // SAFETY: `attr` is a live, initialised sched_attr whose `size` field gives its length; the
    // kernel only reads it during the call.
    let rc = unsafe { libc::syscall(libc::SYS_sched_setattr, 0, &attr as *const SchedAttr, 0) };
    if rc == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error().raw_os_error().unwrap_or(libc::ENOSYS))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `se.slice` of thread `tid` of this process, in nanoseconds.
    fn slice_of(tid: i32) -> Option<u64> {
        let text = std::fs::read_to_string(format!("/proc/self/task/{tid}/sched")).ok()?;
        let line = text.lines().find(|l| l.starts_with("se.slice"))?;
        line.split(':').nth(1)?.trim().parse().ok()
    }

    /// Whether the running kernel honours custom slices (6.12 and later).
    fn custom_slices() -> bool {
        let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
        let mut v = release.split(|c: char| !c.is_ascii_digit()).map(|n| n.parse().unwrap_or(0));
        let (major, minor): (u32, u32) = (v.next().unwrap_or(0), v.next().unwrap_or(0));
        (major, minor) >= (6, 12)
    }

    #[test]
    fn a_short_slice_takes_effect_and_the_default_comes_back() {
        std::thread::spawn(|| {
            // SAFETY: gettid has no preconditions.
            let tid = unsafe { libc::gettid() };
            let before = slice_of(tid);
            let set = set_slice(300_000);
            if !custom_slices() || before.is_none() {
                return;
            }
            assert_eq!(set, Ok(()));
            assert_eq!(slice_of(tid), Some(300_000));
            set_slice(0).unwrap();
            assert_eq!(slice_of(tid), before);
        })
        .join()
        .unwrap();
    }
}
