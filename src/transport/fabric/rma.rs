//! Copies over the fabric: a contiguous copy is one `fi_writemsg`/`fi_readmsg` of one piece
//! (`ff_rma` in `shim.c` posts every RMA operation so); any other plan packs (or unpacks) the
//! local side through a bounce buffer and moves the remote side's runs as batches of up to the
//! provider's iov limit, all posted before one wait for their completions — never one call per
//! element.

use super::ffi::{check, ff_rma, ff_wait, Iov, RmaIov};
use super::{Ep, Fabric};
use crate::transport::plan::contiguous;
use crate::transport::{CopyPlan, Layout};
use std::ffi::c_int;

/// What a write announces at its target.
#[derive(Clone, Copy, Debug)]
pub(super) enum Mark {
    /// Nothing: a plain put.
    Plain,
    /// Immediate data in the target's receive completion queue (a notified put).
    Data(u64),
    /// One increment of the target's remote-write counter (a counted put, sent to its
    /// counting endpoint).
    Count,
}

impl Fabric {
    /// Posts one RMA operation between local pieces and remote pieces of `image`'s segment
    /// (the same total), marked as `mark` says for a write.
    pub(super) fn post(
        &self,
        ep: &mut Ep,
        write: bool,
        image: usize,
        local: &[Iov],
        remote: &[RmaIov],
        mark: Mark,
    ) {
        let (data, to) = match mark {
            Mark::Plain => (0, 0),
            Mark::Data(d) => (d, 1),
            Mark::Count => (0, 2),
        };
        // SAFETY: the local pieces are memory of this process, readable for a write and
        // writable for a read until the completion is reaped (every caller waits before
        // returning); the remote pieces lie inside `image`'s registered segment.
        let rc = unsafe {
            ff_rma(
                ep.ff,
                c_int::from(write),
                image,
                local.as_ptr(),
                local.len(),
                remote.as_ptr(),
                remote.len(),
                data,
                to,
            )
        };
        check(rc, if write { "fi_writemsg" } else { "fi_readmsg" });
    }

    /// Waits for every operation posted on `ep`.
    pub(super) fn wait(&self, ep: &mut Ep) {
        // SAFETY: a valid endpoint, used under its lock.
        check(unsafe { ff_wait(ep.ff) }, "fi_cq_read");
    }

    /// The remote piece of `len` bytes at byte `offset` of `image`'s segment.
    pub(super) fn piece(&self, image: usize, offset: usize, len: usize) -> RmaIov {
        RmaIov {
            addr: self.addr(image, offset),
            len,
            key: self.keys[image],
        }
    }

    /// Moves the elements of `plan` between local memory at `local` and `image`'s segment at
    /// `offset`: a write (put) or a read (get), complete at the destination on return.
    pub(super) fn rma(
        &self,
        write: bool,
        local: usize,
        image: usize,
        offset: usize,
        plan: &CopyPlan,
    ) {
        let e = plan.elem;
        if plan.is_contiguous() {
            let len = plan.count() * e;
            let mut ep = self.lock();
            let l = [Iov { base: local, len }];
            self.post(
                &mut ep,
                write,
                image,
                &l,
                &[self.piece(image, offset, len)],
                Mark::Plain,
            );
            self.wait(&mut ep);
            return;
        }
        let remote = if write { &plan.dst } else { &plan.src };
        let k = remote.count();
        let packed = Layout::Strided(contiguous(k, e));
        let mut buf = vec![0u8; k * e];
        let at = buf.as_mut_ptr() as usize;
        if write {
            let pack = CopyPlan::with(e, packed.clone(), plan.src.clone());
            // SAFETY: `buf` holds the k packed elements; `local` is the caller's source
            // section, readable per the plan.
            unsafe { pack.run(at, local) };
        }
        self.batches(write, at, image, offset, remote, e);
        if !write {
            let unpack = CopyPlan::with(e, plan.dst.clone(), packed);
            // SAFETY: the caller's destination section is writable per the plan; `buf` holds
            // the packed elements read.
            unsafe { unpack.run(local, at) };
        }
    }

    /// Moves the packed buffer at `buf` to or from the runs of `remote` at `offset` of `image`'s
    /// segment (elements of `elem` bytes), `limit` runs per operation, then waits for all of them.
    fn batches(
        &self,
        write: bool,
        buf: usize,
        image: usize,
        offset: usize,
        remote: &Layout,
        elem: usize,
    ) {
        let runs = remote.runs(elem);
        let mut ep = self.lock();
        let mut done = 0usize;
        for batch in runs.chunks(self.limit) {
            let pieces: Vec<RmaIov> = batch
                .iter()
                .map(|&(at, len)| self.piece(image, offset.wrapping_add(at as usize), len))
                .collect();
            let len: usize = batch.iter().map(|r| r.1).sum();
            let l = [Iov {
                base: buf + done,
                len,
            }];
            self.post(&mut ep, write, image, &l, &pieces, Mark::Plain);
            done += len;
        }
        self.wait(&mut ep);
    }
}
