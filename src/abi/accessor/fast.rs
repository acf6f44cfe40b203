//! The common case of `_gfortran_caf_get_from_remote` and `_send_to_remote`, tried first: no
//! descriptors and no team selector (a scalar, or an array element), a symmetric coarray, no
//! image terminated yet, every segment mapped at its owner's address ([`near`]), and no event
//! attached anywhere — but for a write, events may be attached to other objects, or one to the
//! whole object, which is posted after it (`Runtime::after_bytes`). Everything the general path
//! decides is then one load or one comparison, and the call is the accessor (plus, for a read,
//! a range check of the pointer it returns).

use super::guard::{inside_any, outermost};
use super::table::lookup;
use super::target::caller_token_in;
use super::{Getter, Receiver};
use crate::abi::errors::finish;
use crate::abi::near::placement;
use crate::abi::CafToken;
use crate::engine::attach::Cover;
use crate::runtime::registry::{HeapKind, Token};
use crate::runtime::Runtime;
use std::ffi::{c_int, c_void};
use std::sync::atomic::Ordering;

/// The target of a plain access, when the fast path applies.
struct Target<'a> {
    /// 0-based initial-team index.
    image: usize,
    /// Start of its segment in this process.
    base: usize,
    /// The coarray.
    token: &'a Token,
    /// This image's number in the current team (the accessor's `caller_image`).
    caller: &'a c_int,
}

