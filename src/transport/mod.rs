//! How bytes move between images. The engine addresses remote memory only as `(image, offset)`
//! inside an image's segment and reaches it only through [`Transport`].

#[cfg(any(feature = "mpi", feature = "fabric"))]
mod backoff;
#[cfg(any(feature = "mpi", feature = "fabric"))]
mod carrier;
pub mod control;
pub mod cpu_atomic;
pub mod dims;
pub mod doorbell;
#[cfg(feature = "fabric")]
pub mod fabric;
#[cfg(feature = "mpi")]
pub mod mpi;
#[cfg(any(feature = "mpi", feature = "fabric"))]
mod one_sided;
pub mod owner;
pub mod plan;
mod plan_run;
#[cfg(test)]
mod plan_tests;
pub mod ring;
pub mod shm;
pub mod wire;
pub mod yield_gate;

pub use plan::{CopyPlan, Dim, Dims, Layout};
pub use ring::{Full, Notification};

/// Offset of an image's bell word ([`control::Header::bell`]), which [`Transport::alert`] moves
/// where rings do not wake.
const BELL: usize = control::HEADER + std::mem::offset_of!(control::Header, bell);

/// One end of a data movement: memory of this process, or an offset in some image's segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A local address (private memory or this image's own segment).
    Local(usize),
    /// Byte `offset` inside the segment of 0-based `image`.
    Remote {
        /// 0-based image index in the initial team.
        image: usize,
        /// Byte offset from the start of that image's segment.
        offset: usize,
    },
}

impl Place {
    /// The place `delta` bytes further on (a section's first element from its array's base).
    pub fn shifted(self, delta: isize) -> Place {
        match self {
            Place::Local(a) => Place::Local(a.wrapping_add(delta as usize)),
            Place::Remote { image, offset } => Place::Remote {
                image,
                offset: offset.wrapping_add(delta as usize),
            },
        }
    }
}

/// Width and operation of a remote atomic read-modify-write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    /// Integer addition.
    Add,
    /// Bitwise AND.
    And,
    /// Bitwise OR.
    Or,
    /// Bitwise XOR.
    Xor,
    /// Unconditional exchange (used for atomic_define).
    Swap,
    /// Plain atomic load (the operand is ignored).
    Load,
}

/// A transport: the small set of operations the engine needs from the layer below.
pub trait Transport: Send + Sync {
    /// Number of images in the job.
    fn num_images(&self) -> usize;
    /// 0-based index of this image.
    fn this_image(&self) -> usize;
    /// Copies elements from `src` to `dst` following `plan` (both sides described relative to
    /// their base). Returns when the data is visible at the destination.
    fn copy(&self, dst: Place, src: Place, plan: &CopyPlan);
    /// Copies `n` contiguous bytes from `src` to `dst` (the common case of [`Transport::copy`],
    /// without building a plan); the ranges may overlap. Returns when the data is visible at
    /// the destination.
    fn copy_bytes(&self, dst: Place, src: Place, n: usize) {
        let bytes = plan::contiguous(n, 1);
        self.copy(dst, src, &CopyPlan::new(1, &bytes, &bytes));
    }
    /// Atomic read-modify-write of a naturally aligned 4- or 8-byte word; returns the old value.
    fn fetch_op(
        &self,
        image: usize,
        offset: usize,
        width: usize,
        op: AtomicOp,
        operand: u64,
    ) -> u64;
    /// Atomic compare-and-swap of a 4- or 8-byte word; returns the value found.
    fn compare_swap(
        &self,
        image: usize,
        offset: usize,
        width: usize,
        expected: u64,
        new: u64,
    ) -> u64;
    /// Makes every earlier put of this image visible to every image before later ones.
    fn fence(&self);
    /// Wakes `image` if it sleeps waiting for a change in its control block.
    fn ring(&self, image: usize);
    /// [`Transport::ring`] after a post of `image`'s event whose key is `key`
    /// ([`doorbell::event_key`]): wakes `image` only if it sleeps waiting for that event or
    /// for any change ([`doorbell`]). By default [`Transport::ring`].
    fn ring_event(&self, image: usize, key: u32) {
        let _ = key;
        self.ring(image);
    }
    /// Address at which this process can load/store `(image, offset)` directly, if the
    /// transport maps peers' memory (capability used for pointer chasing and local waits).
    fn direct(&self, image: usize, offset: usize) -> Option<usize>;
    /// Enqueues a notification for `image` (after any data it announces is visible there) and
    /// wakes it; [`Full`] when its queue has no room (nothing was sent).
    fn notify(&self, image: usize, n: &Notification) -> Result<(), Full>;
    /// Hands every notification that has arrived for this image to `f`, in arrival order.
    fn drain(&self, f: &mut dyn FnMut(Notification));

