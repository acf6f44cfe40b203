//! Unit tests of the reference-chain walk against a fake target image.

use super::*;

/// Memory of a fake image: a pointer at 1000 to data at 5000, and a descriptor at 2000.
struct Fake;

impl Chase for Fake {
    fn load_ptr(&self, addr: usize) -> CafResult<usize> {
        Ok(if addr == 1000 { 5000 } else { 0 })
    }
    fn array(&self, addr: usize) -> CafResult<(usize, Vec<ArrayDim>)> {
        let dim = |lbound, ubound, stride| ArrayDim {
            lbound,
            ubound,
            stride,
        };
        Ok(match addr {
            2000 => (8000, vec![dim(0, 9, 4), dim(1, 3, 40)]),
            _ => (0, Vec::new()),
        })
    }
}

fn comp(offset: isize, allocatable: bool) -> Ref {
    Ref::Component {
        offset,
        allocatable,
    }
}

#[test]
fn element_then_allocatable_section() {
    // c(2)%b(1:7:3, 2) with c's elements 100 bytes apart, b's descriptor at byte 0 of c(2).
    let refs = [
        Ref::StaticArray(vec![Sub::Single(1)], 100),
        comp(0, true),
        Ref::Array(vec![Sub::Range(1, 7, 3), Sub::Single(2)]),
    ];
    let t = walk(1900, None, &refs, &Fake).unwrap().unwrap();
    assert_eq!(t.addr, 8000);
    assert_eq!(t.lists, vec![vec![4, 16, 28], vec![40]]);
    assert_eq!(t.shape, vec![3]);
}

#[test]
fn scalar_pointer_and_unallocated() {
    let t = walk(900, None, &[comp(100, true)], &Fake).unwrap().unwrap();
    assert_eq!((t.addr, t.lists.len()), (5000, 0));
    assert_eq!(walk(0, None, &[comp(7, true)], &Fake), Ok(None));
    let refs = [comp(0, true), Ref::Array(vec![Sub::Full(1)])];
    assert_eq!(walk(3000, None, &refs, &Fake), Ok(None));
}

#[test]
fn bounds_and_shape_errors() {
    let refs = [
        comp(0, true),
        Ref::Array(vec![Sub::Vector(vec![3, 10]), Sub::Full(1)]),
    ];
    let e = walk(2000, None, &refs, &Fake).unwrap_err();
    assert!(
        e.to_string()
            .contains("subscript 10 is out of bounds (0:9)"),
        "{e}"
    );
    let refs = [comp(0, true), Ref::Array(vec![Sub::Full(1)])];
    assert!(walk(2000, None, &refs, &Fake).is_err());
    let refs = [Ref::Array(vec![Sub::Single(2)]), comp(0, true)];
    assert!(walk(2000, None, &refs, &Fake).is_err());
    let refs = [
        Ref::StaticArray(vec![Sub::Range(0, 4, 2)], 8),
        comp(0, true),
    ];
    assert!(walk(1000, None, &refs, &Fake).is_err());
}

#[test]
fn open_ranges_and_constant_offsets_after_the_section() {
    let refs = [
        comp(0, true),
        Ref::Array(vec![Sub::OpenEnd(8, 1), Sub::OpenStart(2, 1)]),
        comp(0, false),
    ];
    let t = walk(2000, None, &refs, &Fake).unwrap().unwrap();
    assert_eq!(t.lists, vec![vec![32, 36], vec![0, 40]]);
    assert_eq!(t.shape, vec![2, 2]);
}

#[test]
fn leading_array_reference_uses_the_coarray_descriptor() {
    // d(2)[j]%v(1:3) with d(0:4) of 96-byte elements at 1000, v's descriptor at byte 0 of d(2)
    // (1000 + 2 * 96 = 1192 is not 2000, so chase from 1808: 1808 + 2 * 96 = 2000).
    let own = [ArrayDim {
        lbound: 0,
        ubound: 4,
        stride: 96,
    }];
    let refs = [
        Ref::Array(vec![Sub::Single(2)]),
        comp(0, true),
        Ref::Array(vec![Sub::Range(1, 3, 1), Sub::Single(2)]),
    ];
    let t = walk(1808, Some(&own), &refs, &Fake).unwrap().unwrap();
    assert_eq!((t.addr, t.shape.clone()), (8000, vec![3]));
    assert_eq!(t.lists, vec![vec![4, 8, 12], vec![40]]);
    let bad = [Ref::Array(vec![Sub::Single(5)])];
    assert!(walk(1808, Some(&own), &bad, &Fake).is_err());
    assert!(walk(1808, None, &refs, &Fake).is_err());
}

#[test]
fn omitted_bounds_come_from_the_descriptor_on_the_side_of_the_stride() {
    // c(::4, ::-1), c(7::-3, :2:-1) and the empty c(9:0, :) of c(0:9, 1:3).
    let sel = |subs| {
        let refs = [comp(0, true), Ref::Array(subs)];
        walk(2000, None, &refs, &Fake).unwrap().unwrap()
    };
    let t = sel(vec![Sub::Full(4), Sub::Full(-1)]);
    assert_eq!(t.lists, vec![vec![0, 16, 32], vec![80, 40, 0]]);
    let t = sel(vec![Sub::OpenEnd(7, -3), Sub::OpenStart(2, -1)]);
    assert_eq!(t.lists, vec![vec![28, 16, 4], vec![80, 40]]);
    assert_eq!(t.shape, vec![3, 2]);
    let t = sel(vec![Sub::Range(9, 0, 1), Sub::Full(1)]);
    assert_eq!(t.shape, vec![0, 3]);
}