/// The [`Target`] of a plain access to image `image` of the current team, if the fast path
/// applies.
#[inline(always)]
fn place(rt: &'static Runtime, token: CafToken, image: c_int) -> Option<Target<'static>> {
    let (_, p) = placement(rt).filter(|(_, p)| p.same)?;
    if token.is_null() || rt.header.news.load(Ordering::Acquire) != 0 {
        return None;
    }
    // SAFETY: a token of this runtime (the entry point's caller guarantees it).
    let t = unsafe { &*(token as *const Token) };
    if t.heap != HeapKind::Symmetric {
        return None;
    }
    let &(lo, j) = p.members.get((image as usize).wrapping_sub(1))?;
    Some(Target {
        image: j,
        base: lo,
        token: t,
        caller: &p.me,
    })
}

/// Ends an access the fast path made: STAT= 0 (if present), and `bytes` counted as read
/// (`read`) or written.
///
/// # Safety
/// `stat` is null or writable.
#[inline(always)]
pub(super) unsafe fn done(rt: &Runtime, stat: *mut c_int, read: bool, bytes: usize) {
    // SAFETY: guaranteed by the caller.
    unsafe { crate::abi::errors::set_ok(stat) };
    if rt.stats_on {
        rt.stats.access(read, bytes as u64);
    }
}

/// Runs receiver `index` for image `image` of the current team from the value at `src`, posts
/// the event attached to the whole destination object if there is one, and ends the access
/// (STAT=, statistics of the destination coarray's bytes); `false` (nothing done) when the
/// access needs the general path.
///
/// # Safety
/// Arguments as gfortran passes them to `_gfortran_caf_send_to_remote`, without descriptors
/// and team selectors.
#[inline]
#[allow(clippy::too_many_arguments)] // the receiver's own arguments
pub(super) unsafe fn send(
    rt: &'static Runtime,
    token: CafToken,
    dst_charlen: *const usize,
    image: c_int,
    src: *const c_void,
    src_charlen: *const usize,
    index: c_int,
    add_data: *mut c_void,
    add_data_size: usize,
    stat: *mut c_int,
) -> bool {
    let Some(f) = lookup(index) else {
        return false;
    };
    let Some(Target {
        image: j,
        base: lo,
        token: t,
        caller,
    }) = place(rt, token, image)
    else {
        return false;
    };
    let event = match rt.attachments.any() {
        true => match whole(rt, t) {
            Some(event) => event,
            None => return false,
        },
        false => None,
    };
    let addr = lo + t.offset;
    // SAFETY: the table holds the functions gfortran registered; this index names a receiver.
    let f = unsafe { std::mem::transmute::<usize, Receiver>(f) };
    let mut slot = std::mem::MaybeUninit::uninit();
    let caller_token = caller_token_in(add_data, add_data_size, &mut slot);
    outermost(j, || {
        // SAFETY: the receiver's own convention; every pointer is live for the call.
        unsafe {
            f(
                add_data,
                caller,
                addr as *mut c_void,
                src,
                caller_token as *const Token as CafToken,
                0,
                dst_charlen,
                src_charlen,
            )
        }
    });
    match event {
        // SAFETY: stat as gfortran passes it.
        None => unsafe { done(rt, stat, false, t.size) },
        // SAFETY: as above.
        Some(event) => unsafe { posted(rt, j, event, stat, t.size) },
    }
    true
}

/// Posts `event` on image `j` after a write of a coarray of `bytes` bytes, and ends the access
/// (STAT=: the post's error, if any).
///
/// # Safety
/// `stat` is null or writable.
#[cold]
#[inline(never)]
unsafe fn posted(rt: &Runtime, j: usize, event: usize, stat: *mut c_int, bytes: usize) {
    match rt.events().post(j, event) {
        // SAFETY: guaranteed by the caller.
        Ok(()) => unsafe { done(rt, stat, false, bytes) },
        // SAFETY: as above.
        Err(e) => unsafe {
            finish(
                Err::<(), _>(e),
                stat,
                std::ptr::null_mut(),
                0,
                "coindexed write",
            );
        },
    }
}

/// With events attached somewhere: `Some` of the event attached to all of `t`'s object, to post
/// after a write into it (`Runtime::after_bytes`), or of `None` when nothing is attached to it;
/// `None` when events are attached to part of it (the general path's probe finds which).
/// Out of line: a write with nothing attached anywhere pays one load for all of this.
#[cold]
#[inline(never)]
fn whole(rt: &Runtime, t: &Token) -> Option<Option<usize>> {
    match rt.attachments.cover(t.offset, t.offset + t.size, false) {
        Cover::Untouched => Some(None),
        Cover::Whole(slot) => Some(Some(slot)),
        Cover::Part => None,
    }
}

/// Runs getter `index` for image `image` of the current team into the result pointer at `dst` (no
/// event attached anywhere), and ends the access (STAT=, statistics of `dst_size` bytes); `false`
/// (nothing done) when the access needs the general path. Once the getter has run, nothing but the
/// result pointer's check is left: the arguments the general path would need are dead across the
/// call, which keeps the entry point's frame small.
///
/// # Safety
/// Arguments as gfortran passes them to `_gfortran_caf_get_from_remote`, without descriptors
/// and team selectors.
#[inline]
#[allow(clippy::too_many_arguments)] // the getter's own arguments
pub(super) unsafe fn get(
    token: CafToken,
    src_charlen: *const usize,
    image: c_int,
    dst_size: usize,
    dst: *mut *mut c_void,
    dst_charlen: *mut usize,
    index: c_int,
    add_data: *mut c_void,
    add_data_size: usize,
    stat: *mut c_int,
) -> bool {
    let Some(f) = lookup(index) else {
        return false;
    };
    // SAFETY: the table's fast view is open once the fault guard is installed, which the first
    // accessor call does after starting the runtime.
    let rt = unsafe { crate::runtime::started() };
    if rt.attachments.any() {
        return false;
    }
    let Some(Target {
        image: j,
        base: lo,
        token: t,
        caller,
    }) = place(rt, token, image)
    else {
        return false;
    };
    let addr = lo + t.offset;
    // SAFETY: the table holds the functions gfortran registered; this index names a getter.
    let f = unsafe { std::mem::transmute::<usize, Getter>(f) };
    let mut slot = std::mem::MaybeUninit::uninit();
    let caller_token = caller_token_in(add_data, add_data_size, &mut slot);
    let mut free_buffer = 0i32;
    // SAFETY: the address of the result pointer (caller's guarantee).
    let before = unsafe { *dst };
    outermost(j, || {
        // SAFETY: the getter's own convention; every pointer is live for the call.
        unsafe {
            f(
                add_data,
                caller,
                dst.cast(),
                &mut free_buffer,
                addr as *mut c_void,
                caller_token as *const Token as CafToken,
                0,
                dst_charlen,
                src_charlen,
            )
        }
    });
    // SAFETY: as above.
    let p = unsafe { *dst } as usize;
    // Most often the result points into the target's segment (one unsigned comparison: an
    // address below `lo` wraps to a large offset); anything else is checked out of line.
    if p.wrapping_sub(lo) >= rt.seg_size {
        // SAFETY: as above; stat as gfortran passes it.
        unsafe { elsewhere(lo, p, dst, before, free_buffer, stat, dst_size) };
        return true;
    }
    // SAFETY: as above.
    unsafe { done(rt, stat, true, dst_size) };
    true
}

/// Ends a get whose result pointer `p` is outside the segment at `lo` that the getter read:
/// fine when unchanged from `before`, a buffer the getter allocated (`free_buffer`), or inside
/// another image's segment (STAT= 0, statistics); else reported as the general path does,
/// with the result pointer put back to `before` at `dst` (code that reads it after a STAT=
/// error reads its own destination).
///
/// # Safety
/// `dst` is writable; `stat` is null or writable.
#[cold]
#[inline(never)]
unsafe fn elsewhere(
    lo: usize,
    p: usize,
    dst: *mut *mut c_void,
    before: *mut c_void,
    free_buffer: i32,
    stat: *mut c_int,
    dst_size: usize,
) {
    let rt = crate::runtime::get();
    if p == before as usize || free_buffer != 0 || inside_any(rt, p, 1) {
        // SAFETY: guaranteed by the caller.
        unsafe { done(rt, stat, true, dst_size) };
        return;
    }
    // SAFETY: guaranteed by the caller.
    unsafe { *dst = before };
    let image = placement(rt)
        .and_then(|(_, pl)| pl.members.iter().find(|m| m.0 == lo))
        .map_or(0, |m| m.1);
    // SAFETY: guaranteed by the caller.
    unsafe {
        crate::abi::errors::finish(
            Err::<(), _>(super::get::stray(image, p)),
            stat,
            std::ptr::null_mut(),
            0,
            "coindexed read",
        )
    };
}
