//! The shadows event_attach's probe runs a receiver against (`attach.rs`): the object's bytes,
//! with its attached bytes replaced by a filler, all but what the receiver may follow (pointers
//! into coarray memory and the descriptors they begin). A shadow of an object of one page or
//! less is prepared whole in a buffer of the thread. A larger one ([`LAZY_FROM`] bytes and
//! more) is a mapping of the thread with no access, one per object for the last [`KEEP`]
//! objects put into, whose pages are prepared when the receiver first touches them
//! (the fault guard calls [`on_fault`]): a put of a few elements into a large object costs a
//! few pages, not the object (a scalar put into an 8 MiB array attached in halves: 0.17 µs,
//! prepared whole 1.2 ms). The second run, made only when an attachment the first did not see
//! written lies on a page it touched, prepares those pages beforehand, and the next put into
//! the same object does too: they stay accessible. After [`FAULT_LIMIT`]
//! faults in one put the pages left are prepared at once, and the next [`WHOLE_PUTS`] puts into
//! the object prepare their shadows whole. The touched pages stay resident: at most the
//! [`KEEP`] objects' sizes per thread.

use crate::abi::descriptor::{DIM, HEADER};
use crate::sys::mem;
use std::cell::Cell;
use std::ops::Range;

/// Objects from this size on (two pages) get a lazily prepared shadow.
pub(super) const LAZY_FROM: usize = 8 << 10;

/// Lazy shadows' mappings a thread keeps, one per object it last put into: puts that take
/// turns between up to this many objects (a halo exchange's arrays) find their pages
/// prepared.
const KEEP: usize = 4;

/// Faults after which a put's lazy shadow is prepared whole.
const FAULT_LIMIT: usize = 32;

/// Puts into the same object after one whose receiver touched more than [`FAULT_LIMIT`] pages
/// that prepare a whole shadow in the thread's buffer, before a put looks again whether they
/// still touch that many.
const WHOLE_PUTS: u32 = 64;

/// The longest descriptor: how far before a page a descriptor reaching into it may begin.
const LONGEST: usize = HEADER + 15 * DIM;

thread_local! {
    /// This thread's buffer for small shadows, taken while in use (a receiver that puts again
    /// gets a buffer of its own).
    static BUFFER: Cell<Vec<u128>> = const { Cell::new(Vec::new()) };
    /// This thread's mappings for lazy shadows, the most recently used last; one is taken out
    /// while in use. Boxed: a put moved them in and out by value, and those copies, wide loads
    /// of fields just stored, were a third of the probe's own time.
    #[allow(clippy::vec_box)] // taken out of the list and put back on every put: see above
    static MAPPINGS: Cell<Vec<Box<Mapping>>> = const { Cell::new(Vec::new()) };
    /// The lazy shadow a receiver of this thread runs against, for [`on_fault`].
    static ACTIVE: Cell<*const Lazy<'static>> = const { Cell::new(std::ptr::null()) };
}

/// Where a pointer the receiver may follow leads: some image's segment as this process maps
/// it. The `span` addresses from `first` hold them all (a cheap first test).
pub(super) struct Pointers<'a> {
    /// The lowest segment's address.
    first: usize,
    /// How many addresses from `first` on may be such.
    span: usize,
    /// Each segment's first address.
    segments: &'a [usize],
    /// Bytes per segment.
    seg_size: usize,
}

