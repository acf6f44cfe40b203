//! `_gfortran_caf_send_to_remote`: assignment to a coindexed reference, run by its receiver in
//! this process against the target's memory.

use super::attach::put;
use super::guard::call_at;
use super::table::receiver;
use super::target::{resolve, Origin, Target};
use super::Receiver;
use crate::abi::descriptor::{GfcDescriptor, DIM, HEADER};
use crate::abi::errors::finish;
use crate::abi::teams::CafTeam;
use crate::abi::CafToken;
use crate::error::CafResult;
use crate::runtime::{self, Runtime};
use std::ffi::{c_int, c_void};
use std::mem::size_of;

/// The lowest and one-past-highest byte addresses of the elements `d` describes (`None` when
/// empty).
fn extent_of(d: &GfcDescriptor) -> Option<(usize, usize)> {
    let (mut lo, mut hi) = (0isize, 0isize);
    for k in 0..d.rank() {
        let g = d.dim_at(k);
        let n = g.ubound - g.lbound;
        if n < 0 {
            return None;
        }
        let far = n * g.stride * d.span();
        lo += far.min(0);
        hi += far.max(0);
    }
    let base = d.base_addr as isize;
    Some((
        (base + lo) as usize,
        (base + hi) as usize + d.dtype.elem_len,
    ))
}

/// A contiguous copy of the elements of `d`: the bytes and a descriptor of them (same bounds).
pub(super) fn packed(d: &GfcDescriptor) -> (Vec<u8>, Box<GfcDescriptor>) {
    let rank = d.rank();
    let elem = d.dtype.elem_len;
    let count = d.count();
    let mut bytes = vec![0u8; count * elem];
    let mut idx = [0isize; 15];
    for e in 0..count {
        let off: isize = (0..rank)
            .map(|k| idx[k] * d.dim_at(k).stride * d.span())
            .sum();
        // SAFETY: element `idx` of a valid descriptor; `bytes` has room for `count` elements.
        unsafe {
            std::ptr::copy_nonoverlapping(
                (d.base_addr as *const u8).offset(off),
                bytes.as_mut_ptr().add(e * elem),
                elem,
            )
        };
        for (k, i) in idx.iter_mut().enumerate().take(rank) {
            *i += 1;
            let g = d.dim_at(k);
            if *i <= g.ubound - g.lbound {
                break;
            }
            *i = 0;
        }
    }
    // SAFETY: a descriptor is integers and a raw pointer: all-zero bytes are a valid value.
    let mut copy: Box<GfcDescriptor> = Box::new(unsafe { std::mem::zeroed() });
    // SAFETY: copies the real header and `rank` dimensions of `d` into the full-size copy.
    unsafe {
        std::ptr::copy_nonoverlapping(
            (d as *const GfcDescriptor).cast::<u8>(),
            (&mut *copy as *mut GfcDescriptor).cast::<u8>(),
            (HEADER + rank * DIM).min(size_of::<GfcDescriptor>()),
        )
    };
    copy.base_addr = bytes.as_mut_ptr().cast();
    copy.span = elem as isize;
    let (mut stride, mut offset) = (1isize, 0isize);
    for k in 0..rank {
        let g = d.dim_at(k);
        copy.dim[k].stride = stride;
        offset -= g.lbound * stride;
        stride *= (g.ubound - g.lbound + 1).max(0);
    }
    copy.offset = offset as usize;
    (bytes, copy)
}

/// Calls receiver `f` for `origin` on the object at `target` (through `dst_desc` when not null,
/// its base address swapped for the object's during the call) and posts the events attached to
/// the object or to what it wrote (`attach::put`).
///
/// # Safety
/// `f` is a receiver; `target` holds the object it expects; the other pointers as gfortran
/// passes them.
#[allow(clippy::too_many_arguments)] // the receiver's own arguments
pub(super) unsafe fn receive(
    rt: &Runtime,
    f: Receiver,
    target: &Target,
    origin: &Origin,
    dst_desc: *mut GfcDescriptor,
    src: *const c_void,
    dst_charlen: *const usize,
    src_charlen: *const usize,
) -> CafResult<()> {
    let write = |dst: *mut c_void| {
        // SAFETY: the receiver's own convention; every pointer is live for the call; `dst` is
        // the target's object or a shadow of it.
        unsafe {
            f(
                origin.add_data,
                &origin.image,
                dst,
                src,
                origin.token(),
                0,
                dst_charlen,
                src_charlen,
            )
        }
    };
    // SAFETY: `dst_desc` is null or valid (caller's guarantee).
    let run = |base: usize| unsafe { call_at(target.image, dst_desc, base, write) };
    put(rt, target, &run)
}

