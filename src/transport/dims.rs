//! [`Dims`]: the dimensions of a strided section, stored inline up to [`INLINE`] of them (no
//! allocation), because every coindexed access builds and normalises several of them on its
//! hot path; higher ranks (rare once normalised) spill to the heap.

use super::plan::Dim;
use std::ops::{Deref, DerefMut};

/// The highest rank of a Fortran array (Fortran 2018 5.4.6), and so of a section.
pub const MAX_RANK: usize = 15;
/// Dimensions stored without allocation (small enough that moving a `Dims` stays cheap).
pub const INLINE: usize = 4;

/// Dimensions fastest first: the first [`INLINE`] inline, more in a heap vector.
#[derive(Clone)]
pub struct Dims {
    len: usize,
    inline: [Dim; INLINE],
    /// Every dimension once there are more than [`INLINE`], else empty (never allocated).
    heap: Vec<Dim>,
}

const ZERO: Dim = Dim {
    extent: 0,
    stride: 0,
};

impl Dims {
    /// No dimensions (a scalar: one element).
    pub const fn new() -> Dims {
        Dims {
            len: 0,
            inline: [ZERO; INLINE],
            heap: Vec::new(),
        }
    }

    /// Appends a dimension.
    pub fn push(&mut self, d: Dim) {
        if self.len < INLINE {
            self.inline[self.len] = d;
        } else {
            if self.len == INLINE {
                self.heap.extend_from_slice(&self.inline);
            }
            self.heap.push(d);
        }
        self.len += 1;
    }
}

impl Default for Dims {
    fn default() -> Dims {
        Dims::new()
    }
}

impl Deref for Dims {
    type Target = [Dim];
    fn deref(&self) -> &[Dim] {
        if self.len <= INLINE {
            &self.inline[..self.len]
        } else {
            &self.heap
        }
    }
}

impl DerefMut for Dims {
    fn deref_mut(&mut self) -> &mut [Dim] {
        if self.len <= INLINE {
            &mut self.inline[..self.len]
        } else {
            &mut self.heap
        }
    }
}

impl PartialEq for Dims {
    fn eq(&self, other: &Dims) -> bool {
        **self == **other
    }
}

impl Eq for Dims {}

impl std::fmt::Debug for Dims {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<Dim> for Dims {
    fn from_iter<I: IntoIterator<Item = Dim>>(iter: I) -> Dims {
        let mut out = Dims::new();
        iter.into_iter().for_each(|d| out.push(d));
        out
    }
}

impl From<&[Dim]> for Dims {
    fn from(s: &[Dim]) -> Dims {
        s.iter().copied().collect()
    }
}

impl<const N: usize> From<[Dim; N]> for Dims {
    fn from(a: [Dim; N]) -> Dims {
        a.into_iter().collect()
    }
}

impl From<Vec<Dim>> for Dims {
    fn from(v: Vec<Dim>) -> Dims {
        v.into_iter().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(extent: usize, stride: isize) -> Dim {
        Dim { extent, stride }
    }

    #[test]
    fn behaves_like_a_slice() {
        let mut x = Dims::new();
        assert!(x.is_empty());
        x.push(d(3, 8));
        x.push(d(2, 24));
        assert_eq!(*x, [d(3, 8), d(2, 24)]);
        x[1].extent = 5;
        assert_eq!(x.iter().map(|y| y.extent).product::<usize>(), 15);
        // Equality ignores the unused inline tail.
        let mut y = x.clone();
        y.inline[3] = d(7, 7);
        assert_eq!(x, y);
        assert_eq!(
            format!("{:?}", Dims::from([d(1, 2)])),
            format!("{:?}", [d(1, 2)])
        );
    }

    #[test]
    fn spills_beyond_the_inline_dims() {
        let all: Vec<Dim> = (0..MAX_RANK).map(|k| d(k + 2, 8 << k)).collect();
        let mut x: Dims = all.iter().copied().collect();
        assert_eq!(*x, *all);
        x[INLINE].extent = 99;
        assert_eq!(x[INLINE].extent, 99);
        assert_eq!(x.len(), MAX_RANK);
        assert_eq!(Dims::from(&all[..INLINE]).len(), INLINE);
    }
}
