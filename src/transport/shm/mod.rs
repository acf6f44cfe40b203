//! The shared-memory transport: every image's segment is mapped at the same address in every
//! image (`base + image * seg_size`), so a remote access is a plain load or store.

pub mod segments;

use super::control::{Header, HEADER};
use super::{AtomicOp, CopyPlan, Place, Transport};
use std::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};

pub use segments::Segments;

/// Cross-mapped POSIX shared memory: the default transport on one machine.
pub struct Shm {
    me: usize,
    segs: Segments,
}

impl Shm {
    /// Wraps the mapped segments of a job as seen by image `me` (0-based).
    pub fn new(me: usize, segs: Segments) -> Shm {
        Shm { me, segs }
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
}

impl Transport for Shm {
    fn num_images(&self) -> usize {
        self.segs.n
    }

    fn this_image(&self) -> usize {
        self.me
    }

    fn copy(&self, dst: Place, src: Place, plan: &CopyPlan) {
        // SAFETY: remote places resolve into mapped segments, and the engine only builds plans
        // whose extents lie inside registered coarray memory or caller-provided local buffers.
        unsafe { plan.run(self.resolve(dst), self.resolve(src)) };
        fence(Ordering::Release);
    }

    fn fetch_op(&self, image: usize, offset: usize, width: usize, op: AtomicOp, v: u64) -> u64 {
        let addr = self.segs.addr(image, offset);
        debug_assert!(
            addr.is_multiple_of(width),
            "atomic word not naturally aligned"
        );
        let o = Ordering::SeqCst;
        if width == 4 {
            // SAFETY: the address is inside a mapped segment and 4-byte aligned; all concurrent
            // accesses to this word go through atomics.
            let w = unsafe { &*(addr as *const AtomicU32) };
            let v = v as u32;
            (match op {
                AtomicOp::Add => w.fetch_add(v, o),
                AtomicOp::And => w.fetch_and(v, o),
                AtomicOp::Or => w.fetch_or(v, o),
                AtomicOp::Xor => w.fetch_xor(v, o),
                AtomicOp::Swap => w.swap(v, o),
                AtomicOp::Load => w.load(o),
            }) as u64
        } else {
            // SAFETY: as above, for an 8-byte aligned word.
            let w = unsafe { &*(addr as *const AtomicU64) };
            match op {
                AtomicOp::Add => w.fetch_add(v, o),
                AtomicOp::And => w.fetch_and(v, o),
                AtomicOp::Or => w.fetch_or(v, o),
                AtomicOp::Xor => w.fetch_xor(v, o),
                AtomicOp::Swap => w.swap(v, o),
                AtomicOp::Load => w.load(o),
            }
        }
    }

    fn compare_swap(&self, image: usize, offset: usize, width: usize, exp: u64, new: u64) -> u64 {
        let addr = self.segs.addr(image, offset);
        let o = Ordering::SeqCst;
        if width == 4 {
            // SAFETY: aligned word inside a mapped segment, accessed only atomically.
            let w = unsafe { &*(addr as *const AtomicU32) };
            match w.compare_exchange(exp as u32, new as u32, o, o) {
                Ok(v) | Err(v) => v as u64,
            }
        } else {
            // SAFETY: as above.
            let w = unsafe { &*(addr as *const AtomicU64) };
            match w.compare_exchange(exp, new, o, o) {
                Ok(v) | Err(v) => v,
            }
        }
    }

    fn fence(&self) {
        fence(Ordering::SeqCst);
    }

    fn ring(&self, image: usize) {
        // SAFETY: every segment starts with a Header.
        let h = unsafe { &*(self.segs.addr(image, HEADER) as *const Header) };
        fence(Ordering::SeqCst);
        if h.sleepers.load(Ordering::SeqCst) > 0 {
            h.bell.fetch_add(1, Ordering::SeqCst);
            crate::sys::futex::wake_all(&h.bell);
        }
    }

    fn direct(&self, image: usize, offset: usize) -> Option<usize> {
        Some(self.segs.addr(image, offset))
    }
}
