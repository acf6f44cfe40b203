//! The shared-memory transport: every image's segment is mapped at the same address in every
//! image (`base + image * seg_size`), so a remote access is a plain load or store.

pub mod segments;
pub mod stream;

use super::control::{Header, Layout, HEADER};
use super::doorbell::{Bell, OsFutex, ANY};
use super::ring::{Cell, Head, Ring, CAP, CELL};
use super::{cpu_atomic, AtomicOp, CopyPlan, Full, Notification, Place, Transport};
use std::sync::atomic::{fence, AtomicU64, Ordering};
use std::time::Duration;

pub use segments::Segments;

/// Cross-mapped POSIX shared memory: the default transport on one machine.
pub struct Shm {
    me: usize,
    segs: Segments,
    /// Offset of every image's notification ring.
    ring: usize,
    /// This image's consumer position in its own ring.
    next: AtomicU64,
}

impl Shm {
    /// Wraps the mapped segments of a job as seen by image `me` (0-based).
    pub fn new(me: usize, segs: Segments) -> Shm {
        let ring = Layout { n: segs.n }.ring();
        Shm {
            me,
            segs,
            ring,
            next: AtomicU64::new(0),
        }
    }

    /// The notification ring of `image`.
    fn ring_of(&self, image: usize) -> Ring<'_> {
        let base = self.segs.addr(image, self.ring);
        // SAFETY: the ring region of every mapped segment holds a Head line followed by CAP
        // cells, all plain atomics, for the life of the mapping.
        unsafe {
            Ring {
                head: &*(base as *const Head),
                cells: std::slice::from_raw_parts((base + CELL) as *const Cell, CAP),
            }
        }
    }

    /// The mapped segments.
    pub fn segments(&self) -> &Segments {
        &self.segs
    }

    fn resolve(&self, p: Place) -> usize {
        match p {
            Place::Local(a) => a,
            Place::Remote { image, offset } => self.segs.addr(image, offset),
        }
    }

    /// Whether a copy of `n` contiguous bytes from `s` to `d` (resolved from `dst`) goes with
    /// streaming stores ([`stream`]): large, into another image that last waited on a CPU sharing
    /// no cache with this one, not overlapping its source, and not a rewrite of a place streamed to
    /// in this image's current segment ([`stream::first_in_segment`]).
    fn streams(&self, dst: Place, d: usize, s: usize, n: usize) -> bool {
        n >= stream::STREAM_MIN
            && (d + n <= s || s + n <= d)
            && matches!(dst, Place::Remote { image, .. } if image != self.me
                && stream::worth_streaming(self.header(image), n))
            && stream::first_in_segment(d)
    }

    /// The header of `image`'s segment.
    fn header(&self, image: usize) -> &Header {
        // SAFETY: every segment starts with a Header, mapped for the life of `self`.
        unsafe { &*(self.segs.addr(image, HEADER) as *const Header) }
    }
}

impl Transport for Shm {
    fn num_images(&self) -> usize {
        self.segs.n
    }

    fn this_image(&self) -> usize {
        self.me
    }

    fn copy(&self, dst: Place, src: Place, plan: &CopyPlan) {
        let (d, s) = (self.resolve(dst), self.resolve(src));
        let bytes = plan.count() * plan.elem;
        if plan.is_contiguous() && self.streams(dst, d, s, bytes) {
            // SAFETY: as below, one block of `bytes` on each side, not overlapping.
            unsafe { stream::copy(d as *mut u8, s as *const u8, bytes) };
        } else {
            // SAFETY: remote places resolve into mapped segments, and the engine only builds
            // plans whose extents lie inside registered coarray memory or caller-provided local
            // buffers.
            unsafe { plan.run(d, s) };
        }
        fence(Ordering::Release);
    }

    fn copy_bytes(&self, dst: Place, src: Place, n: usize) {
        let (d, s) = (self.resolve(dst), self.resolve(src));
        if self.streams(dst, d, s, n) {
            // SAFETY: as for `copy`: the engine checked both ranges; they do not overlap.
            unsafe { stream::copy(d as *mut u8, s as *const u8, n) };
        } else {
            // SAFETY: as for `copy`: the engine checked both ranges.
            unsafe { copy_small(d as *mut u8, s as *const u8, n) };
        }
        fence(Ordering::Release);
    }

    fn fetch_op(&self, image: usize, offset: usize, width: usize, op: AtomicOp, v: u64) -> u64 {
        // SAFETY: the word lies in a mapped segment (the engine aligns atomic words), and all
        // concurrent accesses to it go through atomics.
        unsafe { cpu_atomic::fetch_op(self.segs.addr(image, offset), width, op, v) }
    }

