//! Unit tests of the copy planner: normalisation, strided runs and gather/scatter layouts.

use super::plan::*;

fn d(extent: usize, stride: isize) -> Dim {
    Dim { extent, stride }
}

#[test]
fn contiguous_rank3_normalises_to_one_dim() {
    assert_eq!(*normalise(&[d(4, 8), d(3, 32), d(2, 96)]), [d(24, 8)]);
}

#[test]
fn unit_extents_vanish_and_zero_wins() {
    assert_eq!(*normalise(&[d(1, 8), d(5, 80)]), [d(5, 80)]);
    assert_eq!(*normalise(&[d(3, 8), d(0, 24)]), [d(0, 0)]);
}

#[test]
fn strided_to_contiguous_matches_reference() {
    let src: Vec<i32> = (0..100).collect();
    let mut dst = vec![0i32; 10];
    // src(1:100:10) -> dst(:)
    let plan = CopyPlan::new(4, &[d(10, 4)], &[d(10, 40)]);
    // SAFETY: extents lie within both vectors.
    unsafe { plan.run(dst.as_mut_ptr() as usize, src.as_ptr() as usize) };
    assert_eq!(dst, (0..100).step_by(10).collect::<Vec<_>>());
}

#[test]
fn negative_stride_reverses() {
    let src: Vec<u64> = (0..8).collect();
    let mut dst = vec![0u64; 8];
    let last = src.as_ptr() as usize + 7 * 8;
    let plan = CopyPlan::new(8, &[d(8, 8)], &[d(8, -8)]);
    // SAFETY: the source walks backwards from its last element, inside the vector.
    unsafe { plan.run(dst.as_mut_ptr() as usize, last) };
    assert_eq!(dst, vec![7, 6, 5, 4, 3, 2, 1, 0]);
}

#[test]
fn different_shapes_same_count() {
    // 2x3 block of a 4x3 column-major matrix into a contiguous 6-vector.
    let src: Vec<u8> = (0..12).collect();
    let mut dst = vec![0u8; 6];
    let plan = CopyPlan::new(1, &[d(6, 1)], &[d(2, 1), d(3, 4)]);
    // SAFETY: within both vectors.
    unsafe { plan.run(dst.as_mut_ptr() as usize, src.as_ptr() as usize) };
    assert_eq!(dst, vec![0, 1, 4, 5, 8, 9]);
    let mut back = vec![0u8; 12];
    let plan = CopyPlan::new(1, &[d(2, 1), d(3, 4)], &[d(6, 1)]);
    // SAFETY: within both vectors.
    unsafe { plan.run(back.as_mut_ptr() as usize, dst.as_ptr() as usize) };
    assert_eq!(back, vec![0, 1, 0, 0, 4, 5, 0, 0, 8, 9, 0, 0]);
}

#[test]
fn broadcast_scalar() {
    let v = 42u16;
    let mut dst = vec![0u16; 9];
    let plan = CopyPlan::new(2, &[d(3, 2), d(3, 6)], &[]);
    // SAFETY: within the vector and the scalar.
    unsafe { plan.run(dst.as_mut_ptr() as usize, &v as *const u16 as usize) };
    assert_eq!(dst, vec![42; 9]);
}

#[test]
fn extents_cover_negative_strides() {
    let plan = CopyPlan::new(8, &[d(4, -16)], &[d(4, 8)]);
    assert_eq!(plan.extents(), (-48, 8, 0, 32));
}

#[test]
fn mixed_runs_exhaustive_small() {
    // Every pairing of a few layouts of 12 elements against a scalar reference walk.
    let layouts: Vec<Vec<Dim>> = vec![
        vec![d(12, 1)],
        vec![d(3, 1), d(4, 5)],
        vec![d(4, 2), d(3, 9)],
        vec![d(2, 1), d(2, 3), d(3, 8)],
        vec![d(12, -1)],
    ];
    let index = |dims: &[Dim], mut k: usize| -> isize {
        let mut off = 0;
        for dm in dims {
            off += (k % dm.extent) as isize * dm.stride;
            k /= dm.extent;
        }
        off
    };
    for a in &layouts {
        for b in &layouts {
            let src: Vec<u8> = (0..64).collect();
            let mut dst = vec![255u8; 64];
            let plan = CopyPlan::new(1, a, b);
            let (dbase, sbase) = (dst.as_mut_ptr() as usize + 20, src.as_ptr() as usize + 20);
            // SAFETY: every layout reaches at most 20 bytes either side of the base + 44.
            unsafe { plan.run(dbase, sbase) };
            for k in 0..12 {
                let got = dst[(20 + index(a, k)) as usize];
                assert_eq!(
                    got,
                    src[(20 + index(b, k)) as usize],
                    "{a:?} <- {b:?} at {k}"
                );
            }
        }
    }
}

