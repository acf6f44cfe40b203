//! Large copies into another image's memory with streaming (non-temporal) stores, when the
//! two images' cores share no cache.
//!
//! A put usually writes lines the target image holds in its own cache: it read them (the data
//! it sent back, the halo it consumed). Ordinary stores first take every line from that cache,
//! a read for ownership per line; streaming stores write whole lines to memory without reading
//! them, and the target then reads them from memory. Which costs less depends on where the
//! read for ownership is served ([`Domains`]):
//! - The two cores share no cache (the 2-core EPYC VM of bench/NOTES.md, "Large puts", or two
//!   chiplets or sockets): the read crosses the chip. A put-and-answer ping-pong of 256 KiB to
//!   1 MiB ran at memory bandwidth streamed, and 1.2–6× slower with ordinary stores.
//! - The two cores share their last-level cache (the 2-core Xeon VM with one 300 MiB L3 of
//!   bench/NOTES.md, "Streaming stores only between cores without a shared cache"): the read is
//!   served by that cache, and the same ping-pong ran 1.6–1.8× faster with ordinary stores.
//!
//! Below [`STREAM_MIN`] ordinary stores win either way, the target then reading the lines from
//! this core's cache rather than from memory.

use crate::sys::cache::Domains;
use crate::transport::control::Header;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// The smallest copy into another image made with streaming stores (bench/NOTES.md: 16 KiB
/// was still faster with ordinary stores, 32 KiB equal, 64 KiB and more faster streamed).
pub const STREAM_MIN: usize = 32 * 1024;

/// 1 + the CPU this thread runs on (0 when the kernel does not say).
fn this_cpu() -> u32 {
    // SAFETY: no arguments; glibc reads it from the thread's rseq area or asks the kernel.
    let c = unsafe { libc::sched_getcpu() };
    u32::try_from(c).map_or(0, |c| c + 1)
}

/// Records in this image's `header` the CPU it waits on (a blocking wait starts): a large put
/// into it from a CPU that shares a cache with that one then keeps ordinary stores
/// ([`worth_streaming`]). Stores only when the CPU changed, so the line stays shared with the
/// images that read it.
pub fn publish_cpu(header: &Header) {
    let c = this_cpu();
    if header.cpu.load(Ordering::Relaxed) != c {
        header.cpu.store(c, Ordering::Relaxed);
    }
}

/// What a blocking wait of this image tells the large-put rule when it starts: the CPU it
/// waits on ([`publish_cpu`]), and that its current execution segment ended
/// ([`segment_ends`]).
pub fn wait_begins(header: &Header) {
    publish_cpu(header);
    segment_ends();
}

/// Whether a copy of `n` bytes into the image of `header` should stream: at least
/// [`STREAM_MIN`] bytes, and the CPU it last waited on shares no cache with this one
/// ([`Domains::share`]). That includes two images that take turns on one core (more runnable
/// processes than cores): streamed data would have to come back from memory (bench/NOTES.md,
/// "Large puts", beside 2 CPU-bound processes).
pub fn worth_streaming(header: &Header, n: usize) -> bool {
    streams_between(Domains::here(), header, n)
}

/// [`worth_streaming`] on the machine whose caches `domains` describes.
fn streams_between(domains: &Domains, header: &Header, n: usize) -> bool {
    let cpu = |c: u32| c.checked_sub(1).map(|c| c as usize);
    n >= STREAM_MIN && !domains.share(cpu(header.cpu.load(Ordering::Relaxed)), cpu(this_cpu()))
}

/// How many execution segments (Fortran 2018 11.6.2) of this image have ended: every blocking
/// wait and SYNC MEMORY ends one ([`segment_ends`]).
static SEGMENT: AtomicU64 = AtomicU64::new(0);

/// How many recent streamed destinations [`RECENT`] remembers.
const RECENT_LEN: usize = 4;

/// The destinations of this image's last streamed copies, each with the [`SEGMENT`] it was
/// made in (0: none), written round robin at [`NEXT`].
static RECENT: [(AtomicUsize, AtomicU64); RECENT_LEN] =
    [const { (AtomicUsize::new(0), AtomicU64::new(0)) }; RECENT_LEN];

/// The [`RECENT`] entry written next.
static NEXT: AtomicUsize = AtomicUsize::new(0);

