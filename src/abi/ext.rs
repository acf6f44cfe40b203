//! The notified-access extension for Fortran and C (module `ferrocaf_ext`, header
//! `caf_abi/ferrocaf.h`): event attachment, notified put/get, and persistent notification
//! requests. Not part of any standard; images are 1-based team indices like everywhere else.

use super::cfi::CfiDesc;
use super::errors::finish;
use crate::engine::notify::Filter;
use crate::engine::transfer::{transfer, Side};
use crate::engine::types::{Class, Ty};
use crate::error::{CafError, CafResult};
use crate::runtime::{self, Runtime};
use crate::transport::plan::{normalise, span};
use crate::transport::ring::INLINE;
use crate::transport::{Layout, Notification, Place};
use std::ffi::{c_int, c_void};

/// Wildcard for source images and tags.
pub const ANY: c_int = -1;

/// The local bytes `[lo, hi)` a CFI section covers, and its dims.
///
/// # Safety
/// `x` is a valid CFI descriptor.
unsafe fn section(x: *const CfiDesc) -> (usize, usize, Side) {
    // SAFETY: guaranteed by the caller.
    let x = unsafe { &*x };
    let dims = x.dims();
    let (lo, hi) = span(&dims, x.elem_len);
    let base = x.base_addr as usize;
    let (a, b) = ((base as isize + lo) as usize, (base as isize + hi) as usize);
    (
        a,
        b,
        Side {
            place: Place::Local(base),
            layout: Layout::Strided(dims),
            ty: Ty::new(Class::Bytes, 1, x.elem_len),
        },
    )
}

/// Whether a side's elements are contiguous in increasing address order.
fn is_packed(s: &Side) -> bool {
    let Layout::Strided(dims) = &s.layout else {
        return false;
    };
    let d = normalise(dims);
    d.is_empty() || (d.len() == 1 && d[0].stride == s.ty.size as isize)
}

/// Delivers a result with only `stat=` (the extension has no errmsg).
///
/// # Safety
/// `stat` is null or writable.
unsafe fn done<T>(r: CafResult<T>, stat: *mut c_int, what: &str) -> Option<T> {
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, std::ptr::null_mut(), 0, what) }
}

/// `event_attach(ev, x [, stat, mode])`: every later put into `x` on image j posts `ev` on
/// image j once its data is visible (mode 1: gets from `x` too). Every image must attach alike.
///
/// # Safety
/// `ev` is an event variable's address; `x` a CFI descriptor; `stat`, `mode` null or valid.
#[no_mangle]
pub unsafe extern "C" fn ferrocaf_event_attach(
    ev: *mut c_void,
    x: *const CfiDesc,
    stat: *mut c_int,
    mode: *const c_int,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let (lo, hi, _) = unsafe { section(x) };
    // SAFETY: `mode` is null or readable.
    let on_get = !mode.is_null() && unsafe { *mode } == 1;
    let r = rt.attachment(ev as usize, lo, hi, on_get).and_then(|a| {
        rt.attachments.attach(a)?;
        rt.tp.attach_event(a.slot);
        Ok(())
    });
    // SAFETY: forwarded from the caller.
    unsafe { done(r, stat, "event_attach") };
}

/// `event_detach(ev, x [, stat])`: undoes exactly one earlier `event_attach(ev, x)`.
///
/// # Safety
/// As for [`ferrocaf_event_attach`].
#[no_mangle]
pub unsafe extern "C" fn ferrocaf_event_detach(
    ev: *mut c_void,
    x: *const CfiDesc,
    stat: *mut c_int,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let (lo, hi, _) = unsafe { section(x) };
    let r = rt
        .attachment(ev as usize, lo, hi, false)
        .and_then(|a| rt.attachments.detach(a.start, a.end, a.slot));
    // SAFETY: forwarded from the caller.
    unsafe { done(r, stat, "event_detach") };
}

/// Checks a user tag (0 .. 2^31-1).
fn user_tag(tag: c_int) -> CafResult<u64> {
    if tag < 0 {
        return Err(CafError::InvalidArgument(format!(
            "notification tag {tag} is negative"
        )));
    }
    Ok(tag as u64)
}

