//! Large puts of gfortran 15+ programs with streaming stores. Their receivers copy a contiguous
//! section with `memcpy` (the compiled `x(1:k)[j] = y(1:k)` is one call), so the runtime never
//! sees the copy; it can only choose the `memcpy` they call. libferrocaf exports one, found
//! before the C library's by every object of the program (the library is linked before it):
//! while this thread runs a receiver against another image's memory ([`streamed`]) a copy of
//! at least [`STREAM_MIN`] bytes goes with streaming stores, unless that image last waited on
//! this CPU (`transport/shm/stream.rs`: a
//! 256 KiB put-and-answer ping-pong 10.4 µs per message against 17–36, bench/NOTES.md); every
//! other call is the C library's `memmove` (which the C library's `memcpy` also is on x86-64)
//! after one comparison.

use crate::transport::control::Header;
use crate::transport::shm::stream::{self, STREAM_MIN};
use std::ffi::c_void;

extern "C" {
    /// Sets this thread's streaming mark (`stream_mark.c`: initial-exec TLS; the address of
    /// the target image's header, or 0) and returns the previous value.
    fn ferrocaf_stream_enter(header: usize) -> usize;
    /// Puts back the value `ferrocaf_stream_enter` returned.
    fn ferrocaf_stream_leave(was: usize);
    /// This thread's streaming mark.
    fn ferrocaf_streaming() -> usize;
}

/// Runs `f` (a receiver's call) with this thread's large `memcpy`s streamed into the image
/// whose header lies at `header` (the receiver writes that image's object), when given.
pub(super) fn streamed<R>(header: Option<usize>, f: impl FnOnce() -> R) -> R {
    // SAFETY: sets and restores this thread's mark around the call.
    let was = unsafe { ferrocaf_stream_enter(header.unwrap_or(0)) };
    let r = f();
    // SAFETY: as above.
    unsafe { ferrocaf_stream_leave(was) };
    r
}

/// `memcpy` (C11 7.24.2.1) for the whole program: with streaming stores for a large copy made
/// while [`streamed`] is on and the two ranges do not overlap, else the C library's `memmove`.
///
/// # Safety
/// As C's `memcpy`: `s` readable and `d` writable for `n` bytes.
#[no_mangle]
pub unsafe extern "C" fn memcpy(d: *mut c_void, s: *const c_void, n: usize) -> *mut c_void {
    let (da, sa) = (d as usize, s as usize);
    if n >= STREAM_MIN && (da + n <= sa || sa + n <= da) && streams_into(n) {
        // SAFETY: the caller's guarantee; the ranges do not overlap.
        unsafe { stream::copy(d.cast(), s.cast(), n) };
        return d;
    }
    // SAFETY: the caller's guarantee (memmove allows what memcpy allows and more).
    unsafe { libc::memmove(d, s, n) }
}

/// Whether a copy of `n` bytes made now streams: a receiver runs against another image's
/// object ([`streamed`]) that did not last wait on this CPU.
#[cold]
fn streams_into(n: usize) -> bool {
    // SAFETY: reads this thread's mark (a plain thread-local load).
    let h = unsafe { ferrocaf_streaming() };
    // SAFETY: a non-zero mark is the address of a mapped image header (`streamed`).
    h != 0 && stream::worth_streaming(unsafe { &*(h as *const Header) }, n)
}

#[cfg(test)]
mod tests {
    use super::{memcpy, streamed, STREAM_MIN};
    use crate::transport::control::Header;

    /// Streamed or not, large or small, `memcpy` copies exactly its bytes.
    #[test]
    fn copies_exactly_streamed_or_not() {
        // SAFETY: a Header is atomics and padding: all-zero bytes are a valid value.
        let h: Header = unsafe { std::mem::zeroed() };
        let at = &h as *const Header as usize;
        for on in [None, Some(at)] {
            for n in [0, 7, STREAM_MIN - 1, STREAM_MIN, STREAM_MIN + 13, 300_001] {
                let src: Vec<u8> = (0..n).map(|i| (i * 13 + 1) as u8).collect();
                let mut dst = vec![0u8; n + 3];
                // SAFETY: `dst` has room for `1 + n` bytes, `src` holds `n`.
                let r = streamed(on, || unsafe {
                    memcpy(dst.as_mut_ptr().add(1).cast(), src.as_ptr().cast(), n)
                });
                assert_eq!(r as usize, dst.as_ptr() as usize + 1);
                assert_eq!(dst[0], 0);
                assert_eq!(&dst[1..=n], &src[..], "{n} bytes, streamed {on:?}");
                assert_eq!(&dst[n + 1..], &[0, 0]);
            }
        }
    }
}