/// Ends this image's current execution segment: a blocking wait or SYNC MEMORY, after which
/// another image may legitimately read what this one put ([`first_in_segment`]).
pub fn segment_ends() {
    SEGMENT.store(SEGMENT.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
}

/// Whether a streamed copy to `d` would be the first to `d` in this image's current segment,
/// and if so remembers it. A copy that rewrites the destination of a streamed copy of the same
/// segment keeps ordinary stores: no image can have read the lines in between (that takes an
/// image control statement of this image, whose wait or SYNC MEMORY ends the segment), so they
/// are in no cache, and after this copy they stay in this core's, where the next rewrite finds
/// them (`put_bandwidth`: 1 MiB puts to one place, back to back, 27 GB/s streamed against 47
/// cached).
pub fn first_in_segment(d: usize) -> bool {
    let seg = SEGMENT.load(Ordering::Relaxed) + 1;
    let seen = RECENT
        .iter()
        .any(|(a, s)| a.load(Ordering::Relaxed) == d && s.load(Ordering::Relaxed) == seg);
    if !seen {
        let (a, s) = &RECENT[NEXT.load(Ordering::Relaxed) % RECENT_LEN];
        a.store(d, Ordering::Relaxed);
        s.store(seg, Ordering::Relaxed);
        NEXT.store(
            NEXT.load(Ordering::Relaxed).wrapping_add(1),
            Ordering::Relaxed,
        );
    }
    !seen
}

/// Copies `n` bytes from `s` to `d`, with streaming stores when `n` is at least
/// [`STREAM_MIN`]; ordered before every later store of this thread (a release store that
/// publishes the data, an EVENT POST) like an ordinary copy.
///
/// # Safety
/// `s` is readable and `d` writable for `n` bytes, and the two ranges do not overlap.
pub unsafe fn copy(d: *mut u8, s: *const u8, n: usize) {
    if n < STREAM_MIN {
        // SAFETY: the caller's guarantee.
        unsafe { std::ptr::copy(s, d, n) };
        return;
    }
    // SAFETY: the caller's guarantee.
    unsafe { stream(d, s, n) }
}

/// The streaming copy: the bytes up to the first 16-byte boundary of `d` and the tail after
/// the last whole 64-byte block with ordinary stores, the blocks with `movntdq` (SSE2, in every
/// x86-64), then `sfence`, without which later stores could become visible first.
///
/// # Safety
/// As for [`copy`].
#[cfg(target_arch = "x86_64")]
unsafe fn stream(d: *mut u8, s: *const u8, n: usize) {
    use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_sfence, _mm_stream_si128};
    let head = d.align_offset(16).min(n);
    let body = (n - head) & !63;
    // SAFETY: every access stays within the first `n` bytes of `s` and `d` (the caller's
    // guarantee); `d + head` is 16-byte aligned, as `movntdq` requires.
    unsafe {
        std::ptr::copy(s, d, head);
        let (d, s) = (d.add(head), s.add(head));
        for i in (0..body).step_by(64) {
            let (dp, sp) = (d.add(i) as *mut __m128i, s.add(i) as *const __m128i);
            let v = [
                _mm_loadu_si128(sp),
                _mm_loadu_si128(sp.add(1)),
                _mm_loadu_si128(sp.add(2)),
                _mm_loadu_si128(sp.add(3)),
            ];
            for (k, x) in v.into_iter().enumerate() {
                _mm_stream_si128(dp.add(k), x);
            }
        }
        _mm_sfence();
        std::ptr::copy(s.add(body), d.add(body), n - head - body);
    }
}

/// Elsewhere an ordinary copy.
///
/// # Safety
/// As for [`copy`].
#[cfg(not(target_arch = "x86_64"))]
unsafe fn stream(d: *mut u8, s: *const u8, n: usize) {
    // SAFETY: the caller's guarantee.
    unsafe { std::ptr::copy(s, d, n) }
}

#[cfg(test)]
mod tests {
    use super::{copy, first_in_segment, publish_cpu, segment_ends, streams_between, this_cpu};
    use super::{Domains, Header, RECENT_LEN, SEGMENT, STREAM_MIN};
    use std::path::Path;
    use std::sync::atomic::Ordering;