/// The remote side of a notified access to the section `x` (a local coarray section) on `image`.
fn remote_side(
    rt: &Runtime,
    image: c_int,
    lo: usize,
    hi: usize,
    local: &Side,
) -> CafResult<(usize, Side)> {
    let img = rt.target(image as i64)?;
    let (_, off) = rt.locate(lo, hi - lo, "the notified variable")?;
    let base = match local.place {
        Place::Local(b) => b,
        Place::Remote { .. } => unreachable!("sections from descriptors are local"),
    };
    let offset = off + (base - lo);
    Ok((
        img,
        Side {
            place: Place::Remote { image: img, offset },
            ..local.clone()
        },
    ))
}

/// The remote side (image, section, segment offset) that the local coarray section `xs`
/// names on `image`, checked to match `other` in element count and length.
fn matched_remote(
    rt: &Runtime,
    image: c_int,
    lo: usize,
    hi: usize,
    xs: &Side,
    other: &Side,
    what: &str,
) -> CafResult<(usize, Side, usize)> {
    let (img, side) = remote_side(rt, image, lo, hi, xs)?;
    if side.layout.count() != other.layout.count() || side.ty.size != other.ty.size {
        return Err(CafError::InvalidArgument(format!(
            "{what}: source and destination differ in size or element length"
        )));
    }
    let Place::Remote { offset, .. } = side.place else {
        unreachable!("remote_side builds a remote place")
    };
    Ok((img, side, offset))
}

/// Tells `img` (with `tag`) that `bytes` at `offset` of its segment were written or read.
fn tell(rt: &Runtime, img: usize, offset: usize, bytes: usize, tag: u64) -> CafResult<()> {
    let n = Notification {
        source: rt.me as u32,
        tag,
        bytes: bytes as u32,
        offset: offset as u64,
        inline: false,
        payload: [0; INLINE],
    };
    rt.notifier.send(rt.tp, &rt.waiter, img, &n)
}

/// `notify_put(x, image, src, tag [, stat])`: `x(...)[image] = src`, then notifies `image`
/// with `tag` (data of up to 32 contiguous bytes travels inside the notification).
///
/// # Safety
/// `x`, `src` CFI descriptors; `stat` null or writable.
#[no_mangle]
pub unsafe extern "C" fn ferrocaf_notify_put(
    x: *const CfiDesc,
    image: c_int,
    src: *const CfiDesc,
    tag: c_int,
    stat: *mut c_int,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let ((lo, hi, xs), (slo, shi, ss)) = unsafe { (section(x), section(src)) };
    let r = user_tag(tag).and_then(|tag| {
        let (img, dst, offset) = matched_remote(rt, image, lo, hi, &xs, &ss, "notify_put")?;
        rt.stats.access(false, (hi - lo) as u64);
        if is_packed(&dst) && is_packed(&ss) {
            // SAFETY: a packed source section of shi - slo readable bytes starting at slo.
            let data = unsafe { std::slice::from_raw_parts(slo as *const u8, shi - slo) };
            return rt.notifier.put(rt.tp, &rt.waiter, img, offset, data, tag);
        }
        transfer(rt.tp, &dst, &ss, false)?;
        tell(rt, img, offset, hi - lo, tag)
    });
    // SAFETY: forwarded from the caller.
    unsafe { done(r, stat, "notify_put") };
}

/// `notify_get(dst, x, image, tag [, stat])`: `dst = x(...)[image]`, then tells `image` (with
/// `tag`) that its buffer has been read.
///
/// # Safety
/// `dst`, `x` CFI descriptors; `stat` null or writable.
#[no_mangle]
pub unsafe extern "C" fn ferrocaf_notify_get(
    dst: *const CfiDesc,
    x: *const CfiDesc,
    image: c_int,
    tag: c_int,
    stat: *mut c_int,
) {
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let ((_, _, ds), (lo, hi, xs)) = unsafe { (section(dst), section(x)) };
    let r = user_tag(tag).and_then(|tag| {
        let (img, src, offset) = matched_remote(rt, image, lo, hi, &xs, &ds, "notify_get")?;
        transfer(rt.tp, &ds, &src, false)?;
        rt.stats.access(true, (hi - lo) as u64);
        tell(rt, img, offset, hi - lo, tag)
    });
    // SAFETY: forwarded from the caller.
    unsafe { done(r, stat, "notify_get") };
}

