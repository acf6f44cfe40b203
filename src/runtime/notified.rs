//! Runtime glue of the notified-access extension: finding the coarray behind a plain address,
//! and posting attached events after accesses.

use super::registry::{RegKind, Token};
use super::Runtime;
use crate::engine::attach::Attachment;
use crate::engine::event;
use crate::engine::transfer::Side;
use crate::error::{CafError, CafResult};
use crate::transport::Place;

impl Runtime {
    /// The registration holding local bytes `[addr, addr + len)`: `(token, segment offset)`.
    pub fn locate(&self, addr: usize, len: usize, what: &str) -> CafResult<(&Token, usize)> {
        let not = || {
            CafError::InvalidArgument(format!("{what} is not (part of) a coarray of this image"))
        };
        let off = self.offset_of(addr).ok_or_else(not)?;
        let (tok, start, size) = self.registry.find(off).ok_or_else(not)?;
        if off + len > start + size.max(1) {
            return Err(not());
        }
        // SAFETY: registry entries point to live tokens created by `register`.
        Ok((unsafe { &*(tok as *const Token) }, off))
    }

    /// `event_attach`/`event_detach`: the event at local address `ev` and the local coarray
    /// bytes `[lo, hi)`.
    pub fn attachment(
        &self,
        ev: usize,
        lo: usize,
        hi: usize,
        on_get: bool,
    ) -> CafResult<Attachment> {
        let (etok, at) = self.locate(ev, 8, "the event argument")?;
        if etok.kind != RegKind::Event {
            return Err(CafError::InvalidArgument(
                "the first argument is not an EVENT_TYPE coarray".into(),
            ));
        }
        // gfortran addresses element i of an event array 8 bytes per element.
        let slot = etok.offset + event::slot((at - etok.offset) / 8);
        let (xtok, start) = self.locate(lo, hi - lo, "the attached variable")?;
        if xtok.kind != RegKind::Coarray {
            return Err(CafError::InvalidArgument(
                "only coarrays of intrinsic or derived type can be attached".into(),
            ));
        }
        Ok(Attachment {
            start,
            end: start + (hi - lo),
            slot,
            on_get,
        })
    }

    /// Posts the events attached to the bytes `side` covers (after the access completed).
    pub fn after_access(&self, side: &Side, is_get: bool) -> CafResult<()> {
        let Place::Remote { image, offset } = side.place else {
            return Ok(());
        };
        if !self.attachments.any() || side.layout.count() == 0 {
            return Ok(());
        }
        let (lo, hi) = side.layout.span(side.ty.size);
        let first = (offset as isize + lo) as usize;
        self.after_bytes(image, first, (hi - lo) as usize, is_get)
    }

    /// Posts the events attached to bytes `[offset, offset + n)` of `image`'s segment (after
    /// an access of them completed).
    pub fn after_bytes(
        &self,
        image: usize,
        offset: usize,
        n: usize,
        is_get: bool,
    ) -> CafResult<()> {
        self.attachments
            .each_hit(offset, offset + n, is_get, |slot| {
                self.events().post(image, slot)
            })
    }
}
