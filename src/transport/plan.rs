//! Copy plans: how the elements of one section map onto another.
//!
//! A side is a base address plus a [`Layout`] listed fastest-varying dimension first (Fortran
//! array element order): either strided dimensions `(extent, byte stride)`, or per-dimension
//! lists of byte offsets (vector subscripts: element `(i, j, ...)` lies at
//! `lists[0][i] + lists[1][j] + ...`). A plan is normalised once (unit extents dropped,
//! contiguous neighbours merged, arithmetic offset lists turned into strides) and then executed
//! (`plan_run.rs`) as a few large `memcpy`s where both sides are contiguous, or as a tight
//! element loop that still copies every run contiguous on both sides in one move — always in
//! one transport call, never one call per element.

pub use super::dims::Dims;

/// One dimension of a section: `extent` elements, `stride` bytes apart (may be negative).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim {
    /// Number of elements along this dimension.
    pub extent: usize,
    /// Distance in bytes between consecutive elements along this dimension.
    pub stride: isize,
}

/// The shape of one side of a copy, relative to its base address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// A strided section: dimensions fastest first.
    Strided(Dims),
    /// A gather/scatter list: per dimension (fastest first), the byte offset of each selected
    /// index; an element's offset is the sum over dimensions. Never empty lists of lists; an
    /// empty list means zero elements.
    Indexed(Vec<Vec<isize>>),
}

/// A copy of `count()` elements of `elem` bytes from a `src` layout to a `dst` layout.
/// If `src` holds a single element while `dst` holds many, that element is broadcast.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CopyPlan {
    /// Bytes per element (identical on both sides; conversion happens before planning).
    pub elem: usize,
    /// Destination layout.
    pub dst: Layout,
    /// Source layout.
    pub src: Layout,
}

/// Number of elements described by `dims`.
pub fn count(dims: &[Dim]) -> usize {
    dims.iter().map(|d| d.extent).product()
}

/// Drops unit extents and merges neighbours that are contiguous with each other, so that a
/// contiguous array of any rank becomes one dimension.
pub fn normalise(dims: &[Dim]) -> Dims {
    let mut out = Dims::new();
    for d in dims.iter().filter(|d| d.extent != 1) {
        if d.extent == 0 {
            return Dims::from([Dim {
                extent: 0,
                stride: 0,
            }]);
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
pub fn contiguous(n: usize, elem: usize) -> Dims {
    Dims::from([Dim {
        extent: n,
        stride: elem as isize,
    }])
}

impl Layout {
    /// Builds a layout from per-dimension offset lists. Returns the byte shift to apply to the
    /// base and the layout relative to the shifted base: if every list is an arithmetic
    /// progression the result is a (normalised) strided layout, so identity and constant-stride
    /// vector subscripts run as plain strided copies.
    pub fn from_lists(lists: Vec<Vec<isize>>) -> (isize, Layout) {
        if lists.iter().any(|l| l.is_empty()) {
            return (0, Layout::Strided(contiguous(0, 1)));
        }
        let arith = |l: &Vec<isize>| l.windows(2).all(|w| w[1] - w[0] == l[1] - l[0]);
        if lists.iter().all(|l| l.len() < 3 || arith(l)) {
            let dims: Dims = lists
                .iter()
                .map(|l| Dim {
                    extent: l.len(),
                    stride: if l.len() > 1 { l[1] - l[0] } else { 0 },
                })
                .collect();
            return (lists.iter().map(|l| l[0]).sum(), Layout::Strided(dims));
        }
        (0, Layout::Indexed(lists))
    }

    /// Number of elements.
    pub fn count(&self) -> usize {
        match self {
            Layout::Strided(d) => count(d),
            Layout::Indexed(l) => l.iter().map(Vec::len).product(),
        }
    }

    /// Lowest and one-past-highest byte touched relative to the base, for elements of `elem`
    /// bytes.
    pub fn span(&self, elem: usize) -> (isize, isize) {
        match self {
            Layout::Strided(d) => span(d, elem),
            Layout::Indexed(l) => {
                let lo = l.iter().map(|v| v.iter().min().copied().unwrap_or(0));
                let hi = l.iter().map(|v| v.iter().max().copied().unwrap_or(0));
                (lo.sum(), hi.sum::<isize>() + elem as isize)
            }
        }
    }

    /// The layout with strided dimensions normalised.
    fn normalised(self) -> Layout {
        match self {
            Layout::Strided(d) => Layout::Strided(normalise(&d)),
            other => other,
        }
    }
}

impl CopyPlan {
    /// Builds a normalised plan between two strided sections.
    pub fn new(elem: usize, dst: &[Dim], src: &[Dim]) -> CopyPlan {
        CopyPlan::with(
            elem,
            Layout::Strided(Dims::from(dst)),
            Layout::Strided(Dims::from(src)),
        )
    }

    /// Builds a normalised plan between two layouts of any kind.
    pub fn with(elem: usize, dst: Layout, src: Layout) -> CopyPlan {
        CopyPlan {
            elem,
            dst: dst.normalised(),
            src: src.normalised(),
        }
    }

    /// Elements written at the destination.
    pub fn count(&self) -> usize {
        self.dst.count()
    }

    /// Whether both sides are single contiguous blocks (one `memcpy`).
    pub fn is_contiguous(&self) -> bool {
        let unit = |l: &Layout| match l {
            Layout::Strided(d) => {
                d.is_empty() || (d.len() == 1 && d[0].stride == self.elem as isize)
            }
            Layout::Indexed(_) => false,
        };
        unit(&self.dst) && unit(&self.src) && self.src.count() == self.dst.count()
    }

    /// Lowest and highest byte touched on each side relative to its base, as
    /// `(dst_lo, dst_hi_exclusive, src_lo, src_hi_exclusive)`.
    pub fn extents(&self) -> (isize, isize, isize, isize) {
        let (a, b) = self.dst.span(self.elem);
        let (c, d) = self.src.span(self.elem);
        (a, b, c, d)
    }
}
