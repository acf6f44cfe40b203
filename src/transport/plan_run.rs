//! Executing a [`CopyPlan`] between two addresses of this process: one `memcpy` for contiguous
//! sides, the strided walk (longest runs contiguous on both sides), or the general walk over
//! gather/scatter layouts, which still coalesces every run contiguous on both sides.

use super::dims::MAX_RANK;
use super::plan::{count, CopyPlan, Dim, Layout};

impl CopyPlan {
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
        let src_n = self.src.count();
        if src_n == 1 && n > 1 {
            // SAFETY: broadcast of one readable element into writable destination elements.
            unsafe { self.broadcast(dst, src) };
            return;
        }
        debug_assert_eq!(src_n, n, "copy plan sides differ in element count");
        match (&self.dst, &self.src) {
            // SAFETY: forwarded caller guarantee.
            (Layout::Strided(d), Layout::Strided(s)) => unsafe { self.walk(d, s, dst, src) },
            // SAFETY: forwarded caller guarantee.
            _ => unsafe { self.gather_scatter(dst, src) },
        }
    }

    /// Broadcasts the single element at `src` (plus its offset) to every destination element.
    ///
    /// # Safety
    /// As for [`CopyPlan::run`].
    unsafe fn broadcast(&self, dst: usize, src: usize) {
        let from = src.wrapping_add(Walker::new(&self.src).offset as usize);
        let mut d = Walker::new(&self.dst);
        for _ in 0..self.count() {
            let to = dst.wrapping_add(d.offset as usize);
            // SAFETY: `to` walks only destination elements, valid per `run`'s contract.
            unsafe { copy_elem(to, from, self.elem) };
            d.advance();
        }
    }

    /// Walks both sides element by element, moving each run that is contiguous on both sides
    /// with one copy (at least one side is a gather/scatter list).
    ///
    /// # Safety
    /// As for [`CopyPlan::run`].
    unsafe fn gather_scatter(&self, dst: usize, src: usize) {
        let e = self.elem as isize;
        let (mut d, mut s) = (Walker::new(&self.dst), Walker::new(&self.src));
        let (mut d0, mut s0, mut run) = (d.offset, s.offset, 0isize);
        for _ in 0..self.count() {
            if run > 0 && (d.offset != d0 + run * e || s.offset != s0 + run * e) {
                // SAFETY: `run` elements contiguous on both sides, inside the extents.
                unsafe { flush(dst, d0, src, s0, run as usize * self.elem) };
                (d0, s0, run) = (d.offset, s.offset, 0);
            }
            run += 1;
            d.advance();
            s.advance();
        }
        // SAFETY: as above, for the last run.
        unsafe { flush(dst, d0, src, s0, run as usize * self.elem) };
    }

    /// Walks two strided sides in element order, copying the longest runs contiguous on both.
    /// When both innermost dimensions have the same extent, copies row by row instead, each row
    /// in one tight loop specialised for the element size.
    ///
    /// # Safety
    /// As for [`CopyPlan::run`], with `dd` and `sd` the dimensions of the two sides.
    unsafe fn walk(&self, dd: &[Dim], sd: &[Dim], dst: usize, src: usize) {
        if let (Some(d0), Some(s0)) = (dd.first(), sd.first()) {
            if d0.extent == s0.extent {
                // SAFETY: forwarded caller guarantee.
                return unsafe { self.rows(dd, sd, dst, src) };
            }
        }
        let e = self.elem as isize;
        let inner = |dims: &[Dim]| {
            dims.first()
                .filter(|d| d.stride == e)
                .map_or(1, |d| d.extent)
        };
        let (dinner, sinner) = (inner(dd), inner(sd));
        let mut d = Cursor::new(dd, dst);
        let mut s = Cursor::new(sd, src);
        let mut left = count(dd);
        while left > 0 {
            // Elements left in the current contiguous run on each side.
            let drun = if dinner > 1 { dinner - d.idx[0] } else { 1 };
            let srun = if sinner > 1 { sinner - s.idx[0] } else { 1 };
            let run = drun.min(srun).min(left);
            // SAFETY: `run` elements contiguous on both sides, inside the extents.
            unsafe { flush(d.addr, 0, s.addr, 0, run * self.elem) };
            d.skip(dd, run);
            s.skip(sd, run);
            left -= run;
        }
    }
}

impl CopyPlan {
    /// Row-wise copy of two strided sides whose innermost extents are equal.
    ///
    /// # Safety
    /// As for [`CopyPlan::walk`].
    unsafe fn rows(&self, dd: &[Dim], sd: &[Dim], dst: usize, src: usize) {
        let (n, ds, ss) = (dd[0].extent, dd[0].stride, sd[0].stride);
        let (douter, souter) = (&dd[1..], &sd[1..]);
        let mut d = Cursor::new(douter, dst);
        let mut s = Cursor::new(souter, src);
        for _ in 0..count(dd) / n {
            // SAFETY: each row lies inside the plan's extents, valid per `run`'s contract.
            unsafe { row(d.addr, ds, s.addr, ss, n, self.elem) };
            d.advance(douter);
            s.advance(souter);
        }
    }
}

