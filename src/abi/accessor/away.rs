//! Accessors whose object this process does not map at its owner's address (an image on
//! another node, every other image with FERROCAF_MPI_SHM=0 or over libfabric): the accessor
//! runs on the owner.
//! The caller sends the accessor's index, its add_data (and that add_data's address here, for
//! the nested reads an accessor makes of it, which come back to this image), the descriptors
//! and character lengths the accessor takes and, for a put, the source's bytes (packed); the
//! owner runs the accessor against its own memory (`serve.rs`) and replies with the result's
//! bytes and shape. Here the reply is made to look as if the getter had run in this process:
//! the destination is written, allocated or reallocated as gfortran expects.

use super::get::Dst;
use super::send::packed;
use super::serve::FAILED_REPLY;
use super::target::{Origin, Target};
use super::wire::{desc_bytes, desc_from, set_desc, Kind, Reader, Request};
use crate::abi::descriptor::GfcDescriptor;
use crate::engine::status::check_failed;
use crate::error::{CafError, CafResult};
use crate::runtime::Runtime;
use crate::transport::owner::MAX_MESSAGE;
use std::ffi::{c_int, c_void};

/// The object as the owner names it: a segment offset and size, or an address in its process.
fn base(target: &Target) -> (usize, Option<usize>) {
    match target.token {
        Some(t) => (t.offset, Some(t.size)),
        None => (target.addr, None),
    }
}

/// The `n` bytes at `p` (empty when `n` is 0).
///
/// # Safety
/// `p` is readable for `n` bytes when `n` > 0.
unsafe fn bytes<'a>(p: *const c_void, n: usize) -> &'a [u8] {
    if n == 0 || p.is_null() {
        return &[];
    }
    // SAFETY: guaranteed by the caller.
    unsafe { std::slice::from_raw_parts(p.cast(), n) }
}

/// A readable length, if given.
///
/// # Safety
/// `p` is null or readable.
unsafe fn length(p: *const usize) -> Option<usize> {
    // SAFETY: guaranteed by the caller.
    (!p.is_null()).then(|| unsafe { p.read() })
}

/// Sends `request` to image `image` and returns the body of its reply: STAT_FAILED_IMAGE when
/// the image fails before it answers, the owner's error when the accessor failed there.
fn call(rt: &Runtime, image: usize, request: &Request) -> CafResult<Vec<u8>> {
    let msg = request.encode();
    if msg.len() > MAX_MESSAGE {
        return Err(CafError::InvalidArgument(format!(
            "a coindexed access to image {} through a GCC 15+ accessor would send {} bytes to \
             the image that runs it; at most {MAX_MESSAGE} fit in one message",
            image + 1,
            msg.len()
        )));
    }
    // `target.rs` sends an access away only over a transport with owner-side calls.
    let calls = rt.tp.owner_calls().ok_or_else(|| {
        CafError::InvalidArgument(format!(
            "image {} is not mapped here and this transport cannot run a GCC 15+ accessor on \
             its owner",
            image + 1
        ))
    })?;
    let mut gone = || check_failed(rt.tp, image).is_err();
    let reply = calls
        .call(image, &msg, &mut gone)
        .ok_or(CafError::FailedImage { image: image + 1 })?;
    let mut r = Reader::new(&reply);
    match r.word() {
        0 => Ok(r.rest().to_vec()),
        FAILED_REPLY => Err(CafError::FailedImage { image: image + 1 }),
        _ => Err(CafError::InvalidArgument(
            String::from_utf8_lossy(r.blob()).into_owned(),
        )),
    }
}

/// Whether `a` and `b` have the same rank and extents.
fn same_shape(a: &GfcDescriptor, b: &GfcDescriptor) -> bool {
    a.rank() == b.rank()
        && (0..a.rank()).all(|k| {
            let (x, y) = (a.dim_at(k), b.dim_at(k));
            x.ubound - x.lbound == y.ubound - y.lbound
        })
}

