//! The incoming notification ring of an image: a bounded multi-producer, single-consumer ring
//! of 64-byte cells in the image's segment.
//!
//! Cell `i` serves positions `i, i + CAP, i + 2·CAP, ...` ("laps"). Its sequence word is `2·lap`
//! while free for that lap and `2·lap + 1` once a message of that lap is published, so zeroed
//! memory is an empty ring. A producer claims position `tail` by CAS, writes the cell's words,
//! then publishes with a release store of the sequence; the consumer reads a cell after an
//! acquire load of its sequence and frees it for the next lap. A cell still holding the
//! previous lap's message means the ring is full: `push` returns [`Full`] (back-pressure is a
//! value; the caller decides how to wait).

use crate::sync::{AtomicU32, AtomicU64, Ordering};

/// Cells per ring.
pub const CAP: usize = 1024;
/// Payload bytes that travel inside a cell.
pub const INLINE: usize = 32;
/// Bytes per cell.
pub const CELL: usize = 64;

/// One notification.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Notification {
    /// 0-based initial-team index of the sender.
    pub source: u32,
    /// Matching tag.
    pub tag: u64,
    /// Bytes the notified access moved (0 for a pure notification).
    pub bytes: u32,
    /// Target offset in the receiver's segment of the notified access.
    pub offset: u64,
    /// Whether `payload[..bytes]` carries the data (to be stored at `offset` on receipt).
    pub inline: bool,
    /// Inline data.
    pub payload: [u8; INLINE],
}

/// The ring is full; the message was not sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Full;

/// A cell: sequence, tag, source|bytes|inline, offset, then four payload words.
#[repr(C, align(64))]
pub struct Cell {
    seq: AtomicU64,
    words: [AtomicU64; 7],
}

/// The producer-shared part of a ring: the claim counter and the "a producer waits" flag.
#[repr(C, align(64))]
pub struct Head {
    /// Next position to claim.
    pub tail: AtomicU64,
    /// Set by a producer that found the ring full and waits; the consumer clears it and wakes.
    pub blocked: AtomicU32,
}

/// A view of a ring: its head and its cells (in shared memory, or any memory in tests).
pub struct Ring<'a> {
    /// Producer-shared state.
    pub head: &'a Head,
    /// The `CAP` cells.
    pub cells: &'a [Cell],
}

const INLINE_BIT: u64 = 1 << 63;

impl Ring<'_> {
    /// Publishes `n`, or returns [`Full`].
    pub fn push(&self, n: &Notification) -> Result<(), Full> {
        let cap = self.cells.len() as u64;
        loop {
            let pos = self.head.tail.load(Ordering::Relaxed);
            let cell = &self.cells[(pos % cap) as usize];
            let free = 2 * (pos / cap);
            let seq = cell.seq.load(Ordering::Acquire);
            if seq < free {
                return Err(Full);
            }
            if seq > free {
                continue;
            }
            if self
                .head
                .tail
                .compare_exchange_weak(pos, pos + 1, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
            {
                continue;
            }
            let flags = if n.inline { INLINE_BIT } else { 0 };
            cell.words[0].store(n.tag, Ordering::Relaxed);
            cell.words[1].store(
                n.source as u64 | (n.bytes as u64) << 32 | flags,
                Ordering::Relaxed,
            );
            cell.words[2].store(n.offset, Ordering::Relaxed);
            for (k, chunk) in n.payload.chunks_exact(8).enumerate() {
                let v = u64::from_ne_bytes(chunk.try_into().expect("8-byte chunk"));
                cell.words[3 + k].store(v, Ordering::Relaxed);
            }
            cell.seq.store(free + 1, Ordering::Release);
            return Ok(());
        }
    }

    /// Takes the message at consumer position `*next`, if published, and advances `*next`.
    pub fn pop(&self, next: &mut u64) -> Option<Notification> {
        let cap = self.cells.len() as u64;
        let cell = &self.cells[(*next % cap) as usize];
        let lap = *next / cap;
        if cell.seq.load(Ordering::Acquire) != 2 * lap + 1 {
            return None;
        }
        let w1 = cell.words[1].load(Ordering::Relaxed);
        let mut payload = [0u8; INLINE];
        for (k, chunk) in payload.chunks_exact_mut(8).enumerate() {
            chunk.copy_from_slice(&cell.words[3 + k].load(Ordering::Relaxed).to_ne_bytes());
        }
        let n = Notification {
            source: w1 as u32,
            tag: cell.words[0].load(Ordering::Relaxed),
            bytes: ((w1 >> 32) as u32) & !(1 << 31),
            offset: cell.words[2].load(Ordering::Relaxed),
            inline: w1 & INLINE_BIT != 0,
            payload,
        };
        cell.seq.store(2 * (lap + 1), Ordering::Release);
        *next += 1;
        Some(n)
    }
}