impl<'a> Pointers<'a> {
    /// Pointers into the segments starting at `segments`, `seg_size` bytes each.
    pub fn new(segments: &'a [usize], seg_size: usize) -> Pointers<'a> {
        let first = segments.iter().min().copied().unwrap_or(0);
        let span = segments
            .iter()
            .max()
            .map_or(0, |last| last - first + seg_size);
        Pointers {
            first,
            span,
            segments,
            seg_size,
        }
    }

    /// Whether the word `v` is such a pointer.
    #[inline]
    fn accept(&self, v: usize) -> bool {
        v != 0
            && v.wrapping_sub(self.first) < self.span
            && (self.segments.iter()).any(|&lo| v.wrapping_sub(lo) < self.seg_size)
    }

    /// Whether a word of `block` may be one: the upper halves of the words against those of
    /// the span's ends, with no early exit, so that it runs as vector instructions (x86-64's
    /// baseline has no 64-bit vector comparison).
    #[inline]
    fn maybe(&self, block: &[u8; 64]) -> bool {
        let low = (self.first >> 32) as u32;
        let reach = ((self.first + (self.span - 1)) >> 32) as u32 - low;
        block.chunks_exact(8).fold(false, |any, w| {
            let upper = (usize::from_ne_bytes(w.try_into().expect("8 bytes")) >> 32) as u32;
            any | (upper.wrapping_sub(low) <= reach)
        })
    }
}

/// What the probe runs a receiver against: the object, its attached byte ranges (object
/// offsets, sorted, disjoint) and what the filler spares.
pub(super) struct Plan<'a> {
    /// The object's bytes.
    pub real: &'a [u8],
    /// The attached ranges.
    pub ranges: &'a [Range<usize>],
    /// The pointers to spare (none for an object of an intrinsic type).
    pub pointers: &'a Pointers<'a>,
    /// Whether the receiver may read the object's bytes: the shadow then holds its unattached
    /// bytes. Not for an object of an intrinsic type, whose receivers only store into it: its
    /// shadow's unattached bytes are left as they are (nothing of them is read from the
    /// target image, and preparing a page without attached bytes costs nothing).
    pub reads: bool,
}

impl Plan<'_> {
    /// Calls `visit` with the pieces of attached range `r` inside `[lo, hi)`, each with
    /// whether it is spared: an aligned word that `pointers` accepts, and when a plausible
    /// descriptor type follows it (the word is then a GfcDescriptor's base address, its type
    /// 16 bytes on), the whole descriptor. Words are looked at 8 at a time; the look starts
    /// early enough to see a descriptor that begins before `lo` and reaches into it.
    fn pieces(
        &self,
        r: &Range<usize>,
        lo: usize,
        hi: usize,
        mut visit: impl FnMut(Range<usize>, bool),
    ) {
        let (start, end) = (r.start.max(lo), r.end.min(hi));
        if start >= end {
            return;
        }
        let mut from = start;
        if self.pointers.span > 0 {
            let real = self.real;
            let look = r.start.max(start.saturating_sub(LONGEST));
            let mut at = look + (8 - (real.as_ptr() as usize + look) % 8) % 8;
            while at + 8 <= end {
                let block = real.get(at..at + 64).filter(|_| at + 64 <= end);
                if block.is_some_and(|b| !self.pointers.maybe(b.try_into().expect("64 bytes"))) {
                    at += 64;
                    continue;
                }
                let v = usize::from_ne_bytes(real[at..at + 8].try_into().expect("8 bytes"));
                if !self.pointers.accept(v) {
                    at += 8;
                    continue;
                }
                let kept = at..(at + descriptor_len(real, at).unwrap_or(8)).min(r.end);
                let (a, b) = (kept.start.max(from), kept.end.min(end));
                if a < b {
                    if from < a {
                        visit(from..a, false);
                    }
                    visit(a..b, true);
                    from = b;
                }
                at = kept.end;
            }
        }
        if from < end {
            visit(from..end, false);
        }
    }

    /// Prepares the shadow bytes of object offsets `[lo, hi)` for `fill`: the attached ones,
    /// but the spared, set to `fill`; the others the object's if the receiver [`Plan::reads`].
    fn prepare(&self, shadow: &mut [u8], lo: usize, hi: usize, fill: u8) {
        let first = self.ranges.partition_point(|r| r.end <= lo);
        let mut at = lo;
        let copy = |shadow: &mut [u8], gap: Range<usize>| {
            if self.reads {
                shadow[gap.clone()].copy_from_slice(&self.real[gap]);
            }
        };
        for r in self.ranges[first..].iter().take_while(|r| r.start < hi) {
            copy(shadow, at..r.start.clamp(at, hi));
            self.pieces(r, lo, hi, |p, spared| match spared {
                true => shadow[p.clone()].copy_from_slice(&self.real[p]),
                false => shadow[p].fill(fill),
            });
            at = r.end.clamp(at, hi);
        }
        copy(shadow, at..hi);
    }

    /// Whether the shadow bytes of attached range `r` inside `[lo, hi)`, prepared for `fill`,
    /// show a write: a byte not `fill`, or a spared byte whose value changed.
    fn written(&self, shadow: &[u8], r: &Range<usize>, lo: usize, hi: usize, fill: u8) -> bool {
        let mut any = false;
        self.pieces(r, lo, hi, |p, spared| {
            any = any
                || match spared {
                    true => shadow[p.clone()] != self.real[p],
                    false => differs(&shadow[p], fill),
                }
        });
        any
    }
}

