//! A notification as a message of [`CELL`] bytes, for transports that send notifications over
//! a network (MPI's eager messages, libfabric sends): tag, source|bytes|inline, offset, the
//! inline payload, zero padding.

use super::ring::{CELL, INLINE};
use super::Notification;

/// Words of a message.
pub const WORDS: usize = CELL / 8;
/// Flag bit of the second word: the payload travels inline.
const INLINE_BIT: u64 = 1 << 63;

/// Encodes `n` as a message.
pub fn encode(n: &Notification) -> [u64; WORDS] {
    let mut c = [0u64; WORDS];
    c[0] = n.tag;
    c[1] = n.source as u64 | (n.bytes as u64) << 32 | if n.inline { INLINE_BIT } else { 0 };
    c[2] = n.offset;
    for (k, chunk) in n.payload.chunks_exact(8).enumerate() {
        c[3 + k] = u64::from_ne_bytes(chunk.try_into().expect("8-byte chunk"));
    }
    c
}

/// Decodes a message.
pub fn decode(c: &[u64; WORDS]) -> Notification {
    let mut payload = [0u8; INLINE];
    for (k, chunk) in payload.chunks_exact_mut(8).enumerate() {
        chunk.copy_from_slice(&c[3 + k].to_ne_bytes());
    }
    Notification {
        tag: c[0],
        source: c[1] as u32,
        bytes: (c[1] >> 32) as u32 & 0x7fff_ffff,
        inline: c[1] & INLINE_BIT != 0,
        offset: c[2],
        payload,
    }
}

const _: () = assert!(3 + INLINE / 8 <= WORDS);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip() {
        let mut payload = [0u8; INLINE];
        payload
            .iter_mut()
            .enumerate()
            .for_each(|(i, b)| *b = i as u8);
        let n = Notification {
            source: 7,
            tag: u64::MAX - 3,
            bytes: 24,
            offset: 1 << 40,
            inline: true,
            payload,
        };
        assert_eq!(decode(&encode(&n)), n);
        let m = Notification { inline: false, ..n };
        assert_eq!(decode(&encode(&m)), m);
    }
}