/// Copies `n` elements of `elem` bytes from `src` (stride `ss`) to `dst` (stride `ds`).
///
/// # Safety
/// Every element touched is valid on both sides.
#[inline(always)]
unsafe fn row(dst: usize, ds: isize, src: usize, ss: isize, n: usize, elem: usize) {
    let e = elem as isize;
    // SAFETY: forwarded caller guarantee for every arm.
    unsafe {
        match elem {
            _ if ds == e && ss == e => std::ptr::copy(src as *const u8, dst as *mut u8, n * elem),
            8 => row_of::<u64>(dst, ds, src, ss, n),
            4 => row_of::<u32>(dst, ds, src, ss, n),
            16 => row_of::<u128>(dst, ds, src, ss, n),
            2 => row_of::<u16>(dst, ds, src, ss, n),
            1 => row_of::<u8>(dst, ds, src, ss, n),
            _ => (0..n as isize).for_each(|i| {
                flush(dst, i * ds, src, i * ss, elem);
            }),
        }
    }
}

/// The strided row loop for one element type.
///
/// # Safety
/// As for [`row`], with `size_of::<T>()`-byte elements.
#[inline(always)]
unsafe fn row_of<T: Copy>(dst: usize, ds: isize, src: usize, ss: isize, n: usize) {
    let (mut d, mut s) = (dst as *mut T, src as *const T);
    for _ in 0..n {
        // SAFETY: forwarded caller guarantee; elements need not be aligned.
        unsafe { d.write_unaligned(s.read_unaligned()) };
        d = d.wrapping_byte_offset(ds);
        s = s.wrapping_byte_offset(ss);
    }
}

/// Copies `bytes` from `src + soff` to `dst + doff` (one element with a fixed-size move).
///
/// # Safety
/// Both ranges are valid; they may overlap only as `ptr::copy` allows.
#[inline(always)]
unsafe fn flush(dst: usize, doff: isize, src: usize, soff: isize, bytes: usize) {
    let (d, s) = (
        dst.wrapping_add(doff as usize),
        src.wrapping_add(soff as usize),
    );
    // SAFETY: forwarded caller guarantee.
    unsafe { copy_elem(d, s, bytes) };
}

/// Copies `n` bytes with a fixed-size move for the common element sizes.
///
/// # Safety
/// `n` bytes at `src` are readable and at `dst` writable.
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

/// An odometer over a strided section, tracking the element address.
struct Cursor {
    idx: [usize; MAX_RANK],
    addr: usize,
}

impl Cursor {
    fn new(dims: &[Dim], base: usize) -> Cursor {
        debug_assert!(dims.len() <= MAX_RANK);
        Cursor {
            idx: [0; MAX_RANK],
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

impl Layout {
    /// The byte runs `(offset, bytes)` the elements of `elem` bytes occupy, in array element
    /// order, neighbours that follow each other in memory merged: the pieces of a transfer to
    /// or from a packed buffer (network transports post them as scatter/gather lists).
    pub fn runs(&self, elem: usize) -> Vec<(isize, usize)> {
        let mut out: Vec<(isize, usize)> = Vec::new();
        let mut w = Walker::new(self);
        for _ in 0..self.count() {
            match out.last_mut() {
                Some((at, len)) if *at + *len as isize == w.offset => *len += elem,
                _ => out.push((w.offset, elem)),
            }
            w.advance();
        }
        out
    }
}

/// An odometer over any layout, tracking the element's byte offset from the base.
struct Walker<'a> {
    layout: &'a Layout,
    idx: Vec<usize>,
    offset: isize,
}

impl<'a> Walker<'a> {
    fn new(layout: &'a Layout) -> Walker<'a> {
        let offset = match layout {
            Layout::Strided(_) => 0,
            Layout::Indexed(l) => l.iter().filter_map(|v| v.first()).sum(),
        };
        let rank = match layout {
            Layout::Strided(d) => d.len(),
            Layout::Indexed(l) => l.len(),
        };
        Walker {
            layout,
            idx: vec![0; rank],
            offset,
        }
    }

    /// Moves to the next element in array element order.
    fn advance(&mut self) {
        for k in 0..self.idx.len() {
            let (step, back, extent) = match self.layout {
                Layout::Strided(d) => {
                    (d[k].stride, d[k].stride * d[k].extent as isize, d[k].extent)
                }
                Layout::Indexed(l) => {
                    let (v, i) = (&l[k], self.idx[k]);
                    let next = v.get(i + 1).map_or(0, |n| n - v[i]);
                    (next, v[i] - v[0] + next, v.len())
                }
            };
            self.idx[k] += 1;
            self.offset += step;
            if self.idx[k] < extent {
                return;
            }
            self.offset -= back;
            self.idx[k] = 0;
        }
    }
}
