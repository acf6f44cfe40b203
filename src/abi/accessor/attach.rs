//! event_attach for puts made by receivers. A receiver writes somewhere in the target's
//! object, and only its code knows where. When one event is attached to the whole object, the
//! put posts it whatever the receiver writes (the statement rule of `Runtime::after_bytes`):
//! the receiver runs once, with no lock taken and nothing allocated, as a put and an EVENT
//! POST. When events are attached to parts of it, the receiver first runs twice against shadow
//! copies of the object whose attached bytes hold 0x00 in one and 0xFF in the other
//! (`shadow.rs`: the filler spares the pointers and descriptors the receiver may follow; a
//! large object's shadow is prepared page by page as the receiver touches it): a byte the
//! receiver writes differs from the filler in at least one of them, whatever value it writes.
//! The events whose bytes were written are posted after the real put, as for every other put
//! (Fortran's notified-access extension, docs/ARCHITECTURE.md). Without attachments this is one
//! load.

use super::shadow::{writes, Plan, Pointers};
use super::target::Target;
use crate::engine::attach::{Attachment, Cover};
use crate::error::CafResult;
use crate::runtime::Runtime;
use std::cell::Cell;
use std::ops::Range;

/// A put's working lists, which a thread keeps between puts so that a put into an object
/// attached in parts allocates nothing (they were four allocations of a scalar put's 0.25 µs).
#[derive(Default)]
struct Lists {
    /// The attachments overlapping the object, by first byte.
    attached: Vec<Attachment>,
    /// The images' segments as this process maps them.
    segments: Vec<usize>,
    /// The attachments' bytes in the object (object offsets), in the same order.
    ranges: Vec<Range<usize>>,
    /// Whether the receiver wrote each.
    written: Vec<bool>,
}

thread_local! {
    /// This thread's lists, taken while in use (a receiver that puts again, if one did, would
    /// get lists of its own). Boxed, so that taking them out moves a pointer.
    static LISTS: Cell<Option<Box<Lists>>> = const { Cell::new(None) };
}

/// Runs `run(base)` (a receiver call) on the target's object and posts the events attached to
/// it: the one attached to the whole object, or those attached to the bytes the call wrote.
pub(super) fn put(rt: &Runtime, target: &Target, run: &dyn Fn(usize)) -> CafResult<()> {
    let Some(t) = target.token.filter(|_| rt.attachments.any()) else {
        run(target.addr);
        return Ok(());
    };
    let (lo, hi) = t.span();
    match rt.attachments.cover(lo, hi, false) {
        Cover::Untouched => {
            run(target.addr);
            return Ok(());
        }
        Cover::Whole(slot) => {
            run(target.addr);
            return rt.events().post(target.image, slot);
        }
        Cover::Part => {}
    }
    let mut lists = LISTS.with(Cell::take).unwrap_or_default();
    rt.attachments.overlapping(lo, hi, &mut lists.attached);
    // The images' segments as this process maps them: where a pointer the receiver may
    // follow leads (none in an object of an intrinsic type).
    lists.segments.clear();
    if !t.plain {
        let mapped = (0..rt.n).filter_map(|j| rt.tp.direct(j, 0));
        lists.segments.extend(mapped);
    }
    let object = Object {
        addr: target.addr,
        offset: t.offset,
        size: t.size,
        reads: !t.plain,
    };
    probe(&object, &mut lists, rt.seg_size, run);
    run(target.addr);
    let posted = post_written(rt, target.image, &lists);
    LISTS.with(|l| l.set(Some(lists)));
    posted
}

/// Posts on `image` the event of each attachment of `lists` the receiver wrote, once however
/// many of its attachments it wrote, stopping at the first error.
fn post_written(rt: &Runtime, image: usize, lists: &Lists) -> CafResult<()> {
    let Lists {
        attached, written, ..
    } = lists;
    for (k, a) in attached.iter().enumerate().filter(|&(k, _)| written[k]) {
        let mut before = attached[..k].iter().zip(written);
        if !before.any(|(b, &w)| w && b.slot == a.slot) {
            rt.events().post(image, a.slot)?;
        }
    }
    Ok(())
}

