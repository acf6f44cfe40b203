//! `_gfortran_caf_get_from_remote`: a coindexed reference on the right-hand side, run by its
//! getter in this process against the target's memory.

use super::guard::{call_at, inside};
use super::table::getter;
use super::target::{resolve, Origin, Target};
use crate::abi::descriptor::GfcDescriptor;
use crate::abi::errors::finish;
use crate::abi::teams::CafTeam;
use crate::abi::CafToken;
use crate::error::{CafError, CafResult};
use crate::runtime::{self, Runtime};
use std::ffi::{c_int, c_void};

/// Bytes of the array `d` describes (span × extents), as GCC's runtimes copy it.
pub(super) fn bytes_of(d: &GfcDescriptor) -> usize {
    (0..d.rank()).fold(d.span().max(0) as usize, |b, k| {
        let g = d.dim_at(k);
        b * (g.ubound - g.lbound + 1).max(0) as usize
    })
}

/// Where a getter writes its result: a descriptor (the getter allocates the array when its
/// base address is null, reallocates it when its shape differs) or the address of a result
/// pointer (which the getter may point at the value in the target's memory, or at memory it
/// allocates).
#[derive(Clone, Copy)]
pub(super) enum Dst {
    /// A destination descriptor.
    Desc(*mut GfcDescriptor),
    /// The address of the result pointer and the bytes of one character (or of the value).
    Slot(*mut *mut c_void, usize),
}

impl Dst {
    /// The getter's `dst` argument.
    pub fn arg(self) -> *mut c_void {
        match self {
            Dst::Desc(d) => d.cast(),
            Dst::Slot(p, _) => p.cast(),
        }
    }
}

/// Calls getter `index` for the object at `target` into `dst`, with `src_desc`'s
/// base address swapped for the target's copy during the call (the object's address itself
/// when there is no descriptor) and restored after; on the owner when the target is away
/// (`away.rs`). The getter's `free_buffer` flag.
///
/// # Safety
/// `src_desc` is null or a valid descriptor; `dst`, the origin's add_data and the lengths are
/// what the getter's convention expects (as gfortran passes them).
#[allow(clippy::too_many_arguments)] // one per getter argument
pub(super) unsafe fn run_getter(
    rt: &Runtime,
    index: c_int,
    target: &Target,
    src_desc: *mut GfcDescriptor,
    dst: Dst,
    origin: &Origin,
    dst_charlen: *mut usize,
    src_charlen: *const usize,
) -> CafResult<i32> {
    let f = getter(index)?;
    if target.away {
        // SAFETY: forwarded from the caller.
        return unsafe {
            super::away::get(
                rt,
                index,
                target,
                src_desc,
                dst,
                origin,
                dst_charlen,
                src_charlen,
            )
        };
    }
    let mut free_buffer = 0i32;
    let run = |src: *mut c_void| {
        // SAFETY: the getter's own convention; every pointer is live for the call.
        unsafe {
            f(
                origin.add_data,
                &origin.image,
                dst.arg(),
                &mut free_buffer,
                src,
                origin.token(),
                0,
                dst_charlen,
                src_charlen,
            )
        }
    };
    // SAFETY: `src_desc` is null or valid (caller's guarantee).
    unsafe { call_at(target.image, src_desc, target.addr, run) };
    Ok(free_buffer)
}