    fn compare_swap(&self, image: usize, offset: usize, width: usize, exp: u64, new: u64) -> u64 {
        // SAFETY: as for fetch_op.
        unsafe { cpu_atomic::compare_swap(self.segs.addr(image, offset), width, exp, new) }
    }

    fn fence(&self) {
        stream::segment_ends();
        fence(Ordering::SeqCst);
    }

    fn ring(&self, image: usize) {
        self.ring_event(image, ANY);
    }

    fn ring_event(&self, image: usize, key: u32) {
        let h = self.header(image);
        Bell {
            seq: &h.bell,
            sleepers: &h.sleepers,
        }
        .ring(&OsFutex(Duration::ZERO), key);
    }

    fn direct(&self, image: usize, offset: usize) -> Option<usize> {
        Some(self.segs.addr(image, offset))
    }

    fn notify(&self, image: usize, n: &Notification) -> Result<(), Full> {
        let ring = self.ring_of(image);
        let r = ring.push(n);
        if r.is_err() {
            ring.head.blocked.store(1, Ordering::SeqCst);
            // Pairs with the consumer's fence in `drain`: the caller's retry must see the cells
            // the consumer freed before it read `blocked`.
            fence(Ordering::SeqCst);
        }
        self.ring(image);
        r
    }

    fn drain(&self, f: &mut dyn FnMut(Notification)) {
        let ring = self.ring_of(self.me);
        let mut next = self.next.load(Ordering::Relaxed);
        let mut any = false;
        while let Some(n) = ring.pop(&mut next) {
            any = true;
            f(n);
        }
        self.next.store(next, Ordering::Relaxed);
        if any {
            // Freeing cells (release stores) then reading `blocked`, against a producer setting
            // `blocked` then re-reading a cell: without a full fence here both can miss each
            // other and the producer sleeps until its nap ends (measured: ~30 us per post
            // with 10^6 posts from all images to one).
            fence(Ordering::SeqCst);
        }
        // Load before swapping: the flag shares its line with the producers' claim counter.
        if any
            && ring.head.blocked.load(Ordering::SeqCst) != 0
            && ring.head.blocked.swap(0, Ordering::SeqCst) != 0
        {
            (0..self.segs.n).for_each(|j| self.ring(j));
        }
    }
}

/// Copies `n` bytes from `s` to `d`: one load and one store for the sizes of scalars (a call
/// of `memmove` cost a third of an 8-byte coindexed read), `ptr::copy` for the rest. Either
/// allows the two ranges to overlap.
///
/// # Safety
/// Both ranges are mapped and `n` bytes long.
#[inline]
unsafe fn copy_small(d: *mut u8, s: *const u8, n: usize) {
    /// One unaligned load of `N` bytes, then one store.
    ///
    /// # Safety
    /// As for `copy_small`, with `n == N`.
    #[inline(always)]
    unsafe fn fixed<const N: usize>(d: *mut u8, s: *const u8) {
        // SAFETY: guaranteed by the caller; the value is loaded whole before it is stored.
        unsafe { (d as *mut [u8; N]).write_unaligned((s as *const [u8; N]).read_unaligned()) }
    }
    // SAFETY: guaranteed by the caller, and each fixed size is the arm's `n`.
    unsafe {
        match n {
            1 => fixed::<1>(d, s),
            2 => fixed::<2>(d, s),
            4 => fixed::<4>(d, s),
            8 => fixed::<8>(d, s),
            16 => fixed::<16>(d, s),
            _ => std::ptr::copy(s, d, n),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::copy_small;

    #[test]
    fn copies_every_size_also_overlapping() {
        for n in 0..40 {
            let src: Vec<u8> = (0..n as u8).collect();
            let mut dst = vec![0xffu8; n];
            // SAFETY: both buffers hold `n` bytes.
            unsafe { copy_small(dst.as_mut_ptr(), src.as_ptr(), n) };
            assert_eq!(dst, src, "{n} bytes");
            let mut buf: Vec<u8> = (0..n as u8 + 1).collect();
            let p = buf.as_mut_ptr();
            // SAFETY: both ranges lie in `buf` (n + 1 bytes), one byte apart.
            unsafe { copy_small(p.add(1), p, n) };
            assert!(
                buf[1..].iter().copied().eq(0..n as u8),
                "{n} bytes, overlapping"
            );
        }
    }
}
