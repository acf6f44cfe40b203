//! A deterministic first-fit allocator over a range of segment offsets.
//!
//! Every image runs the same sequence of collective allocations and frees on its own copy of the
//! symmetric heap, so every image computes the same offsets with no communication. The same
//! allocator serves each image's local heap (allocatable components, scratch buffers).

use crate::error::{CafError, CafResult};
use std::collections::BTreeMap;

/// Allocation granule: a cache line, so distinct coarrays never share one.
pub const GRANULE: usize = 64;

/// Free-list allocator handing out offsets in `[start, start + size)`.
#[derive(Debug)]
pub struct Heap {
    start: usize,
    size: usize,
    name: &'static str,
    /// Free blocks, offset -> length; coalesced, never adjacent.
    free: BTreeMap<usize, usize>,
    /// Live blocks, offset -> length.
    live: BTreeMap<usize, usize>,
}

impl Heap {
    /// A heap covering `[start, start + size)`, called `name` in error messages.
    pub fn new(start: usize, size: usize, name: &'static str) -> Heap {
        let mut free = BTreeMap::new();
        if size > 0 {
            free.insert(start, size);
        }
        Heap {
            start,
            size,
            name,
            free,
            live: BTreeMap::new(),
        }
    }

    /// Allocates `bytes` (rounded up to [`GRANULE`]); returns the offset.
    pub fn alloc(&mut self, bytes: usize) -> CafResult<usize> {
        let oom = || CafError::OutOfMemory {
            requested: bytes,
            heap: self.size,
            which: self.name,
        };
        let len = bytes
            .max(1)
            .checked_next_multiple_of(GRANULE)
            .ok_or_else(oom)?;
        let (&off, &flen) = self.free.iter().find(|(_, l)| **l >= len).ok_or_else(oom)?;
        self.free.remove(&off);
        if flen > len {
            self.free.insert(off + len, flen - len);
        }
        self.live.insert(off, len);
        Ok(off)
    }

    /// Frees the block at `off`; returns its length, or `None` if no block starts there.
    pub fn free(&mut self, off: usize) -> Option<usize> {
        let len = self.live.remove(&off)?;
        let (mut start, mut end) = (off, off + len);
        if let Some((&p, &pl)) = self.free.range(..off).next_back() {
            if p + pl == start {
                self.free.remove(&p);
                start = p;
            }
        }
        if let Some(&nl) = self.free.get(&end) {
            self.free.remove(&end);
            end += nl;
        }
        self.free.insert(start, end - start);
        Some(len)
    }

    /// Length of the live block starting at `off`.
    pub fn len_of(&self, off: usize) -> Option<usize> {
        self.live.get(&off).copied()
    }

    /// The live block containing offset `off`, as `(start, len)`.
    pub fn block_containing(&self, off: usize) -> Option<(usize, usize)> {
        let (&s, &l) = self.live.range(..=off).next_back()?;
        (off < s + l).then_some((s, l))
    }

    /// Bytes currently allocated.
    pub fn in_use(&self) -> usize {
        self.live.values().sum()
    }

    /// First offset of the heap.
    pub fn start(&self) -> usize {
        self.start
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_sequence_same_offsets() {
        let run = || {
            let mut h = Heap::new(4096, 1 << 20, "symmetric");
            let a = h.alloc(100).unwrap();
            let b = h.alloc(8).unwrap();
            h.free(a);
            let c = h.alloc(10).unwrap();
            let d = h.alloc(1000).unwrap();
            (a, b, c, d)
        };
        assert_eq!(run(), run());
        let (a, b, c, _) = run();
        assert_eq!(a, 4096);
        assert_eq!(b, 4096 + 128);
        assert_eq!(c, a, "first fit reuses the freed hole");
    }

    #[test]
    fn coalescing_keeps_memory_flat() {
        let mut h = Heap::new(0, 1 << 16, "symmetric");
        for _ in 0..100_000 {
            let a = h.alloc(1000).unwrap();
            let b = h.alloc(3000).unwrap();
            h.free(a);
            h.free(b);
        }
        assert_eq!(h.in_use(), 0);
        assert_eq!(
            h.alloc(1 << 16).unwrap(),
            0,
            "whole heap is one free block again"
        );
    }

    #[test]
    fn out_of_memory_names_the_setting() {
        let mut h = Heap::new(0, 1024, "symmetric");
        let e = h.alloc(2048).unwrap_err();
        assert!(e.to_string().contains("FERROCAF_HEAP_SIZE"), "{e}");
        assert!(h.alloc(usize::MAX).is_err());
    }

    #[test]
    fn double_free_is_detected() {
        let mut h = Heap::new(0, 1024, "local");
        let a = h.alloc(10).unwrap();
        assert_eq!(h.free(a), Some(64));
        assert_eq!(h.free(a), None);
    }

    #[test]
    fn containing_block() {
        let mut h = Heap::new(0, 4096, "local");
        let _a = h.alloc(64).unwrap();
        let b = h.alloc(200).unwrap();
        assert_eq!(h.block_containing(b + 100), Some((b, 256)));
        assert_eq!(h.block_containing(4000), None);
    }
}
