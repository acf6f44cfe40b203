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
            if !stat.is_null() {
                // SAFETY: guaranteed by the caller.
                unsafe { *stat = 0 };
            }
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
}
