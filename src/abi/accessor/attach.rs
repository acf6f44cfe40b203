//! event_attach for puts made by receivers. A receiver writes somewhere in the target's
//! object, and only its code knows where. When one event is attached to the whole object, the
//! put posts it whatever the receiver writes (the statement rule of `Runtime::after_bytes`):
//! the receiver runs once, with no lock taken and nothing allocated, as a put and an EVENT
//! POST. When events are attached to parts of it, the receiver first runs twice against shadow
//! copies of the object whose attached bytes hold 0x00 in one and 0xFF in the other: a byte
//! the receiver writes differs from the filler in at least one of them, whatever value it
//! writes. The events whose bytes were written are posted after the real put, as for every
//! other put (Fortran's notified-access extension, docs/ARCHITECTURE.md). The shadows are
//! reused buffers of this thread (a fresh megabyte per put cost a map, its page faults and an
//! unmap), only the unattached bytes are copied into them, and the second run is skipped when
//! the first already saw every attachment written. Without attachments this is one load.

use super::target::Target;
use crate::engine::attach::{Attachment, Cover};
use crate::error::CafResult;
use crate::runtime::Runtime;
use std::cell::Cell;

thread_local! {
    /// This thread's shadow buffer, taken while in use (a receiver that puts again gets a
    /// buffer of its own).
    static SHADOW: Cell<Vec<u128>> = const { Cell::new(Vec::new()) };
}

/// Runs `run(base)` (a receiver call) on the target's object and posts the events attached to
/// it: the one attached to the whole object, or those attached to the bytes the call wrote.
pub(super) fn put(rt: &Runtime, target: &Target, run: &dyn Fn(usize)) -> CafResult<()> {
    let Some(t) = target.token.filter(|_| rt.attachments.any()) else {
        run(target.addr);
        return Ok(());
    };
    let (lo, hi) = t.span();
    let attached = match rt.attachments.cover(lo, hi, false) {
        Cover::Untouched => Vec::new(),
        Cover::Whole(slot) => {
            run(target.addr);
            return rt.events().post(target.image, slot);
        }
        Cover::Part => rt.attachments.overlapping(lo, hi),
    };
    if attached.is_empty() {
        run(target.addr);
        return Ok(());
    }
    let written = probe(target.addr, t.offset, t.size, &attached, run);
    run(target.addr);
    let mut posted: Vec<usize> = Vec::new();
    for (a, _) in attached.iter().zip(&written).filter(|(_, &w)| w) {
        if !posted.contains(&a.slot) {
            posted.push(a.slot);
            rt.events().post(target.image, a.slot)?;
        }
    }
    Ok(())
}

/// Which of `attached` the receiver `run` writes into, found by running it against shadows of
/// the `size` bytes at `addr` (segment offset `offset`) filled with 0x00, then 0xFF, in the
/// attached bytes.
fn probe(
    addr: usize,
    offset: usize,
    size: usize,
    attached: &[Attachment],
    run: &dyn Fn(usize),
) -> Vec<bool> {
    let range = |a: &Attachment| a.start.max(offset) - offset..a.end.min(offset + size) - offset;
    let mut ranges: Vec<_> = attached.iter().map(range).collect();
    ranges.sort_by_key(|r| r.start);
    let mut written = vec![false; attached.len()];
    // Aligned like the object (16 bytes): the receiver's stores assume it.
    let mut shadow = SHADOW.with(Cell::take);
    if shadow.len() < size.div_ceil(16) {
        shadow = vec![0u128; size.div_ceil(16)];
    }
    // SAFETY: `shadow` has at least `size` bytes.
    let bytes = unsafe { std::slice::from_raw_parts_mut(shadow.as_mut_ptr().cast::<u8>(), size) };
    // SAFETY: the target's object, `size` bytes mapped in this process (resolve).
    let real = unsafe { std::slice::from_raw_parts(addr as *const u8, size) };
    for fill in [0x00u8, 0xff] {
        // Each run sees the object as it is, whatever the run before wrote.
        let mut at = 0;
        for r in &ranges {
            bytes[at..r.start.max(at)].copy_from_slice(&real[at..r.start.max(at)]);
            at = at.max(r.end);
        }
        bytes[at..].copy_from_slice(&real[at..]);
        for r in &ranges {
            bytes[r.clone()].fill(fill);
        }
        run(bytes.as_mut_ptr() as usize);
        for (w, a) in written.iter_mut().zip(attached) {
            *w = *w || differs(&bytes[range(a)], fill);
        }
        if written.iter().all(|&w| w) {
            break;
        }
    }
    SHADOW.with(|s| s.set(shadow));
    written
}

/// Whether some byte of `b` is not `fill`, 16 bytes per comparison (a put into element j of an
/// attached array was found after j × 8 bytes compared one by one: most of a scalar put's
/// cost into a large array).
fn differs(b: &[u8], fill: u8) -> bool {
    let pattern = u128::from_ne_bytes([fill; 16]);
    let mut chunks = b.chunks_exact(16);
    chunks
        .by_ref()
        .any(|c| <[u8; 16]>::try_from(c).is_ok_and(|c| u128::from_ne_bytes(c) != pattern))
        || chunks.remainder().iter().any(|&x| x != fill)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start: usize, end: usize, slot: usize) -> Attachment {
        Attachment::put_only(start, end, slot)
    }

    #[test]
    fn differs_finds_any_byte() {
        for len in [0usize, 1, 15, 16, 17, 40] {
            for fill in [0x00u8, 0xff] {
                let mut b = vec![fill; len];
                assert!(!differs(&b, fill));
                for i in 0..len {
                    b[i] = 0x42;
                    assert!(differs(&b, fill), "byte {i} of {len}");
                    b[i] = fill;
                }
            }
        }
    }

    #[test]
    fn the_probe_sees_every_written_attachment_whatever_the_value() {
        let mut object = [7u8; 64];
        let addr = object.as_mut_ptr() as usize;
        // Segment offset 1000; attached: bytes 0..16, 16..32 and 48..64 of the object.
        let attached = [at(1000, 1016, 1), at(1016, 1032, 2), at(1048, 1064, 3)];
        for value in [0x00u8, 0xff, 0x42] {
            // Reads byte 40 (unattached), which every run must see as the object holds it,
            // then writes it, and writes `value` to byte 20.
            let run = |base: usize| {
                // SAFETY: `base` is a 64-byte shadow of `object`.
                let b = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, 64) };
                assert_eq!(b[40], 7, "unattached bytes are copied into the shadow");
                b[40] = 9;
                b[20] = value;
            };
            assert_eq!(probe(addr, 1000, 64, &attached, &run), [false, true, false]);
        }
        let none = |_: usize| {};
        assert_eq!(probe(addr, 1000, 64, &attached, &none), [false; 3]);
        assert_eq!(object, [7u8; 64], "the probe never writes the object");
    }
}