/// Sets `written` to which of `plan`'s ranges the receiver call `run` (taking the object's
/// address) writes into, one flag per range: it runs against a shadow prepared for the filler
/// 0x00, then, unless every range was seen written, for 0xFF. A byte it writes differs from the
/// filler in at least one of them, whatever value it writes. With a lazy shadow the second run
/// is only for ranges unseen on the pages the first touched: the others it did not write.
pub(super) fn writes(plan: &Plan, run: &dyn Fn(usize), written: &mut Vec<bool>) {
    written.clear();
    written.resize(plan.ranges.len(), false);
    let size = plan.real.len();
    let page = mem::page_size();
    let len = size.div_ceil(page) * page;
    let object = plan.real.as_ptr() as usize;
    let mapping = (size >= LAZY_FROM)
        .then(|| take_mapping(object, len))
        .flatten();
    let Some(mut mapping) = mapping else {
        return whole(plan, run, written);
    };
    let base = mapping.base;
    if mapping.object != object {
        // Another object's pages: they would be prepared in vain.
        mapping.object = object;
        mapping.whole = 0;
        if !mapping.warm.is_empty() {
            mapping.warm.clear();
            // SAFETY: this thread's reservation, which nothing uses now.
            let _ = unsafe { mem::protect(base, mapping.bytes, false) };
        }
    }
    if mapping.whole > 0 {
        mapping.whole -= 1;
        give_back(mapping);
        return whole(plan, run, written);
    }
    let Mapping {
        bytes,
        whole: puts_whole,
        warm,
        prepared,
        ..
    } = &mut *mapping;
    if prepared.len() < len / page {
        prepared.resize_with(len / page, || Cell::new(false));
    }
    let lazy = Lazy {
        plan,
        base,
        len,
        size,
        page,
        fill: Cell::new(0x00),
        touched: &prepared[..len / page],
        faults: Cell::new(0),
        first: [const { Cell::new(0) }; FAULT_LIMIT],
    };
    lazy.warm(warm);
    for fill in [0x00u8, 0xff] {
        // The pages the first run touched are accessible still: prepared again for this
        // filler, so that the second run (whose receiver touches the same pages) takes no
        // fault.
        lazy.fill.set(fill);
        // SAFETY: the touched pages are accessible; no receiver runs.
        let shadow = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, len) };
        for p in lazy.pages() {
            let (lo, hi) = lazy.bytes(p);
            plan.prepare(shadow, lo, hi, fill);
        }
        let was = ACTIVE.with(|a| a.replace((&lazy as *const Lazy).cast()));
        run(base);
        ACTIVE.with(|a| a.set(was));
        // SAFETY: the receiver has returned; only touched pages, accessible, are read.
        let shadow = unsafe { std::slice::from_raw_parts(base as *const u8, len) };
        for p in lazy.pages() {
            let (lo, hi) = lazy.bytes(p);
            let first = plan.ranges.partition_point(|r| r.end <= lo);
            let hits = plan.ranges[first..].iter().take_while(|r| r.start < hi);
            for (w, r) in written[first..].iter_mut().zip(hits) {
                *w = *w || plan.written(shadow, r, lo, hi, fill);
            }
        }
        // A range with no byte on an accessible page was not written (a store there would
        // have faulted), nor will be by the second run, whose stores go where the first's
        // went: only a range unseen on an accessible page needs it.
        let unseen = lazy.pages().any(|p| {
            let (lo, hi) = lazy.bytes(p);
            let first = plan.ranges.partition_point(|r| r.end <= lo);
            let on_page = plan.ranges[first..].iter().take_while(|r| r.start < hi);
            on_page.zip(&written[first..]).any(|(_, &w)| !w)
        });
        if !unseen {
            break;
        }
    }
    // The pages touched stay accessible for the next put into the object (which likely
    // touches them again). After a put that touched more than FAULT_LIMIT pages, the next
    // WHOLE_PUTS puts into the object prepare their shadows whole: such a put (a row of an
    // 8 MiB array, a page per element) cost 3.3 times that lazily, in its faults, its
    // mprotect calls and a fault at the first write of each page made accessible again.
    warm.clear();
    for p in lazy.pages() {
        lazy.touched[p].set(false);
        warm.push(p);
    }
    if warm.len() > FAULT_LIMIT {
        warm.clear();
        *puts_whole = WHOLE_PUTS;
    }
    if warm.is_empty() {
        // SAFETY: this thread's reservation; the shadow is not used after this.
        let _ = unsafe { mem::protect(base, *bytes, false) };
    }
    give_back(mapping);
}

