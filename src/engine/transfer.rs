//! Data movement with kind conversion: GET, SEND and SENDGET of whole (strided or
//! vector-subscripted) sections.
//! Same-representation moves go straight through one copy plan; converting moves gather the
//! source once into a packed buffer, convert it, and scatter it once.

use super::convert::convert;
use super::types::Ty;
use crate::error::{CafError, CafResult};
use crate::transport::plan::{contiguous, Layout};
use crate::transport::{CopyPlan, Place, Transport};

/// One side of a transfer: where, which layout, which element type.
#[derive(Clone, Debug)]
pub struct Side {
    /// Base of the section (its first element in array element order).
    pub place: Place,
    /// Shape relative to `place`: strided dimensions or gather/scatter lists, fastest first.
    pub layout: Layout,
    /// Element type.
    pub ty: Ty,
}

/// Copies `src` to `dst`, converting kinds, broadcasting a scalar source, and staging through
/// a temporary when `may_alias` is set and the two sides overlap.
pub fn transfer(tp: &dyn Transport, dst: &Side, src: &Side, may_alias: bool) -> CafResult<()> {
    let (nd, ns) = (dst.layout.count(), src.layout.count());
    if nd == 0 {
        return Ok(());
    }
    if ns != nd && ns != 1 {
        return Err(CafError::InvalidArgument(format!(
            "the source has {ns} elements but the destination {nd}; the shapes do not conform"
        )));
    }
    if dst.ty.same_repr(&src.ty) {
        let plan = CopyPlan::with(dst.ty.size, dst.layout.clone(), src.layout.clone());
        if may_alias && overlaps(tp, dst, src, &plan) {
            let tmp = gather(tp, src, ns);
            scatter(tp, dst, &tmp, ns);
        } else {
            tp.copy(dst.place, src.place, &plan);
        }
        return Ok(());
    }
    let packed = gather(tp, src, ns);
    let mut conv = vec![0u8; ns * dst.ty.size];
    convert(&mut conv, dst.ty, &packed, src.ty, ns)?;
    scatter(tp, dst, &conv, ns);
    Ok(())
}

/// Copies the `n` elements of `src` into a new packed local buffer.
fn gather(tp: &dyn Transport, src: &Side, n: usize) -> Vec<u8> {
    let mut buf = vec![0u8; n * src.ty.size];
    let packed = Layout::Strided(contiguous(n, src.ty.size));
    let plan = CopyPlan::with(src.ty.size, packed, src.layout.clone());
    tp.copy(Place::Local(buf.as_mut_ptr() as usize), src.place, &plan);
    buf
}

/// Copies `n` packed elements (or one, broadcast) from `buf` into `dst`.
fn scatter(tp: &dyn Transport, dst: &Side, buf: &[u8], n: usize) {
    let packed = Layout::Strided(contiguous(n, dst.ty.size));
    let plan = CopyPlan::with(dst.ty.size, dst.layout.clone(), packed);
    tp.copy(dst.place, Place::Local(buf.as_ptr() as usize), &plan);
}

/// Whether the byte ranges of the two sides can overlap in memory.
fn overlaps(tp: &dyn Transport, dst: &Side, src: &Side, plan: &CopyPlan) -> bool {
    let addr = |p: Place| match p {
        Place::Local(a) => Some(a),
        Place::Remote { image, offset } => tp.direct(image, offset),
    };
    let (Some(d), Some(s)) = (addr(dst.place), addr(src.place)) else {
        return dst.place == src.place;
    };
    let (dlo, dhi, slo, shi) = plan.extents();
    let (d0, d1) = (d as isize + dlo, d as isize + dhi);
    let (s0, s1) = (s as isize + slo, s as isize + shi);
    d0 < s1 && s0 < d1
}