    /// Within one segment, a place streamed to is not streamed to again (among the last
    /// [`RECENT_LEN`] places), while other places are; after the segment ends every place is.
    #[test]
    fn rewrites_within_a_segment_keep_ordinary_stores() {
        // Other tests' waits may end segments at any time: a try counts only when none did.
        let quiet = (0..1000).any(|k| {
            let seg = SEGMENT.load(Ordering::Relaxed);
            let base = 0x1000_0000 + k * 0x10_0000;
            let places: Vec<usize> = (0..RECENT_LEN).map(|i| base + i * 4096).collect();
            let first = places.iter().all(|&d| first_in_segment(d));
            let again = places.iter().any(|&d| first_in_segment(d));
            let other = first_in_segment(base + 0x8_0000);
            segment_ends();
            let after = places.iter().all(|&d| first_in_segment(d));
            if SEGMENT.load(Ordering::Relaxed) != seg + 1 {
                return false;
            }
            assert!(first, "first copies to each place");
            assert!(!again, "rewrites in the same segment");
            assert!(other, "another place");
            assert!(after, "the next segment");
            true
        });
        assert!(quiet, "no try without another thread ending segments");
    }

    /// Where the cores share no cache, a large put streams into an image that waits on
    /// another CPU (or has not waited yet), not into one that last waited on this CPU, and a
    /// small one never does.
    #[test]
    fn streams_only_large_copies_to_an_image_on_another_cpu() {
        let apart = Domains::read(Path::new("/nonexistent/ferrocaf"));
        // SAFETY: a Header is atomics and padding: all-zero bytes are a valid value.
        let h: Header = unsafe { std::mem::zeroed() };
        assert!(
            streams_between(&apart, &h, STREAM_MIN),
            "no wait published yet"
        );
        assert!(!streams_between(&apart, &h, STREAM_MIN - 1));
        h.cpu.store(this_cpu() + 1, Ordering::Relaxed);
        assert!(streams_between(&apart, &h, STREAM_MIN), "another CPU");
        if this_cpu() != 0 {
            // The thread may move between the two calls: one of many tries sees it stay.
            let stays = (0..100).any(|_| {
                publish_cpu(&h);
                !streams_between(&apart, &h, 1 << 20)
            });
            assert!(stays, "this CPU");
        }
    }

    /// Where every core shares one cache, no put streams, into whatever CPU.
    #[test]
    fn never_streams_where_all_cores_share_a_cache() {
        let one = Domains::all_shared(1024);
        // SAFETY: a Header is atomics and padding: all-zero bytes are a valid value.
        let h: Header = unsafe { std::mem::zeroed() };
        assert!(!streams_between(&one, &h, 1 << 20), "no wait published yet");
        h.cpu.store(this_cpu() + 1, Ordering::Relaxed);
        assert!(!streams_between(&one, &h, 1 << 20), "another CPU");
    }

    /// Every size around the threshold and around the 64-byte blocks, at every alignment of
    /// either side within a 16-byte unit, copies exactly its bytes and nothing beside them.
    #[test]
    fn copies_exactly_the_bytes_at_every_size_and_alignment() {
        let sizes = [0, 1, 63, 64, 65, STREAM_MIN - 1, STREAM_MIN, STREAM_MIN + 1]
            .into_iter()
            .chain((0..80).map(|k| STREAM_MIN + 3 * 64 + k))
            .chain([1 << 20, (1 << 20) + 17]);
        for n in sizes {
            for (da, sa) in [(0, 0), (1, 0), (0, 7), (15, 3), (8, 8), (9, 14)] {
                let src: Vec<u8> = (0..n + 32).map(|i| (i * 7 + 3) as u8).collect();
                let mut dst = vec![0xA5u8; n + 64];
                // SAFETY: `src` has `sa + n` bytes, `dst` room for `da + n` (both < 16 + n).
                unsafe { copy(dst.as_mut_ptr().add(da), src.as_ptr().add(sa), n) };
                assert!(dst[..da].iter().all(|&b| b == 0xA5), "{n} bytes: before");
                assert_eq!(&dst[da..da + n], &src[sa..sa + n], "{n} bytes at {da}/{sa}");
                assert!(dst[da + n..].iter().all(|&b| b == 0xA5), "{n} bytes: after");
            }
        }
    }
}