#[test]
fn arithmetic_lists_become_strides() {
    let (shift, l) = Layout::from_lists(vec![vec![8, 12, 16], vec![0, 40]]);
    assert_eq!(shift, 8);
    assert_eq!(l, Layout::Strided([d(3, 4), d(2, 40)].into()));
    let (shift, l) = Layout::from_lists(vec![vec![4, 0, 4]]);
    assert_eq!((shift, l.count()), (0, 3));
    assert!(matches!(l, Layout::Indexed(_)));
    let (_, empty) = Layout::from_lists(vec![vec![0, 4, 12], vec![]]);
    assert_eq!(empty.count(), 0);
}

#[test]
fn gather_with_repeats_and_two_dims() {
    // src is a 4x3 column-major matrix of u16; gather rows [3, 0, 3] of columns [2, 0].
    let src: Vec<u16> = (0..12).collect();
    let mut dst = vec![0u16; 6];
    let rows = vec![6, 0, 6];
    let cols = vec![16, 0];
    let plan = CopyPlan::with(
        2,
        Layout::Strided(contiguous(6, 2)),
        Layout::Indexed(vec![rows, cols]),
    );
    assert_eq!(plan.extents(), (0, 12, 0, 24));
    // SAFETY: the extents lie within both vectors.
    unsafe { plan.run(dst.as_mut_ptr() as usize, src.as_ptr() as usize) };
    assert_eq!(dst, vec![11, 8, 11, 3, 0, 3]);
}

#[test]
fn scatter_coalesces_runs_and_matches_reference() {
    let src: Vec<u32> = (1..=6).collect();
    let mut dst = vec![0u32; 10];
    // indices 2,3,4 then 9, 0, 1: two contiguous runs and a jump back.
    let offs = [2, 3, 4, 9, 0, 1].iter().map(|i| i * 4).collect();
    let plan = CopyPlan::with(
        4,
        Layout::Indexed(vec![offs]),
        Layout::Strided(contiguous(6, 4)),
    );
    // SAFETY: the extents lie within both vectors.
    unsafe { plan.run(dst.as_mut_ptr() as usize, src.as_ptr() as usize) };
    assert_eq!(dst, vec![5, 6, 1, 2, 3, 0, 0, 0, 0, 4]);
}

#[test]
fn indexed_to_indexed_and_broadcast() {
    let src: Vec<u8> = (0..16).collect();
    let mut dst = vec![0u8; 16];
    let plan = CopyPlan::with(
        1,
        Layout::Indexed(vec![vec![15, 0, 7]]),
        Layout::Indexed(vec![vec![1, 2, 9]]),
    );
    // SAFETY: within both vectors.
    unsafe { plan.run(dst.as_mut_ptr() as usize, src.as_ptr() as usize) };
    assert_eq!((dst[15], dst[0], dst[7]), (1, 2, 9));
    let v = 77u8;
    let plan = CopyPlan::with(
        1,
        Layout::Indexed(vec![vec![3, 5], vec![0, 8]]),
        Layout::Strided(Dims::new()),
    );
    // SAFETY: within the vector and the scalar.
    unsafe { plan.run(dst.as_mut_ptr() as usize, &v as *const u8 as usize) };
    assert_eq!(
        (dst[3], dst[5], dst[11], dst[13], dst[4]),
        (77, 77, 77, 77, 0)
    );
}

#[test]
fn rows_of_wide_elements_with_negative_strides() {
    // dst: a 4x3x2 block of u64 walked backwards in the inner dimension; src: every other
    // element of a packed array. Compared with a scalar reference walk.
    let src: Vec<u64> = (0..200).collect();
    let mut dst = vec![u64::MAX; 200];
    let dd = [
        Dim {
            extent: 4,
            stride: -8,
        },
        Dim {
            extent: 3,
            stride: 80,
        },
        Dim {
            extent: 2,
            stride: 400,
        },
    ];
    let sd = [
        Dim {
            extent: 4,
            stride: 16,
        },
        Dim {
            extent: 3,
            stride: 64,
        },
        Dim {
            extent: 2,
            stride: 192,
        },
    ];
    let plan = CopyPlan::new(8, &dd, &sd);
    let dbase = dst.as_mut_ptr() as usize + 8 * 3;
    // SAFETY: the destination reaches elements 0..=3+20+50 and the source 0..=6+16+24 only.
    unsafe { plan.run(dbase, src.as_ptr() as usize) };
    for k in 0..24usize {
        let (i, j, l) = (k % 4, (k / 4) % 3, k / 12);
        let at = 3 - i + 10 * j + 50 * l;
        assert_eq!(dst[at], src[2 * i + 8 * j + 24 * l], "element {k}");
    }
}

#[test]
fn runs_follow_element_order_and_merge_neighbours() {
    let strided = Layout::Strided(normalise(&[d(2, 8), d(3, 32)]));
    assert_eq!(strided.runs(8), vec![(0, 16), (32, 16), (64, 16)]);
    let reversed = Layout::Strided(normalise(&[d(3, -4)]));
    assert_eq!(reversed.runs(4), vec![(0, 4), (-4, 4), (-8, 4)]);
    let listed = Layout::Indexed(vec![vec![0, 4, 12, 16]]);
    assert_eq!(listed.runs(4), vec![(0, 8), (12, 8)]);
}
