//! Notified access (the Notified Access paper, §III–IV): puts and gets that notify the target,
//! matched there by source and tag. Notifications travel through the target's ring
//! ([`crate::transport::ring`]); this image drains its own ring into a [`Matcher`].

pub mod matching;

use super::stats::{Counter, Stats, WaitKind};
use super::status::check_alive;
use super::wait::Waiter;
use crate::error::CafResult;
use crate::transport::plan::contiguous;
use crate::transport::ring::INLINE;
use crate::transport::{CopyPlan, Notification, Place, Transport};
pub use matching::{Arrival, Filter, Matcher};
use std::sync::{Mutex, MutexGuard};

/// This image's notification state.
#[derive(Debug)]
pub struct Notifier {
    m: Mutex<Matcher>,
    stats: &'static Stats,
}

impl Notifier {
    /// An empty notification state counting into `stats`.
    pub fn new(stats: &'static Stats) -> Notifier {
        Notifier {
            m: Mutex::default(),
            stats,
        }
    }

    /// The matcher (after draining what has arrived).
    pub fn matcher(&self, tp: &dyn Transport) -> MutexGuard<'_, Matcher> {
        let mut m = self.m.lock().unwrap_or_else(|p| p.into_inner());
        tp.drain(&mut |n| {
            self.stats.add(Counter::NotifyReceived, 1);
            if n.inline && n.bytes > 0 {
                let at = tp
                    .direct(tp.this_image(), n.offset as usize)
                    .expect("own segment is mapped");
                // SAFETY: the sender checked that [offset, offset+bytes) lies inside a coarray of
                // this image, and inline payloads are at most INLINE bytes.
                unsafe {
                    std::ptr::copy_nonoverlapping(
                        n.payload.as_ptr(),
                        at as *mut u8,
                        n.bytes as usize,
                    )
                };
            }
            m.arrive(Arrival {
                source: n.source,
                tag: n.tag,
                bytes: n.bytes,
                offset: n.offset,
            });
        });
        m
    }

    /// Sends `n` to `image`, draining this image's own ring while the target's is full (so two
    /// images filling each other's rings cannot deadlock).
    pub fn send(
        &self,
        tp: &dyn Transport,
        w: &Waiter,
        image: usize,
        n: &Notification,
    ) -> CafResult<()> {
        self.stats.add(Counter::NotifySent, 1);
        if tp.notify(image, n).is_ok() {
            return Ok(());
        }
        w.block(|| {
            drop(self.matcher(tp));
            match tp.notify(image, n) {
                Ok(()) => Some(Ok(())),
                Err(_) => check_alive(tp, image).err().map(Err),
            }
        })
    }

    /// Notified put: stores `data` at `(image, offset)` and notifies `image` with `tag`. Data of
    /// up to [`INLINE`] bytes travels inside the notification and is stored when the target
    /// drains it; larger data is copied first and the notification published after it.
    pub fn put(
        &self,
        tp: &dyn Transport,
        w: &Waiter,
        image: usize,
        offset: usize,
        data: &[u8],
        tag: u64,
    ) -> CafResult<()> {
        let mut n = Notification {
            source: tp.this_image() as u32,
            tag,
            bytes: data.len() as u32,
            offset: offset as u64,
            inline: data.len() <= INLINE,
            payload: [0; INLINE],
        };
        if n.inline {
            n.payload[..data.len()].copy_from_slice(data);
        } else {
            let plan = CopyPlan::new(1, &contiguous(data.len(), 1), &contiguous(data.len(), 1));
            tp.copy(
                Place::Remote { image, offset },
                Place::Local(data.as_ptr() as usize),
                &plan,
            );
        }
        self.send(tp, w, image, &n)
    }

    /// Notified get: reads `(image, offset)` into `out` and tells `image` (with `tag`) that the
    /// buffer has been read.
    pub fn get(
        &self,
        tp: &dyn Transport,
        w: &Waiter,
        image: usize,
        offset: usize,
        out: &mut [u8],
        tag: u64,
    ) -> CafResult<()> {
        let plan = CopyPlan::new(1, &contiguous(out.len(), 1), &contiguous(out.len(), 1));
        tp.copy(
            Place::Local(out.as_mut_ptr() as usize),
            Place::Remote { image, offset },
            &plan,
        );
        let n = Notification {
            source: tp.this_image() as u32,
            tag,
            bytes: out.len() as u32,
            offset: offset as u64,
            inline: false,
            payload: [0; INLINE],
        };
        self.send(tp, w, image, &n)
    }

    /// Waits for request `id` to complete; returns its last match.
    pub fn wait(&self, tp: &dyn Transport, w: &Waiter, id: usize) -> CafResult<Arrival> {
        let _kind = self.stats.during(WaitKind::Notify);
        w.block(|| match self.matcher(tp).test(id) {
            Ok(Some(a)) => Some(Ok(a)),
            Ok(None) => None,
            Err(e) => Some(Err(e)),
        })
    }
}
