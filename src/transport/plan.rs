//! Copy plans: how the elements of one strided section map onto another.
//!
//! A side is a base address plus dimensions `(extent, byte stride)` listed fastest-varying
//! first (Fortran array element order). A plan is normalised once (unit extents dropped,
//! contiguous neighbours merged) and then executed as a few large `memcpy`s where both sides are
//! contiguous, or as a tight element loop where they are not — never one call per element.

/// One dimension of a section: `extent` elements, `stride` bytes apart (may be negative).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim {
    /// Number of elements along this dimension.
    pub extent: usize,
    /// Distance in bytes between consecutive elements along this dimension.
    pub stride: isize,
}

/// A copy of `count()` elements of `elem` bytes from a `src` layout to a `dst` layout.
/// If `src` holds a single element while `dst` holds many, that element is broadcast.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyPlan {
    /// Bytes per element (identical on both sides; conversion happens before planning).
    pub elem: usize,
    /// Destination dimensions, fastest first.
    pub dst: Vec<Dim>,
    /// Source dimensions, fastest first.
    pub src: Vec<Dim>,
}

/// Number of elements described by `dims`.
pub fn count(dims: &[Dim]) -> usize {
    dims.iter().map(|d| d.extent).product()
}

/// Drops unit extents and merges neighbours that are contiguous with each other, so that a
/// contiguous array of any rank becomes one dimension.
pub fn normalise(dims: &[Dim]) -> Vec<Dim> {
    let mut out: Vec<Dim> = Vec::with_capacity(dims.len());
    for d in dims.iter().filter(|d| d.extent != 1) {
        if d.extent == 0 {
            return vec![Dim {
                extent: 0,
                stride: 0,
            }];
        }
        match out.last_mut() {
            Some(last) if last.stride * last.extent as isize == d.stride => {
                last.extent *= d.extent;
            }
            _ => out.push(*d),
        }
    }
    out
}

/// Lowest and one-past-highest byte a section touches relative to its base.
pub fn span(dims: &[Dim], elem: usize) -> (isize, isize) {
    let (mut lo, mut hi) = (0isize, 0isize);
    for d in dims.iter().filter(|d| d.extent > 0) {
        let reach = d.stride * (d.extent as isize - 1);
        if reach < 0 {
            lo += reach
        } else {
            hi += reach
        }
    }
    (lo, hi + elem as isize)
}

/// Contiguous dimensions with element size `elem` for `n` elements.
pub fn contiguous(n: usize, elem: usize) -> Vec<Dim> {
    vec![Dim {
        extent: n,
        stride: elem as isize,
    }]
}

impl CopyPlan {
    /// Builds a normalised plan.
    pub fn new(elem: usize, dst: &[Dim], src: &[Dim]) -> CopyPlan {
        CopyPlan {
            elem,
            dst: normalise(dst),
            src: normalise(src),
        }
    }

    /// Elements written at the destination.
    pub fn count(&self) -> usize {
        count(&self.dst)
    }

    /// Whether both sides are single contiguous blocks (one `memcpy`).
    pub fn is_contiguous(&self) -> bool {
        let unit = |d: &[Dim]| d.is_empty() || (d.len() == 1 && d[0].stride == self.elem as isize);
        unit(&self.dst) && unit(&self.src) && count(&self.src) == count(&self.dst)
    }

    /// Lowest and highest byte touched on each side relative to its base, as
    /// `(dst_lo, dst_hi_exclusive, src_lo, src_hi_exclusive)`.
    pub fn extents(&self) -> (isize, isize, isize, isize) {
        let (a, b) = span(&self.dst, self.elem);
        let (c, d) = span(&self.src, self.elem);
        (a, b, c, d)
    }

