//! Coarray tokens: what `_gfortran_caf_register` hands back to compiled code, and the reverse
//! map from segment offsets to tokens (used by extensions that receive plain addresses).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Mutex;

/// What a registration reserved (gfortran's `caf_register_t`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegKind {
    /// A static or allocatable coarray (types 0, 1).
    Coarray,
    /// LOCK_TYPE variables (types 2, 3) and CRITICAL constructs (type 4).
    Lock,
    /// EVENT_TYPE variables (types 5, 6).
    Event,
    /// An allocatable component: token registered, memory allocated later (types 7, 8).
    Component,
}

/// Which heap a token's memory came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeapKind {
    /// Collective symmetric heap: the same offset on every image.
    Symmetric,
    /// This image's local heap (allocatable components): offsets differ between images.
    Local,
    /// No memory yet.
    None,
    /// Not a registration: the token a GCC 15+ accessor receives for the calling image's
    /// `add_data` (at `offset`, an address in this process), through which it fetches
    /// caller-side arrays with a nested `get_from_remote` that must resolve locally.
    Caller,
    /// Not a registration: the add_data token of an accessor this image runs for 0-based
    /// image `.0` (the caller), whose add_data is at `offset` in that image's process; a
    /// nested `get_from_remote` on it is served by the caller.
    CallerOn(usize),
}

/// The runtime's record of one registered coarray, owned through the opaque `caf_token_t`.
#[derive(Debug)]
pub struct Token {
    /// Byte offset of the coarray's memory in every image's segment.
    pub offset: usize,
    /// Bytes reserved.
    pub size: usize,
    /// What was registered.
    pub kind: RegKind,
    /// Where the memory lives.
    pub heap: HeapKind,
    /// Address of an allocatable coarray's descriptor (register type 1) in this image, else 0.
    /// gfortran's reference chains subscript such a coarray through it; its bounds and strides
    /// are the same on every image (allocation is collective with equal bounds, 9.7.1.2).
    pub desc: usize,
    /// The registered type is intrinsic (integer, logical, real, complex or character, the
    /// type code of the registration's descriptor): the memory holds no pointer, which
    /// event_attach's probe then need not look for (`abi/accessor/attach.rs`).
    pub plain: bool,
}

impl Token {
    /// The registration's segment bytes `[offset, offset + size)`: the object an access
    /// statement names (`Runtime::after_bytes`).
    pub fn span(&self) -> (usize, usize) {
        (self.offset, self.offset + self.size)
    }
}

/// Offset -> (token address, size) for every live symmetric registration, and the live
/// component tokens.
#[derive(Debug, Default)]
pub struct Registry {
    by_offset: Mutex<BTreeMap<usize, (usize, usize)>>,
    components: Mutex<BTreeSet<usize>>,
    /// Alias tokens by (aliased token address, byte offset into it), reused by every
    /// association of the same memory (gfortran 16 never deregisters them).
    aliases: Mutex<HashMap<(usize, usize), usize>>,
}

impl Registry {
    /// Records `token` (the address of its [`Token`]) at `offset` with `size` bytes.
    pub fn insert(&self, offset: usize, size: usize, token: usize) {
        self.map().insert(offset, (token, size));
    }

    /// Forgets the registration at `offset`.
    pub fn remove(&self, offset: usize) {
        self.map().remove(&offset);
    }

    /// The registration containing segment offset `off`: `(token address, start, size)`.
    pub fn find(&self, off: usize) -> Option<(usize, usize, usize)> {
        let map = self.map();
        let (&start, &(tok, size)) = map.range(..=off).next_back()?;
        (off < start + size.max(1)).then_some((tok, start, size))
    }

    /// Records a component token created by this runtime.
    pub fn add_component(&self, token: usize) {
        self.components
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(token);
    }

    /// Forgets a component token.
    pub fn remove_component(&self, token: usize) {
        self.components
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&token);
    }

    /// Whether `token` is a live component token of this runtime. gfortran 12 does not register
    /// every component token (nested components of scalar coarrays), so an allocation may
    /// arrive with an uninitialised token slot.
    pub fn is_component(&self, token: usize) -> bool {
        self.components
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(&token)
    }

    /// The alias token of `(token address, byte offset)` made by `make` the first time.
    pub fn alias(&self, key: (usize, usize), make: impl FnOnce() -> usize) -> usize {
        *self
            .aliases
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .entry(key)
            .or_insert_with(make)
    }

    /// Whether `token` is an alias token (register type 9), whose memory belongs to another.
    pub fn is_alias(&self, token: usize) -> bool {
        self.aliases
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .any(|&a| a == token)
    }

    fn map(&self) -> std::sync::MutexGuard<'_, BTreeMap<usize, (usize, usize)>> {
        self.by_offset.lock().unwrap_or_else(|p| p.into_inner())
    }
}