    /// Capability: copies `n` contiguous bytes from local address `src` to `(image, offset)`
    /// and delivers the notification `{source: this image, tag, bytes: 0, offset: 0}` to
    /// `image` once they are visible there, in one network transaction (a put carrying
    /// immediate data). Returns false, having done nothing, where the transport has no such
    /// operation or `tag` does not fit it: the engine then copies and notifies.
    fn put_notified(
        &self,
        _image: usize,
        _offset: usize,
        _src: usize,
        _n: usize,
        _tag: u64,
    ) -> bool {
        false
    }

    /// Capability (counting puts): `event_attach` on this image attached memory to the event
    /// at `slot`. The first event so attached becomes the image's counted event, for its life
    /// (every image attaches alike, so every image names the same one); later calls change
    /// nothing. By default nothing is counted.
    fn attach_event(&self, _slot: usize) {}

    /// Capability (counting puts): copies `n` contiguous bytes from local address `src` to
    /// `(image, offset)` — memory attached to the counted event `slot` only — and increments
    /// `image`'s counter of puts into such memory once they are visible there, in one network
    /// transaction. The put carries no source or tag: the counter counts posts of the counted
    /// event alone. Returns false, having done nothing, when `slot` is not the counted event or
    /// the transport cannot count.
    fn put_counted(
        &self,
        _image: usize,
        _offset: usize,
        _src: usize,
        _n: usize,
        _slot: usize,
    ) -> bool {
        false
    }

    /// Capability (counting puts): whether [`Transport::put_counted`] can succeed for some
    /// event (an attached put asks before looking for its one event).
    fn counts(&self) -> bool {
        false
    }

    /// Capability (counting puts): posts of this image's event `slot` that arrived as counted
    /// puts and are not yet taken, or None when `slot` is not the counted event.
    fn counted(&self, _slot: usize) -> Option<u64> {
        None
    }

    /// Capability (counting puts): consumes `k` of the posts [`Transport::counted`] reports
    /// (at most that many; only this image consumes).
    fn take_counted(&self, _slot: usize, _k: u64) {}

    /// Adds one to the 8-byte counter at `offset` of `image`'s control block and wakes
    /// `image`: a barrier round's or SYNC IMAGES' signal. Only `image` reads such a counter,
    /// by loads in its waits (after [`Transport::progress`] when it cannot wake), and no one
    /// changes it otherwise, so a transport may deliver the add as a message that the target
    /// applies itself. By default an atomic add, then [`Transport::ring`].
    fn signal(&self, image: usize, offset: usize) {
        self.fetch_op(image, offset, 8, AtomicOp::Add, 1);
        self.ring(image);
    }

    /// Tells `image` that something it reads in other images' memory while it waits has
    /// changed (a lock's queue, the central barrier, a termination): [`Transport::ring`] where
    /// rings wake; a transport that cannot wake moves `image`'s bell word, which those waits
    /// watch.
    fn alert(&self, image: usize) {
        if self.can_wake() {
            self.ring(image);
        } else {
            self.fetch_op(image, BELL, 4, AtomicOp::Add, 1);
        }
    }

    /// Capability: [`Transport::ring`] really wakes a sleeping image. When false, waits poll
    /// with short naps, calling [`Transport::progress`] before every poll.
    fn can_wake(&self) -> bool {
        true
    }
    /// Lets the transport make progress and makes remote updates of this image's memory
    /// visible to its loads; called by waits that poll.
    fn progress(&self) {}
    /// Called once by a polling wait after its poll succeeded, before the caller goes on: makes
    /// the remote updates that poll saw (and those completed before them) visible to this
    /// image's loads. By default [`Transport::progress`].
    fn settle(&self) {
        self.progress()
    }
    /// Address of `image`'s segment in that image's own process: a pointer that image stores
    /// (an allocatable component) to byte `offset` of its segment holds `home + offset`, which
    /// `*_by_ref` translates back. By default the address at which this process maps the
    /// segment (every segment at the same address in every process).
    fn home(&self, image: usize) -> usize {
        self.direct(image, 0)
            .expect("a transport that does not map its peers gives their home addresses")
    }
    /// Capability: shutting down is collective (MPI_Finalize), so every process, even a
    /// failed image, must stay until the job ends and then call [`Transport::finish`].
    fn collective_exit(&self) -> bool {
        false
    }
    /// Releases the transport at normal termination, once every image has terminated.
    fn finish(&self) {}
    /// Ends the whole job with `code` at once if the transport has a job-wide abort
    /// (MPI_Abort); returns if it has none (the shm supervisor ends the others).
    fn abort_job(&self, _code: i32) {}
    /// Capability: requests can be carried out by the image that owns the memory
    /// ([`owner::OwnerCalls`]); `None` where every image maps every other's memory (shm).
    fn owner_calls(&self) -> Option<&dyn owner::OwnerCalls> {
        None
    }
}
