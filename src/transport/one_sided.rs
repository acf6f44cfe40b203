//! What the transports that reach peers' memory by one-sided operations (MPI, libfabric) share:
//! where a place is mapped in this process, how a copy is routed among a local copy, a put, a
//! get, and, from one remote image to another, a get into a buffer here and a put from it, and
//! the shape of a remote read-modify-write.

use super::plan::contiguous;
use super::{CopyPlan, Layout, Place, Transport};
use std::sync::atomic::{fence, Ordering};

/// A remote read-modify-write: a fetching operation (`O`, the transport's name for it) with
/// its operand, or a compare-and-swap `(expected, new)`.
#[derive(Clone, Copy)]
pub(super) enum Rmw<O> {
    /// A fetching operation and its operand.
    Op(O, u64),
    /// A compare-and-swap (expected, new).
    Cas(u64, u64),
}

/// A local address for `p`, if this process maps it ([`Transport::direct`]).
pub(super) fn mapped<T: Transport + ?Sized>(tp: &T, p: Place) -> Option<usize> {
    match p {
        Place::Local(a) => Some(a),
        Place::Remote { image, offset } => tp.direct(image, offset),
    }
}

/// [`Transport::copy`] for a transport whose `rma(put, local, image, offset, plan)` moves
/// `plan`'s elements between local memory at `local` and `image`'s segment at `offset` (a put
/// when `put`, else a get), complete at the target when it returns.
pub(super) fn copy<T: Transport + ?Sized>(
    tp: &T,
    dst: Place,
    src: Place,
    plan: &CopyPlan,
    rma: impl Fn(bool, usize, usize, usize, &CopyPlan),
) {
    if plan.count() == 0 {
        return;
    }
    match (mapped(tp, dst), mapped(tp, src), dst, src) {
        (Some(d), Some(s), _, _) => {
            // SAFETY: both sides are memory of this process (private, or a segment it maps),
            // inside sections the engine checked.
            unsafe { plan.run(d, s) };
            fence(Ordering::SeqCst);
        }
        (None, Some(s), Place::Remote { image, offset }, _) => rma(true, s, image, offset, plan),
        (Some(d), None, _, Place::Remote { image, offset }) => rma(false, d, image, offset, plan),
        (
            None,
            None,
            Place::Remote {
                image: di,
                offset: doff,
            },
            Place::Remote {
                image: si,
                offset: soff,
            },
        ) => {
            let k = plan.src.count();
            let mut buf = vec![0u8; k * plan.elem];
            let packed = Layout::Strided(contiguous(k, plan.elem));
            let into = CopyPlan::with(plan.elem, packed.clone(), plan.src.clone());
            rma(false, buf.as_mut_ptr() as usize, si, soff, &into);
            let out = CopyPlan::with(plan.elem, plan.dst.clone(), packed);
            rma(true, buf.as_ptr() as usize, di, doff, &out);
        }
        _ => unreachable!("a local place is always mapped"),
    }
}