/// Bytes a ring occupies (head line plus cells).
pub const fn ring_bytes() -> usize {
    CELL + CAP * CELL
}

const _: () = assert!(std::mem::size_of::<Cell>() == CELL);
const _: () = assert!(std::mem::size_of::<Head>() == CELL);

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    fn zeroed(n: usize) -> (Box<Head>, Vec<Cell>) {
        // SAFETY: Head and Cell consist of atomics, for which all-zero bytes are valid values
        // (and zero is exactly the "empty ring" state).
        unsafe {
            (
                Box::new(std::mem::zeroed()),
                (0..n).map(|_| std::mem::zeroed()).collect(),
            )
        }
    }

    fn msg(source: u32, tag: u64) -> Notification {
        let mut payload = [0u8; INLINE];
        payload[0] = tag as u8;
        Notification {
            source,
            tag,
            bytes: 1,
            offset: 64 * tag,
            inline: true,
            payload,
        }
    }

    #[test]
    fn fifo_and_full() {
        let (h, cells) = zeroed(4);
        let r = Ring {
            head: &h,
            cells: &cells,
        };
        let mut next = 0;
        for lap in 0..3u64 {
            for k in 0..4 {
                r.push(&msg(1, lap * 4 + k)).unwrap();
            }
            assert_eq!(r.push(&msg(1, 99)), Err(Full));
            for k in 0..4 {
                assert_eq!(r.pop(&mut next), Some(msg(1, lap * 4 + k)));
            }
            assert_eq!(r.pop(&mut next), None);
        }
    }

    #[test]
    fn concurrent_producers_lose_nothing() {
        let (h, cells) = zeroed(64);
        let r = Ring {
            head: &h,
            cells: &cells,
        };
        let per = 20_000u64;
        let mut seen = vec![0u64; 3];
        std::thread::scope(|s| {
            for p in 0..3u32 {
                let r = &r;
                s.spawn(move || {
                    for k in 0..per {
                        while r.push(&msg(p, k)).is_err() {
                            std::hint::spin_loop();
                        }
                    }
                });
            }
            let mut next = 0;
            let mut got = 0;
            while got < 3 * per {
                if let Some(n) = r.pop(&mut next) {
                    assert_eq!(n.tag, seen[n.source as usize], "per-producer order");
                    assert_eq!(n.payload[0], n.tag as u8);
                    seen[n.source as usize] += 1;
                    got += 1;
                }
            }
        });
        assert_eq!(seen, vec![per; 3]);
    }
}

#[cfg(all(test, loom))]
mod loom_tests {
    use super::*;
    use loom::sync::Arc;

    fn cell() -> Cell {
        Cell {
            seq: AtomicU64::new(0),
            words: std::array::from_fn(|_| AtomicU64::new(0)),
        }
    }

    struct Shared {
        head: Head,
        cells: Vec<Cell>,
    }

    fn msg(source: u32, tag: u64) -> Notification {
        let mut payload = [0u8; INLINE];
        payload[7] = tag as u8;
        Notification {
            source,
            tag,
            bytes: 8,
            offset: tag,
            inline: true,
            payload,
        }
    }

    /// Two producers race for the single cell of a one-cell ring (so one of them meets a full
    /// ring and retries) while the consumer frees it: every message arrives exactly once and
    /// whole (payload and header words published together with the sequence).
    #[test]
    fn producers_and_consumer() {
        let mut b = loom::model::Builder::new();
        b.preemption_bound = Some(1);
        b.max_branches = 100_000;
        b.check(|| {
            let s = Arc::new(Shared {
                head: Head {
                    tail: AtomicU64::new(0),
                    blocked: AtomicU32::new(0),
                },
                cells: vec![cell()],
            });
            let producers: Vec<_> = (0..2u32)
                .map(|p| {
                    let s = s.clone();
                    loom::thread::spawn(move || {
                        let r = Ring {
                            head: &s.head,
                            cells: &s.cells,
                        };
                        while r.push(&msg(p, 10 * p as u64)).is_err() {
                            loom::thread::yield_now();
                        }
                    })
                })
                .collect();
            let r = Ring {
                head: &s.head,
                cells: &s.cells,
            };
            let (mut next, mut seen) = (0u64, [0u64; 2]);
            while seen.iter().sum::<u64>() < 2 {
                match r.pop(&mut next) {
                    Some(n) => {
                        let p = n.source as usize;
                        assert_eq!(n, msg(n.source, 10 * p as u64 + seen[p]));
                        seen[p] += 1;
                    }
                    None => loom::thread::yield_now(),
                }
            }
            producers.into_iter().for_each(|t| t.join().unwrap());
        });
    }
}
