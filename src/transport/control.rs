//! The control block at the top (offset 0) of every image's segment.
//!
//! Layout: [`Header`], [`JobBlock`], barrier round counters, collective mailboxes, per-source
//! sync-images counters, then the notification ring ([`Layout::ring`]).
//! Every field is a word other images update with atomics; each group sits on its own cache line
//! so that writers of different groups never share a line. Offsets are the same in every
//! segment, so the engine addresses a field of image `i` as `(i, offset)`.

use std::sync::atomic::{AtomicU32, AtomicU64};

/// Bytes in a cache line (and the padding unit of every contended field).
pub const LINE: usize = 64;
/// Maximum dissemination-barrier rounds (supports 2^32 images).
pub const ROUNDS: usize = 32;
/// Team nesting levels with their own barrier and collective lines: the initial team (level
/// 0) and up to `LEVELS - 1` nested CHANGE TEAMs.
pub const LEVELS: usize = 8;
/// Value of [`Header::magic`] once an image has mapped everything and is running.
pub const MAGIC: u64 = 0x6665_7272_6f63_6166; // "ferrocaf"

/// Image life-cycle states kept in [`Header::status`].
pub mod status {
    /// Executing the program.
    pub const RUNNING: u32 = 0;
    /// Initiated normal termination (STOP or END PROGRAM).
    pub const STOPPED: u32 = 1;
    /// Initiated error termination (ERROR STOP or a runtime error).
    pub const ERROR_STOPPED: u32 = 2;
    /// Executed FAIL IMAGE or died.
    pub const FAILED: u32 = 3;
}

/// The first cache lines of the control block.
#[repr(C, align(64))]
pub struct Header {
    /// [`MAGIC`] once the image is up.
    pub magic: AtomicU64,
    /// One of [`status`].
    pub status: AtomicU32,
    /// STOP / ERROR STOP code once `status` is not RUNNING.
    pub code: AtomicU32,
    /// How many images have announced to this one that they terminated (normally, by failing
    /// or by error): while it is zero every image runs, and checks for stopped or failed
    /// images need no remote read.
    pub news: AtomicU32,
    /// Notifications sent to this image, counted by each sender once its message left
    /// (transports whose notifications are messages: the receiver drains until it has
    /// received as many, so a notification sent before an image control statement is never
    /// still in flight after it).
    pub notes: AtomicU32,
    /// 1 + the CPU this image last started a blocking wait on (0: none yet): a put into it
    /// from the same CPU keeps ordinary stores (`shm/stream.rs`).
    pub cpu: AtomicU32,
    _pad0: [u8; LINE - 28],
    /// Doorbell sequence; a futex word that wakers bump.
    pub bell: AtomicU32,
    /// The threads of this image sleeping on `bell`, and what they wait for
    /// (`transport/doorbell.rs`: a count, and a key in the upper half).
    pub sleepers: AtomicU64,
    _pad1: [u8; LINE - 16],
}

/// Job-wide words, meaningful in image 0's control block only.
#[repr(C, align(64))]
pub struct JobBlock {
    /// Images that initiated normal termination.
    pub stopped: AtomicU32,
    /// Images that failed.
    pub failed: AtomicU32,
    /// Non-zero once some image initiated error termination; holds the exit code, see
    /// [`JobBlock::encode_abort`]. Written once, by whoever won `abort_claim`.
    pub abort: AtomicU64,
    /// Image (0-based) whose turn it is to print its statistics at the end (FERROCAF_STATS).
    pub stats_turn: AtomicU32,
    /// 0, then 1 once someone (an image or the supervisor) has claimed the right to write
    /// `abort`: a 4-byte compare-and-swap, where a compare-and-swap of `abort` itself would
    /// take 8 bytes (which Open MPI 4.1 cannot do over shared memory, `transport/mpi/atomics.rs`).
    pub abort_claim: AtomicU32,
}

impl JobBlock {
    /// Encodes an error-termination exit code into the `abort` word.
    pub fn encode_abort(code: i32) -> u64 {
        (1u64 << 32) | code as u32 as u64
    }
    /// Decodes the exit code from an `abort` word, if termination started.
    pub fn abort_code(word: u64) -> Option<i32> {
        (word >> 32 != 0).then_some(word as u32 as i32)
    }
}

/// Byte offsets of the control-block fields for a job of `n` images.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    /// Number of images.
    pub n: usize,
}

