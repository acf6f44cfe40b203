//! The owner's side of accessors run for other images (`away.rs` has the caller's): registered
//! with the transport as its server, called whenever this image enters the runtime and a
//! request has arrived. The accessor runs against this image's own memory, with this image's
//! pointers, through the same code as a local call; its add_data is the caller's, copied, and
//! its add_data token leads nested reads of it back to the caller.

use super::get::{bytes_of, run_getter, Dst};
use super::guard::inside;
use super::present::run_present;
use super::send::receive;
use super::table::{presence, receiver};
use super::target::{Object, Origin, Target};
use super::wire::{aligned, desc_bytes, desc_from, Kind, Request, Writer};
use crate::engine::status;
use crate::error::{CafError, CafResult};
use crate::runtime::registry::Token;
use crate::runtime::{self, Runtime};
use crate::transport::control;
use std::ffi::c_void;

/// The first word of the reply of an image that has failed (0: the accessor ran, 1: its error
/// follows).
pub(super) const FAILED_REPLY: u64 = 2;

/// Serves one request from image `source` (0-based): a reply whose first word is 0 and whose
/// rest is the result, 1 and a one-line error, or [`FAILED_REPLY`] alone.
pub(super) fn serve(source: usize, request: &[u8]) -> Vec<u8> {
    let rt = runtime::get();
    // A failed image waits for the job's end in a wait that still serves requests: it answers
    // that it failed instead of running the accessor (`accessor_stat` across bed hosts read
    // stat 0 from a failed image that answered before the caller saw it fail).
    if status::of(rt.tp, rt.tp.this_image()) == control::status::FAILED {
        return Writer::default().word(FAILED_REPLY).done();
    }
    let r = Request::decode(request)
        .ok_or_else(|| CafError::InvalidArgument("a malformed owner-side accessor call".into()))
        // SAFETY: the request comes from the same executable's runtime on image `source`.
        .and_then(|q| unsafe { run(rt, source, &q) });
    match r {
        Ok(mut body) => {
            let mut reply = Writer::default().word(0).done();
            reply.append(&mut body);
            reply
        }
        Err(e) => Writer::default()
            .word(1)
            .blob(e.to_string().as_bytes())
            .done(),
    }
}

/// A pointer to the length in `v`, or null.
fn length(v: &mut Option<usize>) -> *mut usize {
    v.as_mut().map_or(std::ptr::null_mut(), |c| c as *mut usize)
}

/// Runs the accessor `q` names for image `source`; the body of the reply.
///
/// # Safety
/// `q` was built by `away.rs` in this executable: its index, base and descriptors are what
/// the accessor expects.
unsafe fn run(rt: &Runtime, source: usize, q: &Request) -> CafResult<Vec<u8>> {
    let (addr, token) = match q.size {
        Some(size) => {
            let addr = rt
                .tp
                .direct(rt.me, q.base)
                .expect("an image maps its own segment");
            let plain = (rt.registry.find(q.base)).is_some_and(|(t, start, _)| {
                // SAFETY: the registry's tokens are live while registered.
                start == q.base && unsafe { (*(t as *const Token)).plain }
            });
            let object = Object {
                offset: q.base,
                size,
                desc: 0,
                plain,
            };
            (addr, Some(object))
        }
        None => (q.base, None),
    };
    let target = Target {
        image: rt.me,
        addr,
        token,
        away: false,
    };
    let mut add_data = aligned(q.add_data);
    let add_ptr: *mut c_void = if q.add_data.is_empty() {
        std::ptr::null_mut()
    } else {
        add_data.as_mut_ptr().cast()
    };
    let origin = Origin::away(source, q.caller, add_ptr, q.add_data.len(), q.add_data_addr);
    let (mut src_charlen, mut dst_charlen) = (q.src_charlen, q.dst_charlen);
    let (src_len, dst_len) = (length(&mut src_charlen), length(&mut dst_charlen));
    match q.kind {
        Kind::Get => {
            // SAFETY: forwarded from the caller.
            unsafe { get(rt, q, &target, &origin, src_len, dst_len) }
        }
        Kind::Send => {
            let f = receiver(q.index)?;
            let mut data = aligned(q.data);
            let mut src_desc = desc_from(q.other_desc);
            src_desc.base_addr = data.as_mut_ptr().cast();
            let src: *const c_void = if q.other_desc.is_empty() {
                data.as_ptr().cast()
            } else {
                (&*src_desc as *const crate::abi::descriptor::GfcDescriptor).cast()
            };
            let mut dst_desc = desc_from(q.base_desc);
            let dst_desc = if q.base_desc.is_empty() {
                std::ptr::null_mut()
            } else {
                &mut *dst_desc as *mut crate::abi::descriptor::GfcDescriptor
            };
            // SAFETY: forwarded from the caller; the object is at `target.addr` here.
            unsafe { receive(rt, f, &target, &origin, dst_desc, src, dst_len, src_len) }?;
            Ok(Vec::new())
        }
        Kind::Present => {
            let f = presence(q.index)?;
            // SAFETY: the object is at `addr` in this process.
            let r = unsafe { run_present(f, rt.me, addr, q.base_desc, &origin) };
            Ok(Writer::default().word(r as u32 as u64).done())
        }
    }
}

