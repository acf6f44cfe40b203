//! The job's segments: created by the supervisor as unnamed shared-memory files, inherited by
//! every image as file descriptors, and mapped at `base + i * seg_size`.

use crate::sys::mem;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};

/// Where the job's segments live in every image's address space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Number of images (and segments).
    pub n: usize,
    /// Address of segment 0 in every image.
    pub base: usize,
    /// Bytes per segment (a multiple of the page size).
    pub seg_size: usize,
}

/// The name (shown in /proc, in no file system) of image `i`'s (0-based) segment.
pub fn segment_name(i: usize) -> String {
    format!("ferrocaf-image-{}", i + 1)
}

/// The mapped segments of a job, as seen by one process.
pub struct Segments {
    /// Number of segments.
    pub n: usize,
    base: usize,
    seg_size: usize,
}

impl Segments {
    /// Creates `g.n` sparse segments for a new job (supervisor side).
    pub fn create(g: &Geometry) -> io::Result<Vec<OwnedFd>> {
        (0..g.n)
            .map(|i| mem::memfd(&segment_name(i), g.seg_size))
            .collect()
    }

    /// Maps every segment at its fixed address (image side).
    pub fn map_fixed(g: &Geometry, fds: &[i32]) -> io::Result<Segments> {
        for (i, fd) in fds.iter().enumerate() {
            mem::map_fixed(*fd, g.base + i * g.seg_size, g.seg_size)?;
        }
        Ok(Segments {
            n: g.n,
            base: g.base,
            seg_size: g.seg_size,
        })
    }

    /// Maps every segment wherever the kernel likes (supervisor side: it only reads control
    /// blocks, and reaches segment `i` through [`Segments::addr`] all the same).
    pub fn map_for_supervisor(g: &Geometry, fds: &[OwnedFd]) -> io::Result<Vec<usize>> {
        fds.iter()
            .map(|fd| mem::map_anywhere(fd.as_raw_fd(), g.seg_size).map(|p| p as usize))
            .collect()
    }

    /// Address of byte `offset` of image `image`'s segment in this process.
    #[inline(always)]
    pub fn addr(&self, image: usize, offset: usize) -> usize {
        debug_assert!(image < self.n && offset < self.seg_size);
        self.base + image * self.seg_size + offset
    }

    /// Whether `addr` lies in some segment; returns `(image, offset)`.
    pub fn locate(&self, addr: usize) -> Option<(usize, usize)> {
        let rel = addr.checked_sub(self.base)?;
        let image = rel / self.seg_size;
        (image < self.n).then_some((image, rel % self.seg_size))
    }

    /// Bytes per segment.
    pub fn seg_size(&self) -> usize {
        self.seg_size
    }
}
