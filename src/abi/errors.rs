//! Turning engine results into `stat=`/`errmsg=` or error termination.

use super::ErrMsg;
use crate::error::CafResult;
use std::ffi::c_int;

/// Copies `msg` into a blank-padded Fortran `errmsg` buffer of `len` bytes.
///
/// # Safety
/// `errmsg` is null or points to `len` writable bytes.
pub unsafe fn fill_errmsg(errmsg: ErrMsg, len: usize, msg: &str) {
    if errmsg.is_null() || len == 0 {
        return;
    }
    // SAFETY: guaranteed by the caller.
    let buf = unsafe { std::slice::from_raw_parts_mut(errmsg as *mut u8, len) };
    let m = msg.as_bytes();
    let k = m.len().min(len);
    buf[..k].copy_from_slice(&m[..k]);
    buf[k..].fill(b' ');
}

/// The lowest address a buffer can have on Linux (`vm.mmap_min_addr` is at least this).
const MIN_ADDRESS: usize = 4096;

/// Repairs the ERRMSG= arguments of a collective. gfortran 12 passes a fixed-length ERRMSG=
/// variable of CO_SUM/CO_MIN/CO_MAX/CO_BROADCAST/CO_REDUCE by value (its bytes on the stack), so
/// the `errmsg` parameter receives the next integer argument (`a_len`, or the buffer length when
/// there is none) and the later parameters receive the buffer's bytes. Such an `errmsg` is a
/// small number, never an address: then ERRMSG= cannot be written, and the real `a_len` is that
/// number. Returns `(errmsg, a_len, errmsg_len)` as they were meant.
pub fn collective_errmsg(errmsg: ErrMsg, a_len: c_int, len: usize) -> (ErrMsg, c_int, usize) {
    let a = errmsg as usize;
    if a != 0 && a < MIN_ADDRESS {
        (std::ptr::null_mut(), a as c_int, 0)
    } else {
        (errmsg, a_len, len)
    }
}

/// Sets STAT= to 0 (success), if present.
///
/// # Safety
/// `stat` is null or writable.
#[inline(always)]
pub unsafe fn set_ok(stat: *mut c_int) {
    if !stat.is_null() {
        // SAFETY: guaranteed by the caller.
        unsafe { *stat = 0 };
    }
}

/// Delivers a result: on success sets `*stat = 0` (if present) and returns the value; on error
/// sets `stat`/`errmsg` if `stat` is present and returns `None`, otherwise ends the program with
/// `ferrocaf: image N: <error> (<what>)`.
///
/// # Safety
/// `stat` is null or writable; `errmsg` is null or points to `len` writable bytes.
pub unsafe fn finish<T>(
    r: CafResult<T>,
    stat: *mut c_int,
    errmsg: ErrMsg,
    len: usize,
    what: &str,
) -> Option<T> {
    match r {
        Ok(v) => {
            // SAFETY: guaranteed by the caller.
            unsafe { set_ok(stat) };
            Some(v)
        }
        Err(e) if !stat.is_null() => {
            // SAFETY: guaranteed by the caller.
            unsafe {
                *stat = e.stat();
                fill_errmsg(errmsg, len, &e.to_string());
            }
            None
        }
        Err(e) => crate::runtime::get().fatal(&e, what),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errmsg_is_blank_padded_and_truncated() {
        let mut b = [b'x'; 8];
        // SAFETY: the buffer has 8 writable bytes.
        unsafe { fill_errmsg(b.as_mut_ptr() as ErrMsg, 8, "abc") };
        assert_eq!(&b, b"abc     ");
        // SAFETY: as above.
        unsafe { fill_errmsg(b.as_mut_ptr() as ErrMsg, 8, "0123456789") };
        assert_eq!(&b, b"01234567");
    }

    #[test]
    fn errmsg_passed_by_value_is_recognised() {
        let mut b = [0u8; 4];
        let p = b.as_mut_ptr() as ErrMsg;
        assert_eq!(collective_errmsg(p, 3, 4), (p, 3, 4));
        let null = std::ptr::null_mut();
        assert_eq!(collective_errmsg(null, 3, 9), (null, 3, 9));
        assert_eq!(collective_errmsg(7 as ErrMsg, 0x2020, 0x2020), (null, 7, 0));
    }
}
