//! What to tell the user when the job's memory cannot be mapped: which setting to lower.

use crate::transport::shm::segments::Geometry;

/// The address-space limit of this process (`ulimit -v`), in bytes, if there is one.
fn address_space_limit() -> Option<u64> {
    let mut r = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes into the local struct.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut r) } == 0;
    (ok && r.rlim_cur != libc::RLIM_INFINITY).then_some(r.rlim_cur)
}

/// The message for a failed mapping of the job's segments: the error, then, when it is a lack
/// of memory or address space, what the job needs and which setting to lower.
pub fn map_failure(what: &str, e: &std::io::Error, g: &Geometry, heap: usize) -> String {
    let mut msg = format!("{what}: {e}");
    if e.raw_os_error() == Some(libc::ENOMEM) {
        let total = g.seg_size as u64 * g.n as u64;
        msg += &format!(
            "; {} images with FERROCAF_HEAP_SIZE={} need {} of address space per process",
            g.n,
            mib(heap as u64),
            mib(total)
        );
        if let Some(limit) = address_space_limit() {
            msg += &format!(" and `ulimit -v` allows {}", mib(limit));
        }
        msg += ": lower FERROCAF_HEAP_SIZE (or `ferrocaf run --heap`), run fewer images, or raise \
                `ulimit -v`";
    }
    msg
}

/// `bytes` in MiB, rounded up, e.g. `"1024M"`.
fn mib(bytes: u64) -> String {
    format!("{}M", bytes.div_ceil(1 << 20))
}