/// Runs getter `index` on image `image`'s object of `token` into `dst` (the destination
/// descriptor or the address of the result pointer): `_gfortran_caf_get_from_remote` through
/// the general path (kept out of the entry point, so that the fast path's call stays small).
///
/// # Safety
/// Arguments as gfortran passes them to `_gfortran_caf_get_from_remote`.
#[cold]
#[inline(never)]
#[allow(clippy::too_many_arguments)] // one per gfortran argument
unsafe fn get(
    rt: &Runtime,
    token: CafToken,
    src_desc: *mut GfcDescriptor,
    src_charlen: *const usize,
    image: c_int,
    dst_size: usize,
    dst_data: *mut *mut c_void,
    dst_charlen: *mut usize,
    dst_desc: *mut GfcDescriptor,
    may_realloc: bool,
    index: c_int,
    add_data: *mut c_void,
    add_data_size: usize,
    team: *const CafTeam,
    team_number: *const c_int,
) -> CafResult<()> {
    // SAFETY: forwarded from the caller.
    let target = unsafe { resolve(rt, token, image, team, team_number) }?;
    let dst = if dst_desc.is_null() {
        Dst::Slot(dst_data, dst_size)
    } else {
        Dst::Desc(dst_desc)
    };
    // A destination that must not be reallocated gets a buffer from the getter, copied below.
    let old_dst = if !dst_desc.is_null() && !may_realloc {
        // SAFETY: a valid, writable descriptor (caller's guarantee).
        unsafe { std::mem::replace(&mut (*dst_desc).base_addr, std::ptr::null_mut()) }
    } else {
        std::ptr::null_mut()
    };
    let before = if dst_desc.is_null() {
        // SAFETY: the address of the result pointer (caller's guarantee).
        unsafe { *dst_data }
    } else {
        std::ptr::null_mut()
    };
    // SAFETY: forwarded from the caller; `dst` is the descriptor or result pointer above.
    let free_buffer = unsafe {
        run_getter(
            rt,
            index,
            &target,
            src_desc,
            dst,
            &Origin::here(rt, add_data, add_data_size),
            dst_charlen,
            src_charlen,
        )
    }?;
    if !old_dst.is_null() {
        // SAFETY: the getter filled a malloc'd buffer described by `dst_desc`; the caller's
        // destination has the same shape.
        unsafe {
            let d = &mut *dst_desc;
            if !d.base_addr.is_null() && d.base_addr != old_dst {
                std::ptr::copy_nonoverlapping(
                    d.base_addr as *const u8,
                    old_dst as *mut u8,
                    bytes_of(d),
                );
                libc::free(d.base_addr);
            }
            d.base_addr = old_dst;
        }
    } else if let (true, false, Some(t)) = (dst_desc.is_null(), target.away, target.token) {
        // SAFETY: as above.
        let p = unsafe { *dst_data } as usize;
        let segment = target.addr - t.offset;
        if p != before as usize && free_buffer == 0 && !inside(rt, segment, p, 1) {
            // The result pointer as it was, so that code reading it after a STAT= error reads
            // its own destination, not the stray address.
            // SAFETY: as above.
            unsafe { *dst_data = before };
            return Err(stray(target.image, p));
        }
    }
    rt.stats.access(true, dst_size as u64);
    got(rt, &target)
}

/// The error of a result pointer `p` outside every segment, after a getter ran on 0-based image
/// `image`.
pub(super) fn stray(image: usize, p: usize) -> CafError {
    CafError::InvalidArgument(format!(
        "a coindexed reference leads outside image {}'s coarray memory (address {p:#x}: a \
         pointer component associated with non-coarray memory?)",
        image + 1
    ))
}

/// Posts the events attached in puts-and-gets mode to the object a getter read from (all of
/// them, each once: which bytes a getter reads is known only to its code).
pub(super) fn got(rt: &Runtime, target: &super::target::Target) -> CafResult<()> {
    match target.token {
        Some(t) if rt.attachments.any() => {
            rt.after_bytes(target.image, t.span(), Some(t.span()), true)
        }
        _ => Ok(()),
    }
}

/// A coindexed reference on the right-hand side, `y = x(...)[j]%c...` (Fortran 2018 9.6; GCC
/// 15+): runs getter `getter_index` against image `image_index`'s object, relative to TEAM= or
/// TEAM_NUMBER= when given; an allocatable `y` may be (re)allocated (10.2.1.3).
///
/// # Safety
/// Arguments as gfortran 15+ passes them.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_get_from_remote(
    token: CafToken,
    opt_src_desc: *mut GfcDescriptor,
    opt_src_charlen: *const usize,
    image_index: c_int,
    dst_size: usize,
    dst_data: *mut *mut c_void,
    opt_dst_charlen: *mut usize,
    opt_dst_desc: *mut GfcDescriptor,
    may_realloc_dst: bool,
    getter_index: c_int,
    add_data: *mut c_void,
    add_data_size: usize,
    stat: *mut c_int,
    team: *const CafTeam,
    team_number: *const c_int,
) {
    // No descriptor and no team selector: one test of the four pointers or-ed together.
    let plain =
        (opt_src_desc as usize | opt_dst_desc as usize | team as usize | team_number as usize) == 0;
    if plain
        // SAFETY: forwarded from the caller (no descriptors, no team selector).
        && unsafe {
            super::fast::get(
                token,
                opt_src_charlen,
                image_index,
                dst_size,
                dst_data,
                opt_dst_charlen,
                getter_index,
                add_data,
                add_data_size,
                stat,
            )
        }
    {
        return;
    }
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let r = unsafe {
        get(
            rt,
            token,
            opt_src_desc,
            opt_src_charlen,
            image_index,
            dst_size,
            dst_data,
            opt_dst_charlen,
            opt_dst_desc,
            may_realloc_dst,
            getter_index,
            add_data,
            add_data_size,
            team,
            team_number,
        )
    };
    // SAFETY: stat as gfortran passes it.
    unsafe { finish(r, stat, std::ptr::null_mut(), 0, "coindexed read") };
}