/// Runs the getter `q` names: the reply body is the getter's `free_buffer` flag, the
/// destination's character length, the destination descriptor after the call (empty for a
/// scalar) and the result's bytes.
///
/// # Safety
/// As for [`run`].
unsafe fn get(
    rt: &Runtime,
    q: &Request,
    target: &Target,
    origin: &Origin,
    src_charlen: *mut usize,
    dst_charlen: *mut usize,
) -> CafResult<Vec<u8>> {
    let chars = || {
        if dst_charlen.is_null() {
            1
        } else {
            // SAFETY: a length in `run`'s frame, live for this call.
            unsafe { *dst_charlen }
        }
    };
    let mut src_desc = desc_from(q.base_desc);
    let src_desc = if q.base_desc.is_empty() {
        std::ptr::null_mut()
    } else {
        &mut *src_desc as *mut crate::abi::descriptor::GfcDescriptor
    };
    if !q.other_desc.is_empty() {
        let mut d = desc_from(q.other_desc);
        d.base_addr = std::ptr::null_mut();
        // SAFETY: forwarded from the caller; the getter allocates the destination.
        unsafe {
            run_getter(
                rt,
                q.index,
                target,
                src_desc,
                Dst::Desc(&mut *d),
                origin,
                dst_charlen,
                src_charlen,
            )
        }?;
        let n = if d.base_addr.is_null() {
            0
        } else {
            bytes_of(&d)
        };
        // SAFETY: the getter allocated `n` bytes for the result (malloc).
        let body = unsafe {
            let data = std::slice::from_raw_parts(d.base_addr.cast::<u8>().cast_const(), n);
            let body = Writer::default()
                .word(1)
                .word(chars() as u64)
                .blob(desc_bytes(&*d))
                .blob(if n == 0 { &[] } else { data })
                .done();
            libc::free(d.base_addr);
            body
        };
        return Ok(body);
    }
    let room = q.elem * chars().max(1);
    let mut scratch = vec![0u128; room.div_ceil(16).max(1)];
    let before: *mut c_void = scratch.as_mut_ptr().cast();
    let mut slot = before;
    // SAFETY: forwarded from the caller; `slot` points at room for the result.
    let free_buffer = unsafe {
        run_getter(
            rt,
            q.index,
            target,
            src_desc,
            Dst::Slot(&mut slot, q.elem),
            origin,
            dst_charlen,
            src_charlen,
        )
    }?;
    let n = q.elem * chars();
    let segment = target.addr - target.token.map_or(0, |t| t.offset);
    let outside = target.token.is_some() && !inside(rt, segment, slot as usize, n.max(1));
    if slot != before && free_buffer == 0 && outside {
        return Err(CafError::InvalidArgument(format!(
            "a coindexed reference leads outside image {}'s coarray memory (address {:#x}: \
             a pointer component associated with non-coarray memory?)",
            rt.me + 1,
            slot as usize
        )));
    }
    // SAFETY: the result: `n` bytes at `slot` (the scratch, the object's memory, or memory the
    // getter allocated, freed after the copy).
    let body = unsafe {
        let data = std::slice::from_raw_parts(slot.cast::<u8>().cast_const(), n);
        let body = Writer::default()
            .word(u64::from(free_buffer != 0))
            .word(chars() as u64)
            .blob(&[])
            .blob(data)
            .done();
        if free_buffer != 0 {
            libc::free(slot);
        }
        body
    };
    Ok(body)
}
