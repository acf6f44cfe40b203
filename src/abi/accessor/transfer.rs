//! `_gfortran_caf_transfer_between_remotes`: `x(...)[i]%c... = y(...)[j]%d...`, the getter of
//! the source into a local temporary, then the receiver of the destination from it.
//!
//! gfortran 15 and 16 end the call differently (verified on their call sites): gfortran 16
//! passes `dst_stat, src_stat, dst_team, dst_team_number, src_team, src_team_number`;
//! gfortran 15 passes four arguments, `dst_stat, dst_team, dst_team_number, src_stat`, and no
//! team for the source.

use super::get::{bytes_of, run_getter, Dst};
use super::send::send;
use super::target::{resolve, Origin};
use crate::abi::descriptor::GfcDescriptor;
use crate::abi::errors::finish;
use crate::abi::generation::{current, Generation};
use crate::abi::teams::CafTeam;
use crate::abi::CafToken;
use crate::error::CafResult;
use crate::runtime::{self, Runtime};
use std::ffi::{c_int, c_void};

/// Where a transfer's source value is kept between the getter and the receiver.
enum Staged {
    /// A scalar: the getter points `slot` at the value (into the source's memory, or into
    /// `scratch`).
    Scalar {
        slot: *mut c_void,
        _scratch: Vec<u64>,
    },
    /// An array: the getter allocates it and describes it here.
    Array(Box<GfcDescriptor>),
}

/// Runs getter `index` against `src_image`'s object of `token`; returns the staged value and
/// whether the getter allocated it.
///
/// # Safety
/// Arguments as gfortran passes them.
#[allow(clippy::too_many_arguments)] // one per gfortran argument
unsafe fn fetch(
    rt: &Runtime,
    token: CafToken,
    src_desc: *mut GfcDescriptor,
    src_charlen: *const usize,
    image: c_int,
    index: c_int,
    add_data: *mut c_void,
    add_data_size: usize,
    size: usize,
    dst_charlen: *mut usize,
    scalar: bool,
    team: *const CafTeam,
    team_number: *const c_int,
) -> CafResult<(Staged, bool)> {
    // SAFETY: forwarded from the caller.
    let target = unsafe { resolve(rt, token, image, team, team_number) }?;
    let mut staged = if scalar {
        let chars = if dst_charlen.is_null() {
            1
        } else {
            // SAFETY: a readable length (caller's guarantee).
            unsafe { *dst_charlen }
        };
        let mut scratch = vec![0u64; (size.max(1) * chars.max(1)).div_ceil(8)];
        Staged::Scalar {
            slot: scratch.as_mut_ptr().cast(),
            _scratch: scratch,
        }
    } else {
        // SAFETY: all-zero is an unallocated descriptor, which the getter allocates.
        Staged::Array(Box::new(unsafe { std::mem::zeroed() }))
    };
    let dst = match &mut staged {
        Staged::Scalar { slot, .. } => Dst::Slot(slot as *mut *mut c_void, size),
        Staged::Array(d) => Dst::Desc(&mut **d as *mut GfcDescriptor),
    };
    // SAFETY: forwarded from the caller; `dst` is the staging slot or descriptor above.
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
    let bytes = match &staged {
        Staged::Scalar { .. } => size,
        Staged::Array(d) => bytes_of(d),
    };
    rt.stats.access(true, bytes as u64);
    super::get::got(rt, &target)?;
    Ok((staged, free_buffer != 0))
}

/// Assignment between two coindexed references, `x(...)[i]%c... = y(...)[j]%d...` (Fortran
/// 2018 10.2.1.3; GCC 15+): the source's getter, then the destination's receiver, each
/// relative to its own TEAM=/TEAM_NUMBER=.
///
/// # Safety
/// Arguments as gfortran 15+ passes them (the last six as described in the module doc).
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_transfer_between_remotes(
    dst_token: CafToken,
    opt_dst_desc: *mut GfcDescriptor,
    opt_dst_charlen: *mut usize,
    dst_image_index: c_int,
    dst_access_index: c_int,
    dst_add_data: *mut c_void,
    dst_add_data_size: usize,
    src_token: CafToken,
    opt_src_desc: *mut GfcDescriptor,
    opt_src_charlen: *const usize,
    src_image_index: c_int,
    src_access_index: c_int,
    src_add_data: *mut c_void,
    src_add_data_size: usize,
    src_size: usize,
    scalar_transfer: bool,
    a17: *mut c_void,
    a18: *mut c_void,
    a19: *mut c_void,
    a20: *mut c_void,
    a21: *mut c_void,
    a22: *mut c_void,
) {
    let null = std::ptr::null_mut();
    let (dst_stat, src_stat, dst_team, dst_number, src_team, src_number) =
        if current() >= Generation::Gcc16 {
            (a17, a18, a19, a20, a21, a22)
        } else {
            (a17, a20, a18, a19, null, null)
        };
    let (dst_stat, src_stat) = (dst_stat.cast::<c_int>(), src_stat.cast::<c_int>());
    let rt = runtime::get();
    // SAFETY: forwarded from the caller.
    let got = unsafe {
        fetch(
            rt,
            src_token,
            opt_src_desc,
            opt_src_charlen,
            src_image_index,
            src_access_index,
            src_add_data,
            src_add_data_size,
            src_size,
            opt_dst_charlen,
            scalar_transfer,
            src_team.cast_const().cast(),
            src_number.cast_const().cast(),
        )
    };
    // SAFETY: stat as gfortran passes it.
    let Some((staged, allocated)) =
        (unsafe { finish(got, src_stat, null.cast(), 0, "coindexed copy") })
    else {
        return;
    };
    let (src, src_desc) = match &staged {
        Staged::Scalar { slot, .. } => (slot.cast_const(), std::ptr::null()),
        Staged::Array(d) => (std::ptr::null(), &**d as *const GfcDescriptor),
    };
    // SAFETY: forwarded from the caller; the staged value is live.
    let r = unsafe {
        send(
            rt,
            dst_token,
            dst_image_index,
            dst_team.cast_const().cast(),
            dst_number.cast_const().cast(),
            opt_dst_desc,
            opt_dst_charlen,
            src,
            src_size,
            opt_src_charlen,
            src_desc,
            dst_access_index,
            dst_add_data,
            dst_add_data_size,
        )
    };
    if allocated {
        let p = match &staged {
            Staged::Scalar { slot, .. } => *slot,
            Staged::Array(d) => d.base_addr,
        };
        // SAFETY: the getter allocated it with malloc and said so.
        unsafe { libc::free(p) };
    }
    // SAFETY: stat as gfortran passes it.
    unsafe { finish(r, dst_stat, null.cast(), 0, "coindexed copy") };
}
