//! The 64-bit immediate data of a notified put (`fi_writedata`): the sending image and the
//! tag, decoded by the target from its completion queue into a notification.
//!
//! Layout: bits 52..64 the 0-based source image (at most 4096 images), bit 51 the tag's bit
//! 62 (the engine's event tags), bits 0..51 the rest of the tag.

use crate::transport::ring::INLINE;
use crate::transport::Notification;

/// Bits of the tag below the flag.
const LOW: u64 = (1 << 51) - 1;
/// The tag bit carried as bit 51.
const HIGH: u64 = 1 << 62;
/// Images the source field can name.
const SOURCES: u32 = 1 << 12;

/// The immediate data for a notification from `source` with `tag`, if both fit.
pub(super) fn encode(source: u32, tag: u64) -> Option<u64> {
    if source >= SOURCES || tag & !(LOW | HIGH) != 0 {
        return None;
    }
    let high = u64::from(tag & HIGH != 0) << 51;
    Some(u64::from(source) << 52 | high | tag & LOW)
}

/// The notification the immediate data `d` announces (no payload; bytes and offset 0).
pub(super) fn decode(d: u64) -> Notification {
    let high = if d & (1 << 51) != 0 { HIGH } else { 0 };
    Notification {
        source: (d >> 52) as u32,
        tag: high | d & LOW,
        bytes: 0,
        offset: 0,
        inline: false,
        payload: [0; INLINE],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_and_tag_round_trip() {
        for (s, t) in [(0, 0), (4095, HIGH | LOW), (17, HIGH | 4096), (3, 1 << 30)] {
            let n = decode(encode(s, t).expect("fits"));
            assert_eq!((n.source, n.tag), (s, t));
        }
        assert_eq!(encode(4096, 1), None);
        assert_eq!(encode(1, 1 << 51), None);
        assert_eq!(encode(1, 1 << 63), None);
    }
}
