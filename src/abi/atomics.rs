//! Atomic subroutines on coindexed (or local, image 0) atomic variables.

use super::errors::{finish, set_ok};
use super::near::address;
use super::CafToken;
use crate::engine::atomic::{cas, cas_at, op_from_code, rmw, rmw_at};
use crate::error::CafResult;
use crate::runtime::{self, Runtime};
use crate::transport::AtomicOp;
use std::ffi::{c_int, c_void};

/// Resolves gfortran's (token, offset, image) to an initial-team image and segment offset;
/// image 0 means this image.
///
/// # Safety
/// `token` was created by this runtime.
unsafe fn target(
    rt: &Runtime,
    token: CafToken,
    offset: usize,
    image: c_int,
) -> CafResult<(usize, usize)> {
    let img = if image == 0 {
        rt.me
    } else {
        rt.target(image as i64)?
    };
    // SAFETY: guaranteed by the caller.
    Ok((img, unsafe { super::token(token) }.offset + offset))
}

/// The address in this process of the `kind`-byte atomic word at byte `offset` of `token`'s
/// coarray on `image` (0: this image), when the fast path applies: every segment mapped here
/// ([`address`]), no image terminated yet, a valid image index, an aligned 4- or 8-byte word.
/// `None`: [`target`] and the engine decide, and report what is wrong.
///
/// # Safety
/// `token` was created by this runtime.
#[inline(always)]
unsafe fn word(
    rt: &Runtime,
    token: CafToken,
    offset: usize,
    image: c_int,
    kind: c_int,
) -> Option<usize> {
    let kind = kind as usize;
    if kind != 4 && kind != 8 {
        return None;
    }
    // SAFETY: guaranteed by the caller.
    let a = unsafe { address(rt, token, offset, image) }?;
    // Segments start 16-aligned (`near`): the address is aligned as the segment offset is.
    (a & (kind - 1) == 0).then_some(a)
}

/// Reads a `kind`-byte integer or logical argument.
///
/// # Safety
/// `p` points to a readable value of `kind` bytes.
unsafe fn read(p: *const c_void, kind: c_int) -> u64 {
    // SAFETY: guaranteed by the caller.
    unsafe {
        if kind == 8 {
            (p as *const u64).read_unaligned()
        } else {
            (p as *const u32).read_unaligned() as u64
        }
    }
}

/// Writes a `kind`-byte result.
///
/// # Safety
/// `p` points to a writable value of `kind` bytes.
unsafe fn write(p: *mut c_void, kind: c_int, v: u64) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        if kind == 8 {
            (p as *mut u64).write_unaligned(v)
        } else {
            (p as *mut u32).write_unaligned(v as u32)
        }
    }
}

/// Runs `f`, the general path of an entry point, out of line: the fast path before it then
/// saves no registers for it.
#[cold]
#[inline(never)]
fn general<T>(f: impl FnOnce() -> T) -> T {
    f()
}

/// The read-modify-write an atomic subroutine makes of its atom.
#[derive(Clone, Copy)]
enum Update {
    /// A fetching operation with its operand.
    Op(AtomicOp, u64),
    /// A compare-and-swap `(compare, new)`.
    Cas(u64, u64),
}

/// Applies `update` (an error for an unknown operation) to the `kind`-byte atom at byte
/// `offset` of `token`'s coarray on `image` (0: this image): at its address when the fast path
/// applies ([`word`]), else through the engine. The value the atom had, after STAT= 0; `None`
/// after STAT= took an error (without STAT=, `what` names the statement in the error
/// termination's message).
///
/// # Safety
/// `token` was created by this runtime; `stat` is null or writable.
#[inline(always)]
unsafe fn atomic(
    token: CafToken,
    offset: usize,
    image: c_int,
    kind: c_int,
    update: CafResult<Update>,
    stat: *mut c_int,
    what: &'static str,
) -> Option<u64> {
    let rt = runtime::get();
    super::accessor::serve_pending(rt);
    if let Ok(u) = update {
        // SAFETY: guaranteed by the caller.
        if let Some(a) = unsafe { word(rt, token, offset, image, kind) } {
            // SAFETY: an aligned atomic word of a mapped segment (`word`).
            let v = unsafe {
                match u {
                    Update::Op(o, v) => rmw_at(a, kind as usize, o, v),
                    Update::Cas(c, n) => cas_at(a, kind as usize, c, n),
                }
            };
            // SAFETY: guaranteed by the caller.
            unsafe { set_ok(stat) };
            return Some(v);
        }
    }
    general(move || {
        // SAFETY: guaranteed by the caller.
        let r = unsafe { target(rt, token, offset, image) }.and_then(|(img, off)| match update? {
            Update::Op(o, v) => rmw(rt.tp, img, off, kind as usize, o, v),
            Update::Cas(c, n) => cas(rt.tp, img, off, kind as usize, c, n),
        });
        // SAFETY: guaranteed by the caller.
        unsafe { finish(r, stat, std::ptr::null_mut(), 0, what) }
    })
}