/// Offset of the [`Header`].
pub const HEADER: usize = 0;
/// Offset of the [`JobBlock`].
pub const JOB: usize = 2 * LINE;
/// Offset of the team levels: [`LEVELS`] blocks of [`LEVEL_LINES`] lines. Each holds the barrier
/// round flags (`ROUNDS` padded counters), then the collective mailboxes (one [`Mailbox`] line
/// per binomial-tree level, written by the child at that level, then the line written by the
/// parent), then the [`Published`] line, then the slot lines of small collectives
/// ([`Layout::small`]).
pub const BARRIER: usize = 3 * LINE;
/// Lines reserved for collectives in each level.
pub const COLL_LINES: usize = ROUNDS + 1;
/// Steps of a small collective with their own receive slot: the fold step of a team that is
/// not a power of two, then one recursive-doubling round per bit of the largest power of two
/// (12 rounds: 4096 images; larger teams use the tree).
pub const SMALL_STEPS: usize = 13;
/// Small-collective slots per level: two sets of [`SMALL_STEPS`] (by collective parity), then
/// the central gather's own contribution, arrival counter and result lines.
pub const SMALL_LINES: usize = 2 * SMALL_STEPS + 3;
/// Lines per team level.
pub const LEVEL_LINES: usize = ROUNDS + COLL_LINES + 1 + SMALL_LINES;
/// Offset of the per-source sync-images counters.
pub const SYNC_IMAGES: usize = BARRIER + LEVELS * LEVEL_LINES * LINE;

/// A collective mailbox: how many messages were posted to it and the segment offset of the
/// latest sender's buffer. Writers store `offset` first, then bump `count` (release); protocol
/// order guarantees the reader consumed the previous message before the next is posted.
#[repr(C, align(64))]
pub struct Mailbox {
    /// Messages posted so far.
    pub count: AtomicU64,
    /// Offset of the sender's buffer in the sender's segment.
    pub offset: AtomicU64,
}

/// Payload bytes of a small-collective slot: a line holding a message count (u64, bumped
/// after the payload is written), then the payload.
pub const SLOT_BYTES: usize = LINE - 8;

/// Which small-collective line of a team level (see [`Layout::small`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmallLine {
    /// Receive slot of step `step` (0: fold, 1 + r: round r) for collectives of `parity`.
    Step {
        /// Collective number modulo 2.
        parity: usize,
        /// Fold (0) or recursive-doubling round + 1.
        step: usize,
    },
    /// This image's contribution to a central gather (written by itself).
    Mine,
    /// The central gather's arrival counter (the team leader's is used).
    Arrive,
    /// The central gather's result: count = generation, data = result (the leader's is used).
    Result,
}

/// What an image last published about its team at one level, for peers that find it
/// terminated: which team, and how many of that team's barriers and collectives it entered.
/// Written by the owner only, before it signals anyone in that operation.
#[repr(C, align(64))]
pub struct Published {
    /// Job-unique id of the team (`Team::id`).
    pub team: AtomicU64,
    /// Barriers of that team this image entered.
    pub barriers: AtomicU64,
    /// Collectives of that team this image entered.
    pub collectives: AtomicU64,
}

impl Layout {
    /// Offset of the block of team level `level`.
    fn level(level: usize) -> usize {
        debug_assert!(level < LEVELS);
        BARRIER + level * LEVEL_LINES * LINE
    }
    /// Offset of barrier round `r`'s counter at team level `level`.
    pub fn barrier(level: usize, r: usize) -> usize {
        Layout::level(level) + r * LINE
    }
    /// Offset of collective mailbox `k` at team level `level`: lines `0..ROUNDS` are written by
    /// the child at that tree level, line `ROUNDS` by the tree parent.
    pub fn coll_line(level: usize, k: usize) -> usize {
        Layout::level(level) + (ROUNDS + k) * LINE
    }
    /// Offset of the [`Published`] line of team level `level`.
    pub fn published(level: usize) -> usize {
        Layout::level(level) + (ROUNDS + COLL_LINES) * LINE
    }
    /// Offset of small-collective line `which` at team level `level`.
    pub fn small(level: usize, which: SmallLine) -> usize {
        let k = match which {
            SmallLine::Step { parity, step } => {
                debug_assert!(parity < 2 && step < SMALL_STEPS);
                parity * SMALL_STEPS + step
            }
            SmallLine::Mine => 2 * SMALL_STEPS,
            SmallLine::Arrive => 2 * SMALL_STEPS + 1,
            SmallLine::Result => 2 * SMALL_STEPS + 2,
        };
        Layout::published(level) + (1 + k) * LINE
    }
    /// Offset of the counter that image `src` bumps when it syncs with this image.
    pub fn sync_from(src: usize) -> usize {
        SYNC_IMAGES + src * LINE
    }
    /// Offset of the notification ring (its [`super::ring::Head`], then its cells).
    pub fn ring(&self) -> usize {
        (SYNC_IMAGES + self.n * LINE).next_multiple_of(4096)
    }
    /// Total bytes of the control block, rounded to 64 KiB.
    pub fn size(&self) -> usize {
        (self.ring() + super::ring::ring_bytes()).next_multiple_of(1 << 16)
    }
}

const _: () = assert!(std::mem::size_of::<Header>() == 2 * LINE);
const _: () = assert!(std::mem::size_of::<JobBlock>() <= LINE);
const _: () = assert!(std::mem::size_of::<Mailbox>() == LINE);
const _: () = assert!(std::mem::size_of::<Published>() == LINE);
