//! event_attach for puts made by receivers. A receiver writes somewhere in the target's
//! object, and only its code knows where. When one event is attached to the whole object, the
//! put posts it whatever the receiver writes (the statement rule of `Runtime::after_bytes`):
//! the receiver runs once, with no lock taken and nothing allocated, as a put and an EVENT
//! POST. When events are attached to parts of it, the receiver first runs twice against shadow
//! copies of the object whose attached bytes hold 0x00 in one and 0xFF in the other: a byte
//! the receiver writes differs from the filler in at least one of them, whatever value it
//! writes. The filler spares the pointers into coarray memory and the descriptors the receiver
//! may follow to an allocatable component (a destroyed one ended the program with "not
//! allocated"). The events whose bytes were written are posted after the real put, as for every
//! other put (Fortran's notified-access extension, docs/ARCHITECTURE.md). The shadows are
//! reused buffers of this thread (a fresh megabyte per put cost a map, its page faults and an
//! unmap), only the unattached bytes are copied into them, and the second run is skipped when
//! the first already saw every attachment written. Without attachments this is one load.

use super::guard::within;
use super::target::Target;
use crate::abi::descriptor::{DIM, HEADER};
use crate::engine::attach::{Attachment, Cover};
use crate::error::CafResult;
use crate::runtime::Runtime;
use std::cell::Cell;
use std::ops::Range;

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
    // The images' segments as this process maps them: where a pointer the receiver may
    // follow leads (none in an object of an intrinsic type).
    let segments: Vec<usize> = match t.plain {
        true => Vec::new(),
        false => (0..rt.n).filter_map(|j| rt.tp.direct(j, 0)).collect(),
    };
    let first = segments.iter().min().copied().unwrap_or(usize::MAX);
    let pointers = Pointers {
        first,
        span: segments
            .iter()
            .max()
            .map_or(0, |last| last - first + rt.seg_size),
        exact: |v: usize| segments.iter().any(|&lo| within(rt, lo, v, 1)),
    };
    let written = probe(target.addr, t.offset, t.size, &attached, &pointers, run);
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

/// Where a pointer the receiver may follow leads: the `span` addresses from `first` hold every
/// such address (a cheap first test); `exact` says whether one of them is.
struct Pointers<F: Fn(usize) -> bool> {
    /// The lowest such address.
    first: usize,
    /// How many addresses from `first` on may be such.
    span: usize,
    /// The exact test, for an address in the span.
    exact: F,
}

impl<F: Fn(usize) -> bool> Pointers<F> {
    /// Whether the word `v` is such a pointer.
    #[inline]
    fn accept(&self, v: usize) -> bool {
        v.wrapping_sub(self.first) < self.span && (self.exact)(v)
    }

    /// Whether a word of `block` (8-byte words) may be one: the upper halves of the words
    /// against those of the span's ends, with no early exit, so that it runs as vector
    /// instructions (x86-64's baseline has no 64-bit vector comparison).
    #[inline]
    fn maybe(&self, block: &[u8; 64]) -> bool {
        if self.span == 0 {
            return false;
        }
        let low = (self.first >> 32) as u32;
        let reach = ((self.first + (self.span - 1)) >> 32) as u32 - low;
        block.chunks_exact(8).fold(false, |any, w| {
            let upper = (usize::from_ne_bytes(w.try_into().expect("8 bytes")) >> 32) as u32;
            any | (upper.wrapping_sub(low) <= reach)
        })
    }
}