    /// Executes the plan between two addresses of this process.
    ///
    /// # Safety
    /// Every byte the plan touches relative to `dst` must be writable and relative to `src`
    /// readable (see [`CopyPlan::extents`]); if the two regions overlap, the caller must have
    /// staged one side through a temporary.
    pub unsafe fn run(&self, dst: usize, src: usize) {
        let n = self.count();
        if n == 0 {
            return;
        }
        if self.is_contiguous() {
            // SAFETY: both sides are one block of n*elem bytes, valid per the caller.
            unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, n * self.elem) };
            return;
        }
        let src_n = count(&self.src);
        if src_n == 1 && n > 1 {
            // SAFETY: broadcast of one readable element into writable destination elements.
            unsafe { self.broadcast(dst, src) };
            return;
        }
        debug_assert_eq!(src_n, n, "copy plan sides differ in element count");
        // SAFETY: forwarded caller guarantee.
        unsafe { self.walk(dst, src) };
    }

    /// Broadcasts the single element at `src` to every destination element.
    unsafe fn broadcast(&self, dst: usize, src: usize) {
        let mut d = Cursor::new(&self.dst, dst);
        for _ in 0..self.count() {
            // SAFETY: `d.addr` walks only destination elements, valid per `run`'s contract.
            unsafe { std::ptr::copy(src as *const u8, d.addr as *mut u8, self.elem) };
            d.advance(&self.dst);
        }
    }

    /// Walks both sides in element order, copying the longest runs that are contiguous on both.
    unsafe fn walk(&self, dst: usize, src: usize) {
        let e = self.elem as isize;
        let dinner = self
            .dst
            .first()
            .filter(|d| d.stride == e)
            .map_or(1, |d| d.extent);
        let sinner = self
            .src
            .first()
            .filter(|d| d.stride == e)
            .map_or(1, |d| d.extent);
        let mut d = Cursor::new(&self.dst, dst);
        let mut s = Cursor::new(&self.src, src);
        let mut left = self.count();
        while left > 0 {
            // Elements left in the current contiguous run on each side.
            let drun = if dinner > 1 { dinner - d.idx[0] } else { 1 };
            let srun = if sinner > 1 { sinner - s.idx[0] } else { 1 };
            let run = drun.min(srun).min(left);
            if run == 1 {
                // SAFETY: one element at addresses inside the plan's extents.
                unsafe { copy_elem(d.addr, s.addr, self.elem) };
            } else {
                // SAFETY: `run` elements contiguous on both sides, inside the extents.
                unsafe { std::ptr::copy(s.addr as *const u8, d.addr as *mut u8, run * self.elem) };
            }
            d.skip(&self.dst, run);
            s.skip(&self.src, run);
            left -= run;
        }
    }
}

/// Copies one element of `n` bytes with a fixed-size move for the common sizes.
#[inline(always)]
unsafe fn copy_elem(dst: usize, src: usize, n: usize) {
    // SAFETY: the caller guarantees `n` readable bytes at `src` and writable bytes at `dst`;
    // unaligned accesses are used because section elements need not be aligned.
    unsafe {
        match n {
            1 => *(dst as *mut u8) = *(src as *const u8),
            2 => (dst as *mut u16).write_unaligned((src as *const u16).read_unaligned()),
            4 => (dst as *mut u32).write_unaligned((src as *const u32).read_unaligned()),
            8 => (dst as *mut u64).write_unaligned((src as *const u64).read_unaligned()),
            16 => (dst as *mut u128).write_unaligned((src as *const u128).read_unaligned()),
            _ => std::ptr::copy(src as *const u8, dst as *mut u8, n),
        }
    }
}

/// An odometer over a strided section.
struct Cursor {
    idx: Vec<usize>,
    addr: usize,
}

impl Cursor {
    fn new(dims: &[Dim], base: usize) -> Cursor {
        Cursor {
            idx: vec![0; dims.len().max(1)],
            addr: base,
        }
    }

    /// Moves to the next element in array element order.
    fn advance(&mut self, dims: &[Dim]) {
        for (k, d) in dims.iter().enumerate() {
            self.idx[k] += 1;
            self.addr = self.addr.wrapping_add(d.stride as usize);
            if self.idx[k] < d.extent {
                return;
            }
            self.addr = self
                .addr
                .wrapping_sub((d.stride * d.extent as isize) as usize);
            self.idx[k] = 0;
        }
    }

    /// Moves `n` elements forward; `n` never crosses the innermost dimension except by one step.
    fn skip(&mut self, dims: &[Dim], n: usize) {
        if n > 1 {
            self.idx[0] += n - 1;
            self.addr = self
                .addr
                .wrapping_add((dims[0].stride * (n as isize - 1)) as usize);
        }
        self.advance(dims);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(extent: usize, stride: isize) -> Dim {
        Dim { extent, stride }
    }

    #[test]
    fn contiguous_rank3_normalises_to_one_dim() {
        assert_eq!(normalise(&[d(4, 8), d(3, 32), d(2, 96)]), vec![d(24, 8)]);
    }

    #[test]
    fn unit_extents_vanish_and_zero_wins() {
        assert_eq!(normalise(&[d(1, 8), d(5, 80)]), vec![d(5, 80)]);
        assert_eq!(normalise(&[d(3, 8), d(0, 24)]), vec![d(0, 0)]);
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
}
