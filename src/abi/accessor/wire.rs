//! The bytes of owner-side accessor calls (`away.rs` asks, `serve.rs` answers): 8-byte words
//! and length-prefixed blobs padded to 8, in the byte order of the job's processes (every
//! image runs the same executable on the same architecture).

use crate::abi::descriptor::{GfcDescriptor, DIM, HEADER};
use std::mem::size_of;

/// What an owner-side call asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// Run a getter (`get_from_remote`, the source side of `transfer_between_remotes`).
    Get = 1,
    /// Run a receiver (`send_to_remote`, the destination side of a transfer).
    Send = 2,
    /// Run a presence accessor (`is_present_on_remote`).
    Present = 3,
}

/// An owner-side call: which accessor to run on what, and everything of the caller's it
/// needs.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Request<'a> {
    /// What to run.
    pub kind: Kind,
    /// The accessor's index in the hash-sorted table (the same in every image).
    pub index: i32,
    /// The caller's image number in its team (the accessor's `caller_image`).
    pub caller: i32,
    /// The object: a segment offset (a registered coarray of `size` bytes), or, when `size`
    /// is `None`, an address in the owner's process (an add_data of the owner's own call).
    pub base: usize,
    /// The registered coarray's bytes (`None`: `base` is an address).
    pub size: Option<usize>,
    /// The source's character length.
    pub src_charlen: Option<usize>,
    /// The destination's character length.
    pub dst_charlen: Option<usize>,
    /// Get: bytes of the result (per character); send: bytes of the scalar source (per
    /// character).
    pub elem: usize,
    /// Address of the add_data in the caller's process (a nested read of it goes back there).
    pub add_data_addr: usize,
    /// The add_data's bytes.
    pub add_data: &'a [u8],
    /// The descriptor of the object (get: source; send: destination; presence: the
    /// allocatable coarray's), or empty.
    pub base_desc: &'a [u8],
    /// Get: the destination descriptor (empty: a scalar result); send: the source's
    /// descriptor, contiguous (empty: a scalar source).
    pub other_desc: &'a [u8],
    /// Send: the source's bytes.
    pub data: &'a [u8],
}

/// An absent length on the wire.
const NONE: u64 = u64::MAX;

impl<'a> Request<'a> {
    /// The request's bytes.
    pub fn encode(&self) -> Vec<u8> {
        let opt = |v: Option<usize>| v.map_or(NONE, |v| v as u64);
        Writer::default()
            .word(self.kind as u64)
            .word(self.index as u32 as u64)
            .word(self.caller as u32 as u64)
            .word(self.base as u64)
            .word(opt(self.size))
            .word(opt(self.src_charlen))
            .word(opt(self.dst_charlen))
            .word(self.elem as u64)
            .word(self.add_data_addr as u64)
            .blob(self.add_data)
            .blob(self.base_desc)
            .blob(self.other_desc)
            .blob(self.data)
            .done()
    }

    /// The request in `b` (`None` for an unknown kind).
    pub fn decode(b: &'a [u8]) -> Option<Request<'a>> {
        let mut r = Reader::new(b);
        let kind = match r.word() {
            1 => Kind::Get,
            2 => Kind::Send,
            3 => Kind::Present,
            _ => return None,
        };
        let mut opt = || Some(r.word()).filter(|&v| v != NONE).map(|v| v as usize);
        let (index, caller, base) = (
            opt().unwrap_or(0) as u32 as i32,
            opt().unwrap_or(0) as u32 as i32,
            opt().unwrap_or(0),
        );
        let (size, src_charlen, dst_charlen) = (opt(), opt(), opt());
        let (elem, add_data_addr) = (opt().unwrap_or(0), opt().unwrap_or(0));
        Some(Request {
            kind,
            index,
            caller,
            base,
            size,
            src_charlen,
            dst_charlen,
            elem,
            add_data_addr,
            add_data: r.blob(),
            base_desc: r.blob(),
            other_desc: r.blob(),
            data: r.blob(),
        })
    }
}

/// Builds a message.
#[derive(Default)]
pub(super) struct Writer(Vec<u8>);

impl Writer {
    /// Appends one word.
    pub fn word(&mut self, v: u64) -> &mut Self {
        self.0.extend_from_slice(&v.to_ne_bytes());
        self
    }

    /// Appends `b` with its length.
    pub fn blob(&mut self, b: &[u8]) -> &mut Self {
        self.word(b.len() as u64);
        self.0.extend_from_slice(b);
        self.0.resize(self.0.len().next_multiple_of(8), 0);
        self
    }