/// The object a put's receiver writes into, as the probe sees it.
#[derive(Clone, Copy)]
struct Object {
    /// Its address in this process.
    addr: usize,
    /// Its segment offset.
    offset: usize,
    /// Its bytes.
    size: usize,
    /// Whether the receiver may read it ([`Plan::reads`]: not one of an intrinsic type).
    reads: bool,
}

/// Sets `lists.written`: which of `lists.attached` (sorted, disjoint) the receiver `run`
/// writes into, found by running it against shadows of the object whose attached bytes hold
/// 0x00, then 0xFF (`shadow.rs`): a byte the receiver writes differs from the filler in at
/// least one of them, whatever value it writes. The filler spares what the receiver may
/// follow (pointers into `lists.segments`, `seg_size` bytes each), which keeps the object's
/// bytes; a spared byte is seen written only if its value changed.
fn probe(object: &Object, lists: &mut Lists, seg_size: usize, run: &dyn Fn(usize)) {
    let Object {
        addr,
        offset,
        size,
        reads,
    } = *object;
    let range = |a: &Attachment| a.start.max(offset) - offset..a.end.min(offset + size) - offset;
    lists.ranges.clear();
    lists.ranges.extend(lists.attached.iter().map(range));
    // SAFETY: the target's object, `size` bytes mapped in this process (resolve).
    let real = unsafe { std::slice::from_raw_parts(addr as *const u8, size) };
    let pointers = Pointers::new(&lists.segments, seg_size);
    let plan = Plan {
        real,
        ranges: &lists.ranges,
        pointers: &pointers,
        reads,
    };
    writes(&plan, run, &mut lists.written);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(start: usize, end: usize, slot: usize) -> Attachment {
        Attachment::put_only(start, end, slot)
    }

    /// The `size` bytes at `addr`, at segment offset 1000.
    fn obj(addr: usize, size: usize, reads: bool) -> Object {
        Object {
            addr,
            offset: 1000,
            size,
            reads,
        }
    }

    /// Which of `attached` (sorted) `run` writes into, pointers into the segments at
    /// `segments` (`seg_size` bytes each) spared (none: no word is a pointer).
    fn found(
        object: &Object,
        attached: &[Attachment],
        segments: &[usize],
        seg_size: usize,
        run: &dyn Fn(usize),
    ) -> Vec<bool> {
        let mut lists = Lists {
            attached: attached.to_vec(),
            segments: segments.to_vec(),
            ..Lists::default()
        };
        probe(object, &mut lists, seg_size, run);
        lists.written
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
            let found = found(&obj(addr, 64, true), &attached, &[], 0, &run);
            assert_eq!(found, [false, true, false], "value {value}");
        }
        // An object of an intrinsic type: its receiver only stores, so the shadow's unattached
        // bytes are not the object's (a fresh buffer's zeros or an earlier put's).
        let stores = |base: usize| {
            // SAFETY: `base` is a 64-byte shadow of `object`.
            let b = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, 64) };
            b[40] = 9;
            b[20] = 7;
        };
        assert_eq!(
            found(&obj(addr, 64, false), &attached, &[], 0, &stores),
            [false, true, false]
        );
        let nothing = |_: usize| {};
        assert_eq!(
            found(&obj(addr, 64, true), &attached, &[], 0, &nothing),
            [false; 3]
        );
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
        let pointers = ([a.min(b)], a.max(b) - a.min(b) + 8);
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
                found(
                    &obj(addr, 192, true),
                    &attached,
                    &pointers.0,
                    pointers.1,
                    &run(e, false)
                ),
                [false; 2]
            );
            let mut hit = [false; 2];
            hit[e] = true;
            assert_eq!(
                found(
                    &obj(addr, 192, true),
                    &attached,
                    &pointers.0,
                    pointers.1,
                    &run(e, true)
                ),
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
