//! Bootstrap through the launcher's PMIx server (`boot.c`): rank, size, the exchange of every
//! image's endpoint name and segment, fences and the job-wide abort. No MPI library is
//! involved: Open MPI's `mpirun` (and Slurm's `srun --mpi=pmix`) serve PMIx to any process.

use std::ffi::{c_char, c_int, c_void, CStr, CString};

extern "C" {
    fn ffp_strerror(rc: c_int) -> *const c_char;
    fn ffp_init(rank: *mut u32, size: *mut u32) -> c_int;
    fn ffp_put(key: *const c_char, bytes: *const c_void, len: usize) -> c_int;
    fn ffp_fence(collect: c_int) -> c_int;
    fn ffp_get(rank: u32, key: *const c_char, out: *mut c_void, len: usize) -> c_int;
    fn ffp_abort(code: c_int, msg: *const c_char);
    fn ffp_finalize() -> c_int;
}

/// Key under which every image publishes its [`Card`].
const KEY: &str = "ferrocaf.fabric";

/// A PMIx error as a one-line message naming the call.
fn err(what: &str, rc: c_int) -> String {
    // SAFETY: PMIx_Error_string returns a static NUL-terminated string for any status.
    let s = unsafe { CStr::from_ptr(ffp_strerror(rc)) }.to_string_lossy();
    format!("{what} failed: {s}")
}

/// Connects to the launcher: `(rank, size)`.
pub(super) fn init() -> Result<(usize, usize), String> {
    let (mut rank, mut size) = (0u32, 0u32);
    // SAFETY: valid out-pointers.
    let rc = unsafe { ffp_init(&mut rank, &mut size) };
    if rc != 0 {
        return Err(format!(
            "{} (FERROCAF_TRANSPORT=fabric needs a PMIx launcher: Open MPI's mpirun or \
             Slurm's srun --mpi=pmix)",
            err("PMIx_Init", rc)
        ));
    }
    Ok((rank as usize, size as usize))
}

/// Publishes this image's card (fixed-size bytes) and returns every image's, in image order.
pub(super) fn exchange(mine: &[u8], size: usize) -> Result<Vec<Vec<u8>>, String> {
    let key = CString::new(KEY).expect("no NUL in the key");
    // SAFETY: `mine` is readable for its length; the key is NUL-terminated.
    let rc = unsafe { ffp_put(key.as_ptr(), mine.as_ptr().cast(), mine.len()) };
    if rc != 0 {
        return Err(err("PMIx_Put", rc));
    }
    fence(true)?;
    (0..size)
        .map(|r| {
            let mut out = vec![0u8; mine.len()];
            // SAFETY: `out` is writable for its length.
            let rc = unsafe { ffp_get(r as u32, key.as_ptr(), out.as_mut_ptr().cast(), out.len()) };
            if rc != 0 {
                return Err(err("PMIx_Get", rc));
            }
            Ok(out)
        })
        .collect()
}

/// Waits until every image has arrived (a barrier through the launcher).
pub(super) fn fence(collect: bool) -> Result<(), String> {
    // SAFETY: no pointers.
    match unsafe { ffp_fence(c_int::from(collect)) } {
        0 => Ok(()),
        rc => Err(err("PMIx_Fence", rc)),
    }
}

/// Ends every process of the job with `code`.
pub(super) fn abort(code: i32) {
    let msg = CString::new("ferrocaf: error termination").expect("no NUL");
    // SAFETY: a NUL-terminated message.
    unsafe { ffp_abort(code, msg.as_ptr()) };
}

/// Disconnects from the launcher.
pub(super) fn finalize() -> Result<(), String> {
    // SAFETY: no pointers; called once.
    match unsafe { ffp_finalize() } {
        0 => Ok(()),
        rc => Err(err("PMIx_Finalize", rc)),
    }
}