/// Puts a mapping of this thread back after use, as the most recently used; the least
/// recently used beyond [`KEEP`] is unmapped.
fn give_back(mapping: Box<Mapping>) {
    let mut all = MAPPINGS.with(Cell::take);
    all.push(mapping);
    if all.len() > KEEP {
        let old = all.remove(0);
        // SAFETY: a reservation of this thread that no shadow uses now.
        unsafe { mem::unmap(old.base, old.bytes) };
    }
    MAPPINGS.with(|m| m.set(all));
}

/// A thread's mapping for lazy shadows.
struct Mapping {
    /// Its address.
    base: usize,
    /// Its bytes.
    bytes: usize,
    /// The object (its address in this process) the last put's receiver wrote.
    object: usize,
    /// Puts into the object left that prepare a whole shadow in the thread's buffer.
    whole: u32,
    /// Its accessible pages, at most [`FAULT_LIMIT`]: those the last put's receiver touched
    /// (the rest is inaccessible).
    warm: Vec<usize>,
    /// A flag per page, all clear between puts: [`Lazy::touched`]'s, kept so that a put
    /// allocates none.
    prepared: Vec<Cell<bool>>,
}

/// A mapping of this thread for a lazy shadow of `object`, of at least `len` bytes, taken out
/// while in use: the one the last put into `object` used if it is large enough, else the least
/// recently used once there are [`KEEP`] (grown if too small), else a new one; `None` if no
/// address space is left.
fn take_mapping(object: usize, len: usize) -> Option<Box<Mapping>> {
    let mut all = MAPPINGS.with(Cell::take);
    let found = match all
        .iter()
        .position(|m| m.object == object && m.bytes >= len)
    {
        Some(i) => Some(all.remove(i)),
        None if all.len() >= KEEP => Some(all.remove(0)),
        None => None,
    };
    MAPPINGS.with(|m| m.set(all));
    match found {
        Some(m) if m.bytes >= len => return Some(m),
        // SAFETY: this thread's own reservation, which nothing uses now.
        Some(m) => unsafe { mem::unmap(m.base, m.bytes) },
        None => {}
    }
    let base = mem::reserve(None, len).ok()?;
    Some(Box::new(Mapping {
        base,
        bytes: len,
        object: 0,
        whole: 0,
        warm: Vec::new(),
        prepared: Vec::new(),
    }))
}

/// [`writes`] with the shadow prepared whole, in this thread's buffer (aligned like the
/// object, 16 bytes: the receiver's stores assume it); `written` holds a clear flag per range.
fn whole(plan: &Plan, run: &dyn Fn(usize), written: &mut [bool]) {
    let size = plan.real.len();
    let mut buffer = BUFFER.with(Cell::take);
    if buffer.len() < size.div_ceil(16) {
        buffer = vec![0u128; size.div_ceil(16)];
    }
    // SAFETY: `buffer` has at least `size` bytes.
    let shadow = unsafe { std::slice::from_raw_parts_mut(buffer.as_mut_ptr().cast::<u8>(), size) };
    for fill in [0x00u8, 0xff] {
        if plan.reads || fill == 0x00 {
            plan.prepare(shadow, 0, size, fill);
        } else {
            // A receiver that only stores needs the filler changed only where it was not yet
            // seen writing.
            for (r, _) in plan.ranges.iter().zip(&*written).filter(|(_, &w)| !w) {
                plan.prepare(shadow, r.start, r.end, fill);
            }
        }
        run(shadow.as_mut_ptr() as usize);
        for (w, r) in written.iter_mut().zip(plan.ranges) {
            *w = *w || plan.written(shadow, r, 0, size, fill);
        }
        if written.iter().all(|&w| w) {
            break;
        }
    }
    BUFFER.with(|b| b.set(buffer));
}