/// Which of `attached` the receiver `run` writes into, found by running it against shadows of
/// the `size` bytes at `addr` (segment offset `offset`) whose attached bytes hold 0x00, then
/// 0xFF: a byte the receiver writes differs from the filler in at least one of them, whatever
/// value it writes. The filler spares what the receiver may follow ([`followed`]), which keeps
/// the object's bytes; a spared byte is seen written only if its value changed.
fn probe<F: Fn(usize) -> bool>(
    addr: usize,
    offset: usize,
    size: usize,
    attached: &[Attachment],
    pointers: &Pointers<F>,
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
    let spared: Vec<_> = ranges
        .iter()
        .map(|r| followed(real, r.clone(), pointers))
        .collect();
    for fill in [0x00u8, 0xff] {
        // Each run sees the object as it is, whatever the run before wrote.
        let mut at = 0;
        for r in &ranges {
            bytes[at..r.start.max(at)].copy_from_slice(&real[at..r.start.max(at)]);
            at = at.max(r.end);
        }
        bytes[at..].copy_from_slice(&real[at..]);
        for (r, spared) in ranges.iter().zip(&spared) {
            for (part, kept) in pieces(r.clone(), spared) {
                match kept {
                    true => bytes[part.clone()].copy_from_slice(&real[part]),
                    false => bytes[part].fill(fill),
                }
            }
        }
        run(bytes.as_mut_ptr() as usize);
        for (w, a) in written.iter_mut().zip(attached) {
            let r = range(a);
            let i = ranges.partition_point(|s| s.start < r.start);
            *w = *w
                || pieces(r, &spared[i]).any(|(part, kept)| match kept {
                    true => bytes[part.clone()] != real[part],
                    false => differs(&bytes[part], fill),
                });
        }
        if written.iter().all(|&w| w) {
            break;
        }
    }
    SHADOW.with(|s| s.set(shadow));
    written
}

/// `r` cut at the ranges of `spared` (sorted, inside `r`): each piece, and whether it is
/// spared.
fn pieces(
    r: Range<usize>,
    spared: &[Range<usize>],
) -> impl Iterator<Item = (Range<usize>, bool)> + '_ {
    let mut from = r.start;
    (spared.iter().cloned())
        .chain(std::iter::once(r.end..r.end))
        .flat_map(move |s| {
            let gap = from..s.start;
            from = s.end;
            [(gap, false), (s, true)]
        })
        .filter(|(p, _)| !p.is_empty())
}

/// The parts of `object[r]` a receiver may follow, which the probe's filler spares: each
/// aligned word that `pointers` accepts, and when a plausible descriptor type follows it (the
/// word is then the base address of a GfcDescriptor, its type 16 bytes on), the whole
/// descriptor (`HEADER` bytes and `DIM` per dimension). Words are looked at 8 at a time.
fn followed<F: Fn(usize) -> bool>(
    object: &[u8],
    r: Range<usize>,
    pointers: &Pointers<F>,
) -> Vec<Range<usize>> {
    let mut spared = Vec::new();
    if pointers.span == 0 {
        return spared;
    }
    let mut at = (r.start + (8 - (object.as_ptr() as usize + r.start) % 8) % 8).min(r.end);
    while at + 8 <= r.end {
        let block = object.get(at..at + 64).filter(|_| at + 64 <= r.end);
        if block.is_some_and(|b| !pointers.maybe(b.try_into().expect("64 bytes"))) {
            at += 64;
            continue;
        }
        let v = usize::from_ne_bytes(object[at..at + 8].try_into().expect("8 bytes"));
        if v == 0 || !pointers.accept(v) {
            at += 8;
            continue;
        }
        let end = (at + descriptor_len(object, at).unwrap_or(8)).min(r.end);
        spared.push(at..end);
        at = end;
    }
    spared
}

/// The length of the descriptor whose base address is the word at `at` of `object`, if the
/// bytes after it hold a plausible descriptor type (version 0, rank at most 15, a known type,
/// an element length).
fn descriptor_len(object: &[u8], at: usize) -> Option<usize> {
    let t = object.get(at + 16..at + 32)?;
    let elem_len = usize::from_ne_bytes(t[0..8].try_into().ok()?);
    let version = i32::from_ne_bytes(t[8..12].try_into().ok()?);
    let (rank, kind) = (t[12], t[13]);
    let plausible = version == 0 && rank <= 15 && (1..=13).contains(&kind) && elem_len > 0;
    plausible.then_some(HEADER + rank as usize * DIM)
}

