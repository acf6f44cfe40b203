//! Runtime glue of the notified-access extension: finding the coarray behind a plain address,
//! and posting attached events after accesses.

use super::registry::{RegKind, Token};
use super::Runtime;
use crate::engine::attach::{Attachment, Cover};
use crate::engine::event::{self, Strategy, EVENT_TAG};
use crate::engine::stats::Counter;
use crate::engine::status::check_alive;
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

    /// Posts the events of one access of coarray `object` (its registration's segment range,
    /// the same on every image) through `side`, after the access completed (`after_bytes`).
    pub fn after_access(&self, object: (usize, usize), side: &Side, is_get: bool) -> CafResult<()> {
        let Place::Remote { image, offset } = side.place else {
            return Ok(());
        };
        if !self.attachments.any() {
            return Ok(());
        }
        let bytes = (side.layout.count() > 0).then(|| {
            let (lo, hi) = side.layout.span(side.ty.size);
            let first = (offset as isize + lo) as usize;
            (first, first + (hi - lo) as usize)
        });
        self.after_bytes(image, object, bytes, is_get)
    }

    /// Posts the events of one access statement on `image` (after it completed) of the coarray
    /// object at segment range `object`, which moved the segment bytes `bytes` (`None`: it
    /// moved none, or which ones only the accessor's code knows). An event attached to the
    /// whole object is posted once, whatever the statement moved: nothing (an empty section),
    /// or bytes outside the object (an allocatable component's data), so a consumer counts
    /// statements. Otherwise the events attached to `bytes` are, each once.
    pub fn after_bytes(
        &self,
        image: usize,
        object: (usize, usize),
        bytes: Option<(usize, usize)>,
        is_get: bool,
    ) -> CafResult<()> {
        if let Cover::Whole(slot) = self.attachments.cover(object.0, object.1, is_get) {
            return self.events().post(image, slot);
        }
        let Some((lo, hi)) = bytes else {
            return Ok(());
        };
        self.attachments
            .each_hit(lo, hi, is_get, |slot| self.events().post(image, slot))
    }

    /// An attached put as one network transaction: `n` contiguous bytes from local address
    /// `src` to `(image, offset)`, when they hit exactly one attached event, as a counted put
    /// if that is the transport's counted event ([`Transport::put_counted`], any event
    /// strategy), else as a notified put when events are notifications (`p2p`, `notified`;
    /// [`Transport::put_notified`]). `None`, having done nothing, when neither applies: the
    /// caller puts, then posts.
    ///
    /// [`Transport::put_counted`]: crate::transport::Transport::put_counted
    /// [`Transport::put_notified`]: crate::transport::Transport::put_notified
    pub fn put_posting(
        &self,
        image: usize,
        offset: usize,
        src: usize,
        n: usize,
    ) -> Option<CafResult<()>> {
        // Neither applies to shared memory with atomic events: no need to look for the event.
        if !self.attachments.any() || (self.event_strategy == Strategy::Atomic && !self.tp.counts())
        {
            return None;
        }
        let slot = self.attachments.single_hit(offset, offset + n)?;
        if let Err(e) = check_alive(self.tp, image) {
            return Some(Err(e));
        }
        if self.tp.put_counted(image, offset, src, n, slot) {
            self.stats.add(Counter::EventsPosted, 1);
            self.stats.add(Counter::EventsCounted, 1);
            return Some(Ok(()));
        }
        if self.event_strategy == Strategy::Atomic
            || !self
                .tp
                .put_notified(image, offset, src, n, EVENT_TAG | slot as u64)
        {
            return None;
        }
        self.stats.add(Counter::EventsPosted, 1);
        self.stats.add(Counter::NotifySent, 1);
        Some(Ok(()))
    }
}
