//! event_attach for puts made by receivers. A receiver writes somewhere in the target's
//! object, and only its code knows where. When events are attached to part of that object, the
//! receiver first runs twice against shadow copies of the object whose attached bytes hold
//! 0x00 in one and 0xFF in the other: a byte the receiver writes differs from the filler in at
//! least one of them, whatever value it writes. The events whose bytes were written are posted
//! after the real put, as for every other put (Fortran's notified-access extension,
//! docs/ARCHITECTURE.md). Without attachments this is one load.

use super::target::Target;
use crate::error::CafResult;
use crate::runtime::Runtime;

/// Runs `run(base)` (a receiver call) on the target's object and posts the events attached to
/// the bytes it wrote.
pub(super) fn put(rt: &Runtime, target: &Target, run: &dyn Fn(usize)) -> CafResult<()> {
    let Some(t) = target.token.filter(|_| rt.attachments.any()) else {
        run(target.addr);
        return Ok(());
    };
    let attached = rt.attachments.overlapping(t.offset, t.offset + t.size);
    if attached.is_empty() {
        run(target.addr);
        return Ok(());
    }
    let mut written = vec![false; attached.len()];
    for fill in [0x00u8, 0xff] {
        // SAFETY: the target's object, `t.size` bytes mapped in this process (resolve).
        let real = unsafe { std::slice::from_raw_parts(target.addr as *const u8, t.size) };
        // Aligned like the object (16 bytes): the receiver's stores assume it.
        let mut shadow = vec![0u128; t.size.div_ceil(16)];
        // SAFETY: `shadow` has at least `t.size` bytes.
        let bytes =
            unsafe { std::slice::from_raw_parts_mut(shadow.as_mut_ptr().cast::<u8>(), t.size) };
        bytes.copy_from_slice(real);
        let range = |a: &crate::engine::attach::Attachment| {
            a.start.max(t.offset) - t.offset..a.end.min(t.offset + t.size) - t.offset
        };
        for a in &attached {
            bytes[range(a)].fill(fill);
        }
        run(bytes.as_mut_ptr() as usize);
        for (w, a) in written.iter_mut().zip(&attached) {
            *w |= bytes[range(a)].iter().any(|&b| b != fill);
        }
    }
    run(target.addr);
    let mut posted: Vec<usize> = Vec::new();
    for (a, _) in attached.iter().zip(&written).filter(|(_, &w)| w) {
        if !posted.contains(&a.slot) {
            posted.push(a.slot);
            rt.events().post(target.image, a.slot)?;
        }
    }
    Ok(())
}