/// Whether some byte of `b` is not `fill`, 64 bytes per test (a put into element j of an
/// attached array was found after j × 8 bytes compared one by one: most of a scalar put's cost
/// into a large array).
fn differs(b: &[u8], fill: u8) -> bool {
    let pattern = u128::from_ne_bytes([fill; 16]);
    let word = |c: &[u8], k: usize| u128::from_ne_bytes(c[k..k + 16].try_into().expect("16"));
    let mut chunks = b.chunks_exact(64);
    chunks.by_ref().any(|c| {
        [0, 16, 32, 48]
            .iter()
            .fold(0, |acc, &k| acc | (word(c, k) ^ pattern))
            != 0
    }) || chunks.remainder().iter().any(|&x| x != fill)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start: usize, end: usize, slot: usize) -> Attachment {
        Attachment::put_only(start, end, slot)
    }

    /// No word is a pointer.
    const NONE: Pointers<fn(usize) -> bool> = Pointers {
        first: 0,
        span: 0,
        exact: |_| false,
    };

    #[test]
    fn differs_finds_any_byte() {
        for len in [0usize, 1, 15, 16, 17, 40, 63, 64, 65, 130] {
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
        // 7: the value the byte holds already.
        for value in [0x00u8, 0xff, 0x42, 7] {
            // Reads byte 40 (unattached), which every run must see as the object holds it,
            // then writes it, and writes `value` to byte 20.
            let run = |base: usize| {
                // SAFETY: `base` is a 64-byte shadow of `object`.
                let b = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, 64) };
                assert_eq!(b[40], 7, "unattached bytes are copied into the shadow");
                b[40] = 9;
                b[20] = value;
            };
            let found = probe(addr, 1000, 64, &attached, &NONE, &run);
            assert_eq!(found, [false, true, false], "value {value}");
        }
        let none = |_: usize| {};
        assert_eq!(probe(addr, 1000, 64, &attached, &NONE, &none), [false; 3]);
        assert_eq!(object, [7u8; 64], "the probe never writes the object");
    }

    /// An element of a derived type in 8-byte words: a real `s`, an allocatable array
    /// component `a(1:10)` (its descriptor), an allocatable scalar `b`, an integer `k`.
    fn element(data: &mut [f64; 10], scalar: &mut f64) -> [usize; 12] {
        [
            7,                          // s
            data.as_mut_ptr() as usize, // a: base address
            usize::MAX,                 // offset (-1)
            8,                          // elem_len
            1 << 32 | 3 << 40,          // version 0, rank 1, type 3 (REAL)
            8,                          // span
            1,                          // stride
            1,                          // lbound
            10,                         // ubound
            scalar as *mut f64 as usize,
            5, // k
            0,
        ]
    }

    #[test]
    fn the_probe_keeps_what_the_receiver_follows() {
        let (mut data, mut scalar) = ([0f64; 10], 0f64);
        // Two elements, each attached on its own (segment offset 1000, 96 bytes each).
        let mut object = [
            element(&mut data, &mut scalar),
            element(&mut data, &mut scalar),
        ];
        let real = object;
        let addr = object.as_mut_ptr() as usize;
        let attached = [at(1000, 1096, 1), at(1096, 1192, 2)];
        let (a, b) = (data.as_ptr() as usize, &scalar as *const f64 as usize);
        let pointers = Pointers {
            first: a.min(b),
            span: a.max(b) - a.min(b) + 1,
            exact: |v: usize| v == a || v == b,
        };
        // The receiver follows element `e`'s descriptor to a(3) and its pointer to b, or
        // writes its k with the value it holds.
        let run = |e: usize, k: bool| {
            move |base: usize| {
                // SAFETY: `base` is a shadow of `object`: two elements of 12 words.
                let w = unsafe { std::slice::from_raw_parts_mut(base as *mut usize, 24) };
                let w = &mut w[12 * e..12 * e + 12];
                assert_eq!(w[1..9], real[e][1..9], "the descriptor is kept");
                assert_eq!(w[9], real[e][9], "the pointer is kept");
                if k {
                    w[10] = 5;
                    return;
                }
                let at = w[1] as isize + ((3 * w[6]) as isize + w[2] as isize) * w[5] as isize;
                // SAFETY: element 3 of `data`, as the descriptor says; the pointer to `scalar`.
                unsafe {
                    *(at as *mut f64) = 2.5;
                    *(w[9] as *mut f64) = 1.5;
                }
            }
        };
        for e in [0, 1] {
            // Written outside the element's bytes: no event.
            assert_eq!(
                probe(addr, 1000, 192, &attached, &pointers, &run(e, false)),
                [false; 2]
            );
            let mut hit = [false; 2];
            hit[e] = true;
            assert_eq!(
                probe(addr, 1000, 192, &attached, &pointers, &run(e, true)),
                hit
            );
        }
        assert_eq!(
            (data[2], scalar),
            (2.5, 1.5),
            "the receiver followed the pointers"
        );
        assert_eq!(object, real, "the probe never writes the object");
    }
}