/// Runs receiver `index` into image `image`'s object of `token` (relative to TEAM= or
/// TEAM_NUMBER= when given) from `src` (`src_size` bytes per character, or of the value) or
/// `src_desc`, staging a source that overlaps the destination object on this image, and posts
/// the events attached to what it wrote; on the owner when the target is away (`away.rs`):
/// `_gfortran_caf_send_to_remote` through the general path (kept out of the entry point, so
/// that the fast path's call stays small), and the second half of a transfer between remotes.
///
/// # Safety
/// Arguments as gfortran passes them to `_gfortran_caf_send_to_remote`.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)] // one per gfortran argument
pub(super) unsafe fn send(
    rt: &Runtime,
    token: CafToken,
    image: c_int,
    team: *const CafTeam,
    team_number: *const c_int,
    dst_desc: *mut GfcDescriptor,
    dst_charlen: *const usize,
    src: *const c_void,
    src_size: usize,
    src_charlen: *const usize,
    src_desc: *const GfcDescriptor,
    index: c_int,
    add_data: *mut c_void,
    add_data_size: usize,
) -> CafResult<()> {
    // SAFETY: forwarded from the caller.
    let target = unsafe { resolve(rt, token, image, team, team_number) }?;
    let f = receiver(index)?;
    let origin = Origin::here(rt, add_data, add_data_size);
    let size = target.token.map_or(0, |t| t.size);
    if target.away {
        // SAFETY: forwarded from the caller.
        unsafe {
            super::away::send(
                rt,
                index,
                &target,
                dst_desc,
                dst_charlen,
                src,
                src_size,
                src_charlen,
                src_desc,
                &origin,
            )
        }?;
        rt.stats.access(false, size as u64);
        return Ok(());
    }
    let mut staged = None;
    let src: *const c_void = if src_desc.is_null() {
        src
    } else {
        // SAFETY: a valid descriptor (caller's guarantee).
        let d = unsafe { &*src_desc };
        let overlaps = target.image == rt.me
            && extent_of(d).is_some_and(|(lo, hi)| lo < target.addr + size && target.addr < hi);
        if overlaps {
            staged = Some(packed(d));
        }
        match &staged {
            Some((_, copy)) => (&**copy as *const GfcDescriptor).cast(),
            None => src_desc.cast(),
        }
    };
    // SAFETY: forwarded from the caller; `src` is the caller's source or its staged copy.
    unsafe {
        receive(
            rt,
            f,
            &target,
            &origin,
            dst_desc,
            src,
            dst_charlen,
            src_charlen,
        )
    }?;
    drop(staged);
    rt.stats.access(false, size as u64);
    Ok(())
}

/// Assignment to a coindexed reference, `x(...)[j]%c... = y` (Fortran 2018 10.2.1.3; GCC 15+):
/// runs receiver `accessor_index` against image `image_index`'s object, relative to TEAM= or
/// TEAM_NUMBER= when given.
///
/// # Safety
/// Arguments as gfortran 15+ passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_send_to_remote(
    token: CafToken,
    opt_dst_desc: *mut GfcDescriptor,
    opt_dst_charlen: *const usize,
    image_index: c_int,
    src_size: usize,
    src_data: *const c_void,
    opt_src_charlen: *const usize,
    opt_src_desc: *const GfcDescriptor,
    accessor_index: c_int,
    add_data: *mut c_void,
    add_data_size: usize,
    stat: *mut c_int,
    team: *const CafTeam,
    team_number: *const c_int,
) {
    let rt = runtime::get();
    let plain =
        opt_dst_desc.is_null() && opt_src_desc.is_null() && team.is_null() && team_number.is_null();
    if plain
        // SAFETY: forwarded from the caller (no descriptors, no team selector).
        && unsafe {
            super::fast::send(
                rt,
                token,
                opt_dst_charlen,
                image_index,
                src_data,
                opt_src_charlen,
                accessor_index,
                add_data,
                add_data_size,
                stat,
            )
        }
    {
        return;
    }
    // SAFETY: forwarded from the caller.
    let r = unsafe {
        send(
            rt,
            token,
            image_index,
            team,
            team_number,
            opt_dst_desc,
            opt_dst_charlen,
            src_data,
            src_size,
            opt_src_charlen,
            opt_src_desc,
            accessor_index,
            add_data,
            add_data_size,
        )
    };
    // SAFETY: stat as gfortran passes it.
    unsafe { finish(r, stat, std::ptr::null_mut(), 0, "coindexed write") };
}