/// A lazily prepared shadow while a receiver runs against it.
struct Lazy<'a> {
    /// What the pages are prepared from.
    plan: &'a Plan<'a>,
    /// The mapping's address (inaccessible but the pages touched).
    base: usize,
    /// Its bytes (whole pages).
    len: usize,
    /// The object's bytes.
    size: usize,
    /// Bytes per page.
    page: usize,
    /// The filler of this run.
    fill: Cell<u8>,
    /// Which pages are prepared (the mapping's flags, cleared again after the put).
    touched: &'a [Cell<bool>],
    /// Faults taken.
    faults: Cell<usize>,
    /// The pages of the first [`FAULT_LIMIT`] faults, in order (after them, every page is
    /// prepared).
    first: [Cell<usize>; FAULT_LIMIT],
}

impl Lazy<'_> {
    /// The pages prepared so far.
    fn pages(&self) -> impl Iterator<Item = usize> + '_ {
        let faults = self.faults.get();
        let all = (faults > FAULT_LIMIT).then_some(0..self.touched.len());
        let first = self.first.iter().take(faults).map(Cell::get);
        all.into_iter()
            .flatten()
            .chain(first.filter(move |_| faults <= FAULT_LIMIT))
    }

    /// Counts the accessible pages `warm` of the mapping as prepared (they are prepared with
    /// the others before each run); those beyond this shadow are made inaccessible.
    fn warm(&self, warm: &[usize]) {
        for &p in warm {
            if let Some(slot) = self.touched.get(p) {
                slot.set(true);
                self.first[self.faults.get()].set(p);
                self.faults.set(self.faults.get() + 1);
            } else {
                // SAFETY: a page of this thread's reservation, which nothing uses now.
                let _ = unsafe { mem::protect(self.base + p * self.page, self.page, false) };
            }
        }
    }

    /// The object's bytes on page `p` (offsets).
    fn bytes(&self, p: usize) -> (usize, usize) {
        (
            (p * self.page).min(self.size),
            ((p + 1) * self.page).min(self.size),
        )
    }
}

/// The fault guard's first question: whether the fault at `addr` was a receiver touching a
/// page of this thread's lazy shadow, which is then prepared (the faulting instruction runs
/// again on return). Async-signal-safe: no allocation, one or two system calls.
pub(super) fn on_fault(addr: usize) -> bool {
    let lazy = ACTIVE.with(Cell::get);
    // SAFETY: set by `run_on` of this thread to a `Lazy` that outlives the receiver's run,
    // during which alone a fault of this thread can see it; cleared after.
    let Some(lazy) = (unsafe { lazy.as_ref() }) else {
        return false;
    };
    let base = lazy.base;
    if addr.wrapping_sub(base) >= lazy.len {
        return false;
    }
    let (page, pages) = (lazy.page, lazy.touched.len());
    let at = (addr - base) / page;
    let faults = lazy.faults.get();
    let todo = match lazy.first.get(faults) {
        Some(slot) => {
            slot.set(at);
            at..at + 1
        }
        None => 0..pages,
    };
    lazy.faults.set(faults + 1);
    #[cfg(test)]
    tests::FAULTS.with(|f| f.set(f.get() + 1));
    let (from, len) = (base + todo.start * page, todo.len() * page);
    // SAFETY: pages of this thread's reservation, which only this shadow uses.
    if unsafe { mem::protect(from, len, true) }.is_err() {
        return false;
    }
    // SAFETY: the mapping's pages being prepared are accessible now; the receiver, stopped at
    // the faulting instruction, holds no reference into them.
    let shadow = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, lazy.len) };
    for p in todo.filter(|&p| !lazy.touched[p].replace(true)) {
        let (lo, hi) = lazy.bytes(p);
        lazy.plan.prepare(shadow, lo, hi, lazy.fill.get());
    }
    true
}

/// The length of the descriptor whose base address is the word at `at` of `object`, if the
/// bytes after it hold a plausible descriptor type (version 0, rank at most 15, a known type,
/// an element length).
fn descriptor_len(object: &[u8], at: usize) -> Option<usize> {
    let t = object.get(at + 16..at + 32)?;
    let elem_len = usize::from_ne_bytes(t[0..8].try_into().ok()?);
    let version = i32::from_ne_bytes(t[8..12].try_into().ok()?);
    let (rank, kind) = (t[12], t[13]);
    let plausible = version == 0 && rank <= 15 && (1..=13).contains(&kind) && elem_len > 0;
    plausible.then_some(HEADER + rank as usize * DIM)
}