/// ATOMIC_DEFINE (Fortran 2018 16.9.23): atomically stores VALUE into ATOM.
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_atomic_define(
    token: CafToken,
    offset: usize,
    image: c_int,
    value: *const c_void,
    stat: *mut c_int,
    _type: c_int,
    kind: c_int,
) {
    // SAFETY: VALUE is a readable value of the atom's kind (gfortran's guarantee).
    let v = unsafe { read(value, kind) };
    let u = Ok(Update::Op(AtomicOp::Swap, v));
    // SAFETY: forwarded from the caller.
    unsafe { atomic(token, offset, image, kind, u, stat, "ATOMIC_DEFINE") };
}

/// ATOMIC_REF (Fortran 2018 16.9.29): atomically reads ATOM into VALUE.
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_atomic_ref(
    token: CafToken,
    offset: usize,
    image: c_int,
    value: *mut c_void,
    stat: *mut c_int,
    _type: c_int,
    kind: c_int,
) {
    let u = Ok(Update::Op(AtomicOp::Load, 0));
    // SAFETY: forwarded from the caller.
    if let Some(v) = unsafe { atomic(token, offset, image, kind, u, stat, "ATOMIC_REF") } {
        // SAFETY: VALUE is writable, per gfortran.
        unsafe { write(value, kind, v) };
    }
}

/// ATOMIC_CAS (Fortran 2018 16.9.24): if ATOM equals COMPARE, set it to NEW; OLD gets the
/// value ATOM had.
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_atomic_cas(
    token: CafToken,
    offset: usize,
    image: c_int,
    old: *mut c_void,
    compare: *const c_void,
    new_val: *const c_void,
    stat: *mut c_int,
    _type: c_int,
    kind: c_int,
) {
    // SAFETY: COMPARE and NEW are readable values of the atom's kind (gfortran's guarantee).
    let (c, n) = unsafe { (read(compare, kind), read(new_val, kind)) };
    let u = Ok(Update::Cas(c, n));
    // SAFETY: forwarded from the caller.
    if let Some(v) = unsafe { atomic(token, offset, image, kind, u, stat, "ATOMIC_CAS") } {
        // SAFETY: OLD is writable, per gfortran.
        unsafe { write(old, kind, v) };
    }
}

/// ATOMIC_ADD/AND/OR/XOR and ATOMIC_FETCH_* (Fortran 2018 16.9.20–16.9.31): atomically
/// combines VALUE into ATOM; OLD (when present) gets the previous value.
///
/// The fast path: a started runtime with no accessor requests to serve, a known operation
/// code and an atom `word` reaches, then the processor's read-modify-write; anything else
/// calls `atomic_op_general` (out of line, gfortran's own signature).
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_atomic_op(
    op: c_int,
    token: CafToken,
    offset: usize,
    image: c_int,
    value: *const c_void,
    old: *mut c_void,
    stat: *mut c_int,
    type_: c_int,
    kind: c_int,
) {
    let rt = runtime::try_get().filter(|_| !crate::transport::owner::serving());
    if let (Some(o), Some(rt)) = (fast_op(op), rt) {
        // SAFETY: a token of this runtime (gfortran's guarantee).
        if let Some(a) = unsafe { word(rt, token, offset, image, kind) } {
            // SAFETY: VALUE is a readable value of the atom's kind (gfortran's guarantee); `a`
            // is an aligned atomic word of a mapped segment (`word`); STAT and OLD are null or
            // writable.
            unsafe {
                let v = rmw_at(a, kind as usize, o, read(value, kind));
                set_ok(stat);
                if !old.is_null() {
                    write(old, kind, v);
                }
            }
            return;
        }
    }
    // SAFETY: forwarded from the caller.
    unsafe { atomic_op_general(op, token, offset, image, value, old, stat, type_, kind) }
}

/// The operation of a valid `atomic_op` code, without building the error of an invalid one.
#[inline(always)]
fn fast_op(op: c_int) -> Option<AtomicOp> {
    match op {
        1 => Some(AtomicOp::Add),
        2 => Some(AtomicOp::And),
        3 => Some(AtomicOp::Or),
        4 => Some(AtomicOp::Xor),
        _ => None,
    }
}

/// Everything [`_gfortran_caf_atomic_op`]'s fast path leaves: starting the runtime, serving
/// pending accessor requests, invalid codes and images, terminated images, other transports.
///
/// # Safety
/// As for [`_gfortran_caf_atomic_op`].
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)] // gfortran's own arguments, passed on unchanged
unsafe extern "C" fn atomic_op_general(
    op: c_int,
    token: CafToken,
    offset: usize,
    image: c_int,
    value: *const c_void,
    old: *mut c_void,
    stat: *mut c_int,
    _type: c_int,
    kind: c_int,
) {
    // SAFETY: VALUE is a readable value of the atom's kind (gfortran's guarantee).
    let u = op_from_code(op).map(|o| Update::Op(o, unsafe { read(value, kind) }));
    // SAFETY: forwarded from the caller.
    let found = unsafe { atomic(token, offset, image, kind, u, stat, "atomic operation") };
    if let (Some(v), false) = (found, old.is_null()) {
        // SAFETY: OLD is writable when present, per gfortran.
        unsafe { write(old, kind, v) };
    }
}
