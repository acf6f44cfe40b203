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
    let segments = match t.plain {
        true => Vec::new(),
        false => (0..rt.n).filter_map(|j| rt.tp.direct(j, 0)).collect(),
    };
    let pointers = Pointers::new(segments, rt.seg_size);
    let object = Object {
        addr: target.addr,
        offset: t.offset,
        size: t.size,
        reads: !t.plain,
    };
    let written = probe(&object, &attached, &pointers, run);
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

/// Which of `attached` the receiver `run` writes into, found by running it against shadows of
/// the object whose attached bytes hold 0x00, then 0xFF (`shadow.rs`): a byte the receiver
/// writes differs from the filler in at least one of them, whatever value it writes. The
/// filler spares what the receiver may follow, which keeps the object's bytes; a spared byte
/// is seen written only if its value changed.
fn probe(
    object: &Object,
    attached: &[Attachment],
    pointers: &Pointers,
    run: &dyn Fn(usize),
) -> Vec<bool> {
    let Object {
        addr,
        offset,
        size,
        reads,
    } = *object;
    let range = |a: &Attachment| a.start.max(offset) - offset..a.end.min(offset + size) - offset;
    let mut ranges: Vec<_> = attached.iter().map(range).collect();
    ranges.sort_by_key(|r| r.start);
    // SAFETY: the target's object, `size` bytes mapped in this process (resolve).
    let real = unsafe { std::slice::from_raw_parts(addr as *const u8, size) };
    let plan = Plan {
        real,
        ranges: &ranges,
        pointers,
        reads,
    };
    let written = writes(&plan, run);
    attached
        .iter()
        .map(|a| written[ranges.partition_point(|r| r.start < range(a).start)])
        .collect()
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

    /// No word is a pointer.
    fn none() -> Pointers {
        Pointers::new(Vec::new(), 0)
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
            let found = probe(&obj(addr, 64, true), &attached, &none(), &run);
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
            probe(&obj(addr, 64, false), &attached, &none(), &stores),
            [false, true, false]
        );
        let nothing = |_: usize| {};
        assert_eq!(
            probe(&obj(addr, 64, true), &attached, &none(), &nothing),
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
        let pointers = Pointers::new(vec![a.min(b)], a.max(b) - a.min(b) + 8);
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
                probe(&obj(addr, 192, true), &attached, &pointers, &run(e, false)),
                [false; 2]
            );
            let mut hit = [false; 2];
            hit[e] = true;
            assert_eq!(
                probe(&obj(addr, 192, true), &attached, &pointers, &run(e, true)),
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