/// Whether some byte of `b` is not `fill`, 64 bytes per test (a put into element j of an
/// attached array was found after j × 8 bytes compared one by one: most of a scalar put's cost
/// into a large array).
fn differs(b: &[u8], fill: u8) -> bool {
    let pattern = u128::from_ne_bytes([fill; 16]);
    let word = |c: &[u8], k: usize| u128::from_ne_bytes(c[k..k + 16].try_into().expect("16"));
    let mut chunks = b.chunks_exact(64);
    chunks.by_ref().any(|c| {
        [0, 16, 32, 48]
            .iter()
            .fold(0, |acc, &k| acc | (word(c, k) ^ pattern))
            != 0
    }) || chunks.remainder().iter().any(|&x| x != fill)
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// Faults served on this thread's lazy shadows.
        pub(super) static FAULTS: Cell<usize> = const { Cell::new(0) };
    }

    #[test]
    fn differs_finds_any_byte() {
        for len in [0usize, 1, 15, 16, 17, 40, 63, 64, 65, 130] {
            for fill in [0x00u8, 0xff] {
                let mut b = vec![fill; len];
                assert!(!differs(&b, fill));
                for i in 0..len {
                    b[i] = 0x42;
                    assert!(differs(&b, fill), "byte {i} of {len}");
                    b[i] = fill;
                }
            }
        }
    }

    /// Runs `run` against lazy shadows of a 256 KiB object of 7s whose bytes 0..4096,
    /// 100000..140000 and 200000..262144 are attached, for 0x00 and then 0xFF; which ranges it
    /// wrote.
    fn lazily(run: &dyn Fn(usize)) -> Vec<bool> {
        lazily_if(true, run)
    }

    /// [`lazily`], the receiver reading the object (`reads`) or only storing into it.
    fn lazily_if(reads: bool, run: &dyn Fn(usize)) -> Vec<bool> {
        super::super::guard::catch_faults();
        let object = vec![7u8; 256 << 10];
        let ranges = [0..4096, 100_000..140_000, 200_000..262_144];
        let pointers = Pointers::new(&[], 0);
        let plan = Plan {
            real: &object,
            ranges: &ranges,
            pointers: &pointers,
            reads,
        };
        let mut written = Vec::new();
        writes(&plan, run, &mut written);
        assert!(
            object.iter().all(|&b| b == 7),
            "the probe never writes the object"
        );
        written
    }

    #[test]
    fn a_lazy_shadow_prepares_the_pages_touched() {
        // Reads an unattached byte and an attached one, writes the value a byte holds.
        let few = |base: usize| {
            // SAFETY: `base` is a shadow of the 256 KiB object.
            let b = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, 256 << 10) };
            assert_eq!(b[150_000], 7, "an unattached byte is the object's");
            assert!(
                b[5] == 0x00 || b[5] == 0xff,
                "an attached byte holds the filler"
            );
            b[120_000] = 7;
        };
        // Twice: the second put finds the pages the first touched accessible.
        assert_eq!(lazily(&few), [false, true, false]);
        assert_eq!(lazily(&few), [false, true, false]);
        // Touches every page, last first: after FAULT_LIMIT faults the rest is prepared at
        // once, as the pages are one by one.
        let every = |base: usize| {
            // SAFETY: as above.
            let b = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, 256 << 10) };
            for p in (0..b.len()).step_by(4096).rev() {
                let unattached = (4096..100_000).contains(&p) || (140_000..200_000).contains(&p);
                let attached = p < 4096 || (100_000..140_000).contains(&p) || p >= 200_000;
                if unattached {
                    assert_eq!(b[p], 7, "unattached byte {p}");
                } else if attached && p % 4096 == 0 && (p + 8 <= 140_000 || p >= 200_000) {
                    assert!(b[p] == 0x00 || b[p] == 0xff, "attached byte {p}");
                }
            }
            b[10] = 3;
            b[250_000] = 7;
        };
        assert_eq!(lazily(&every), [true, false, true]);
        assert_eq!(lazily(&few), [false, true, false]);
        // A write into a page an earlier put left accessible, of the value the byte holds.
        let warm = |base: usize| {
            // SAFETY: as above.
            let b = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, 256 << 10) };
            b[120_001] = 7;
            b[3] = 7;
        };
        assert_eq!(lazily(&warm), [true, true, false]);
    }

    /// A put into one attachment of a large object takes one run of the receiver when the
    /// others lie on pages it does not touch, and two when one of them shares a touched page.
    #[test]
    fn a_lazy_shadow_runs_again_only_for_ranges_on_touched_pages() {
        std::thread::spawn(|| {
            let runs = Cell::new(0);
            let one = |base: usize| {
                runs.set(runs.get() + 1);
                // SAFETY: `base` is a shadow of the 256 KiB object.
                let b = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, 256 << 10) };
                b[120_000] = 0;
            };
            assert_eq!(lazily(&one), [false, true, false]);
            assert_eq!(runs.get(), 2, "0x00 into 0x00: the second run sees it");
            let other = |base: usize| {
                runs.set(runs.get() + 1);
                // SAFETY: as above.
                let b = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, 256 << 10) };
                b[120_000] = 3;
            };
            runs.set(0);
            assert_eq!(lazily(&other), [false, true, false]);
            assert_eq!(runs.get(), 1, "ranges 0 and 2 lie on untouched pages");
            let shared = |base: usize| {
                runs.set(runs.get() + 1);
                // SAFETY: as above.
                let b = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, 256 << 10) };
                b[120_000] = 3;
                b[200_000] = 5;
                assert_eq!(b[199_999], 7, "page 48 holds range 2 and unattached bytes");
            };
            runs.set(0);
            assert_eq!(lazily(&shared), [false, true, true]);
            assert_eq!(
                runs.get(),
                1,
                "every range on a touched page was seen written"
            );
            let beside = |base: usize| {
                runs.set(runs.get() + 1);
                // SAFETY: as above.
                let b = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, 256 << 10) };
                b[140_001] = 3;
            };
            runs.set(0);
            assert_eq!(lazily(&beside), [false, false, false]);
            assert_eq!(runs.get(), 2, "page 34 holds the end of range 1");
        })
        .join()
        .expect("the probe's thread");
    }

    /// Puts that take turns between objects keep each object's pages: the second round of
    /// scalar puts into 3 objects (12 KiB each, attached in halves) takes no fault, and puts
    /// into more objects than a thread keeps mappings for take one each.
    #[test]
    fn puts_taking_turns_between_objects_keep_their_pages() {
        std::thread::spawn(|| {
            super::super::guard::catch_faults();
            let objects: Vec<Vec<u8>> = (0..KEEP + 1).map(|_| vec![7u8; 12 << 10]).collect();
            let ranges = [0..6 << 10, 6 << 10..12 << 10];
            let pointers = Pointers::new(&[], 0);
            let put = |o: &Vec<u8>| {
                let plan = Plan {
                    real: o,
                    ranges: &ranges,
                    pointers: &pointers,
                    reads: false,
                };
                let store = |base: usize| {
                    // SAFETY: `base` is a 12 KiB shadow.
                    unsafe { *((base + 100) as *mut u8) = 1 };
                };
                let mut written = vec![true; 5];
                writes(&plan, &store, &mut written);
                assert_eq!(written, [true, false]);
            };
            let faults = |objects: &[Vec<u8>]| {
                let before = FAULTS.with(Cell::get);
                objects.iter().for_each(put);
                FAULTS.with(Cell::get) - before
            };
            assert_eq!(faults(&objects[..3]), 3, "a first put faults once");
            assert_eq!(faults(&objects[..3]), 0, "the pages stayed prepared");
            assert_eq!(faults(&objects), 2, "two more objects, two faults");
            assert_eq!(
                faults(&objects),
                KEEP + 1,
                "one more object than mappings kept"
            );
        })
        .join()
        .expect("the probe's thread");
    }

    /// The receiver of an object of an intrinsic type only stores: its lazy shadow copies none
    /// of the object's unattached bytes (a fresh thread's mapping holds zeros there, then what
    /// the first run wrote, never the object's 7s), and the writes are found as for any object.
    #[test]
    fn a_plain_objects_shadow_copies_nothing_unattached() {
        std::thread::spawn(|| {
            let stores = |base: usize| {
                // SAFETY: `base` is a shadow of the 256 KiB object.
                let b = unsafe { std::slice::from_raw_parts_mut(base as *mut u8, 256 << 10) };
                assert_ne!(b[150_000], 7, "an unattached byte is not copied");
                assert!(
                    b[5] == 0x00 || b[5] == 0xff,
                    "an attached byte holds the filler"
                );
                b[150_000] = 9;
                b[120_000] = 7;
            };
            assert_eq!(lazily_if(false, &stores), [false, true, false]);
        })
        .join()
        .expect("the probe's thread");
    }
}