/// Runs getter `index` on the owner of `target` and leaves its result in `dst` as the getter
/// would have; the getter's `free_buffer` flag (1 when the result is in memory allocated here).
///
/// # Safety
/// As for [`super::get::run_getter`].
#[allow(clippy::too_many_arguments)] // one per getter argument
pub(super) unsafe fn get(
    rt: &Runtime,
    index: c_int,
    target: &Target,
    src_desc: *const GfcDescriptor,
    dst: Dst,
    origin: &Origin,
    dst_charlen: *mut usize,
    src_charlen: *const usize,
) -> CafResult<i32> {
    let (base, size) = base(target);
    // SAFETY: the caller's descriptors, lengths and add_data (caller's guarantee).
    let request = unsafe {
        Request {
            kind: Kind::Get,
            index,
            caller: origin.image,
            base,
            size,
            src_charlen: length(src_charlen),
            dst_charlen: length(dst_charlen),
            elem: match dst {
                Dst::Slot(_, elem) => elem,
                Dst::Desc(_) => 0,
            },
            add_data_addr: origin.add_data as usize,
            add_data: bytes(origin.add_data, origin.token.size),
            base_desc: desc_bytes(src_desc),
            other_desc: match dst {
                Dst::Desc(d) => desc_bytes(d),
                Dst::Slot(..) => &[],
            },
            data: &[],
        }
    };
    let reply = call(rt, target.image, &request)?;
    let mut r = Reader::new(&reply);
    let (allocated, charlen, desc, data) = (r.word(), r.word(), r.blob(), r.blob());
    if !dst_charlen.is_null() {
        // SAFETY: a writable length (the getter's convention).
        unsafe { *dst_charlen = charlen as usize };
    }
    // SAFETY: `dst` is a valid descriptor or result pointer (caller's guarantee); memory
    // allocated here is malloc'd, as the getter's would be.
    unsafe {
        match dst {
            Dst::Slot(p, _) => {
                if allocated == 0 && !(*p).is_null() {
                    std::ptr::copy_nonoverlapping(data.as_ptr(), (*p).cast(), data.len());
                    return Ok(0);
                }
                let m = libc::malloc(data.len().max(1));
                std::ptr::copy_nonoverlapping(data.as_ptr(), m.cast(), data.len());
                *p = m;
                Ok(1)
            }
            Dst::Desc(d) => {
                let got = desc_from(desc);
                let old = (*d).base_addr;
                if !old.is_null() && same_shape(&*d, &got) {
                    std::ptr::copy_nonoverlapping(data.as_ptr(), old.cast(), data.len());
                    return Ok(0);
                }
                let m = if old.is_null() {
                    libc::malloc(data.len().max(1))
                } else {
                    libc::realloc(old, data.len().max(1))
                };
                std::ptr::copy_nonoverlapping(data.as_ptr(), m.cast(), data.len());
                set_desc(&mut *d, &got);
                (*d).base_addr = m;
                Ok(i32::from(m != old))
            }
        }
    }
}

/// Runs receiver `index` on the owner of `target` with the source at `src` (`src_size` bytes
/// per character) or described by `src_desc` (sent packed).
///
/// # Safety
/// As for [`super::send::send_into`].
#[allow(clippy::too_many_arguments)] // one per receiver argument
pub(super) unsafe fn send(
    rt: &Runtime,
    index: c_int,
    target: &Target,
    dst_desc: *const GfcDescriptor,
    dst_charlen: *const usize,
    src: *const c_void,
    src_size: usize,
    src_charlen: *const usize,
    src_desc: *const GfcDescriptor,
    origin: &Origin,
) -> CafResult<()> {
    let (base, size) = base(target);
    // SAFETY: a valid descriptor when not null (caller's guarantee).
    let staged = (!src_desc.is_null()).then(|| packed(unsafe { &*src_desc }));
    // SAFETY: the caller's descriptors, lengths, source and add_data (caller's guarantee).
    let request = unsafe {
        let src_charlen = length(src_charlen);
        Request {
            kind: Kind::Send,
            index,
            caller: origin.image,
            base,
            size,
            src_charlen,
            dst_charlen: length(dst_charlen),
            elem: src_size,
            add_data_addr: origin.add_data as usize,
            add_data: bytes(origin.add_data, origin.token.size),
            base_desc: desc_bytes(dst_desc),
            other_desc: staged.as_ref().map_or(&[], |(_, d)| desc_bytes(&**d)),
            data: match &staged {
                Some((b, _)) => b,
                None => bytes(src, src_size * src_charlen.unwrap_or(1)),
            },
        }
    };
    call(rt, target.image, &request).map(drop)
}

/// Runs presence accessor `index` on the owner of `target` (`desc`: the bytes of the
/// allocatable coarray's descriptor, or empty).
///
/// # Safety
/// The origin's add_data is readable.
pub(super) unsafe fn present(
    rt: &Runtime,
    index: c_int,
    target: &Target,
    desc: &[u8],
    origin: &Origin,
) -> CafResult<i32> {
    let (base, size) = base(target);
    let request = Request {
        kind: Kind::Present,
        index,
        caller: origin.image,
        base,
        size,
        src_charlen: None,
        dst_charlen: None,
        elem: 0,
        add_data_addr: origin.add_data as usize,
        // SAFETY: readable (caller's guarantee).
        add_data: unsafe { bytes(origin.add_data, origin.token.size) },
        base_desc: desc,
        other_desc: &[],
        data: &[],
    };
    let reply = call(rt, target.image, &request)?;
    Ok(Reader::new(&reply).word() as u32 as i32)
}