/// `notify_init(source, tag, count [, stat])`: a persistent request for `count` notifications
/// from `source` (or FERROCAF_ANY_SOURCE) with `tag` (or FERROCAF_ANY_TAG); returns its handle
/// (-1 on error).
///
/// # Safety
/// `stat` null or writable.
#[no_mangle]
pub unsafe extern "C" fn ferrocaf_notify_init(
    source: c_int,
    tag: c_int,
    count: c_int,
    stat: *mut c_int,
) -> c_int {
    let rt = runtime::get();
    let r = (|| {
        let source = if source == ANY {
            None
        } else {
            Some(rt.team.resolve(source as i64)? as u32)
        };
        let tag = if tag == ANY {
            None
        } else {
            Some(user_tag(tag)?)
        };
        if count < 1 {
            return Err(CafError::InvalidArgument(format!(
                "notify_init: count {count} is below 1"
            )));
        }
        rt.notifier
            .matcher(rt.tp)
            .init(Filter { source, tag }, count as u64)
    })();
    // SAFETY: forwarded from the caller.
    unsafe { done(r, stat, "notify_init") }.map_or(-1, |id| id as c_int)
}

/// `notify_start(req [, stat])`: arms the request for its count.
///
/// # Safety
/// `stat` null or writable.
#[no_mangle]
pub unsafe extern "C" fn ferrocaf_notify_start(req: c_int, stat: *mut c_int) {
    let rt = runtime::get();
    let r = rt.notifier.matcher(rt.tp).start(req.max(-1) as usize);
    // SAFETY: forwarded from the caller.
    unsafe { done(r, stat, "notify_start") };
}

/// Writes a match's source (1-based team index, or 0 outside the team) and tag.
///
/// # Safety
/// `source`, `tag` null or writable.
unsafe fn status(
    rt: &Runtime,
    a: crate::engine::notify::Arrival,
    source: *mut c_int,
    tag: *mut c_int,
) {
    let rank = rt
        .team
        .members
        .iter()
        .position(|&m| m == a.source as usize)
        .map_or(0, |r| r as c_int + 1);
    // SAFETY: guaranteed by the caller.
    unsafe {
        if !source.is_null() {
            *source = rank;
        }
        if !tag.is_null() {
            *tag = a.tag as c_int;
        }
    }
}

/// `notify_test(req, flag [, source, tag, stat])`: `flag` is true once the request has its
/// count (it is then complete); `source`/`tag` describe the last match.
///
/// # Safety
/// `flag` writable; the rest null or writable.
#[no_mangle]
pub unsafe extern "C" fn ferrocaf_notify_test(
    req: c_int,
    flag: *mut bool,
    source: *mut c_int,
    tag: *mut c_int,
    stat: *mut c_int,
) {
    let rt = runtime::get();
    let r = rt.notifier.matcher(rt.tp).test(req.max(-1) as usize);
    // SAFETY: forwarded from the caller.
    if let Some(m) = unsafe { done(r, stat, "notify_test") } {
        // SAFETY: forwarded from the caller.
        unsafe {
            *flag = m.is_some();
            if let Some(a) = m {
                status(rt, a, source, tag);
            }
        }
    }
}

/// `notify_wait(req [, source, tag, stat])`: waits (sleeping) until the request has its count.
///
/// # Safety
/// Pointers null or writable.
#[no_mangle]
pub unsafe extern "C" fn ferrocaf_notify_wait(
    req: c_int,
    source: *mut c_int,
    tag: *mut c_int,
    stat: *mut c_int,
) {
    let rt = runtime::get();
    let r = rt.notifier.wait(rt.tp, &rt.waiter, req.max(-1) as usize);
    // SAFETY: forwarded from the caller.
    if let Some(a) = unsafe { done(r, stat, "notify_wait") } {
        // SAFETY: forwarded from the caller.
        unsafe { status(rt, a, source, tag) };
    }
}

/// `notify_free(req [, stat])`: deletes the request.
///
/// # Safety
/// `stat` null or writable.
#[no_mangle]
pub unsafe extern "C" fn ferrocaf_notify_free(req: c_int, stat: *mut c_int) {
    let rt = runtime::get();
    let r = rt.notifier.matcher(rt.tp).free(req.max(-1) as usize);
    // SAFETY: forwarded from the caller.
    unsafe { done(r, stat, "notify_free") };
}