    /// The message.
    pub fn done(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.0)
    }
}

/// Reads a message; a truncated one reads as zeros and empty blobs.
pub(super) struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// A reader at the start of `b`.
    pub fn new(b: &'a [u8]) -> Self {
        Reader { b, at: 0 }
    }

    /// The next word.
    pub fn word(&mut self) -> u64 {
        let v = self
            .b
            .get(self.at..self.at + 8)
            .map_or(0, |w| u64::from_ne_bytes(w.try_into().expect("8 bytes")));
        self.at += 8;
        v
    }

    /// The next blob.
    pub fn blob(&mut self) -> &'a [u8] {
        let n = self.word() as usize;
        let b = self
            .b
            .get(self.at..self.at.saturating_add(n))
            .unwrap_or(&[]);
        self.at = self.at.saturating_add(n.next_multiple_of(8));
        b
    }

    /// The rest of the message.
    pub fn rest(&self) -> &'a [u8] {
        self.b.get(self.at..).unwrap_or(&[])
    }
}

/// The meaningful bytes of descriptor `d` (header and `rank` dimensions); empty for null.
///
/// # Safety
/// `d` is null or a valid descriptor.
pub(super) unsafe fn desc_bytes<'a>(d: *const GfcDescriptor) -> &'a [u8] {
    if d.is_null() {
        return &[];
    }
    // SAFETY: a valid descriptor (caller's guarantee) holds its header and `rank` dimensions.
    unsafe {
        let n = (HEADER + (*d).rank() * DIM).min(size_of::<GfcDescriptor>());
        std::slice::from_raw_parts(d.cast::<u8>(), n)
    }
}

/// A descriptor made of bytes from [`desc_bytes`] (the rest zero).
pub(super) fn desc_from(b: &[u8]) -> Box<GfcDescriptor> {
    // SAFETY: a descriptor is integers and a raw pointer: all-zero bytes are a valid value.
    let mut d: Box<GfcDescriptor> = Box::new(unsafe { std::mem::zeroed() });
    let n = b.len().min(size_of::<GfcDescriptor>());
    // SAFETY: at most the descriptor's size is copied into it.
    unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), (&mut *d as *mut GfcDescriptor).cast(), n) };
    d
}

/// Copies the meaningful bytes of `from` (all but the base address) into `to`.
pub(super) fn set_desc(to: &mut GfcDescriptor, from: &GfcDescriptor) {
    let base = to.base_addr;
    // SAFETY: `from` is a valid descriptor.
    let b = unsafe { desc_bytes(from) };
    // SAFETY: at most the descriptor's size is copied into it.
    unsafe {
        std::ptr::copy_nonoverlapping(b.as_ptr(), (to as *mut GfcDescriptor).cast(), b.len())
    };
    to.base_addr = base;
}

/// An 16-byte aligned copy of `b` (accessors may assume the alignment of the objects they
/// read).
pub(super) fn aligned(b: &[u8]) -> Vec<u128> {
    let mut v = vec![0u128; b.len().div_ceil(16).max(1)];
    // SAFETY: `v` holds at least `b.len()` bytes.
    unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), v.as_mut_ptr().cast::<u8>(), b.len()) };
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_blobs_round_trip() {
        let msg = Writer::default()
            .word(7)
            .blob(b"abc")
            .word(u64::MAX)
            .blob(&[])
            .done();
        let mut r = Reader::new(&msg);
        assert_eq!(r.word(), 7);
        assert_eq!(r.blob(), b"abc");
        assert_eq!(r.word(), u64::MAX);
        assert_eq!(r.blob(), b"");
        assert_eq!(r.word(), 0, "past the end reads zero");
        assert_eq!(r.blob(), b"");
    }

    #[test]
    fn requests_round_trip() {
        let q = Request {
            kind: Kind::Send,
            index: 3,
            caller: -1,
            base: 4096,
            size: Some(24),
            src_charlen: None,
            dst_charlen: Some(5),
            elem: 1,
            add_data_addr: 0x7fff_0000,
            add_data: b"add",
            base_desc: &[],
            other_desc: &[1, 2, 3, 4, 5, 6, 7, 8, 9],
            data: b"hello",
        };
        assert_eq!(Request::decode(&q.encode()), Some(q));
        assert_eq!(Request::decode(&[0; 16]), None);
    }
}
