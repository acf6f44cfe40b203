//! Reference chains of `*_by_ref` accesses (Fortran 2018 9.4.2 data references such as
//! `c(2)[j]%b(1:n:2)`): where on the target image the designated elements lie and what shape
//! they have. The walk runs in the target image's address space, chasing the pointers to
//! allocatable components that image stored; the caller supplies those loads ([`Chase`]) and
//! the decoded chain.
//!
//! Fortran allows at most one part reference of nonzero rank (C918), and no allocatable or
//! pointer component to its right (C919), so a chain is: dereferences and constant offsets
//! down to one object, at most one array selection, then constant offsets only.

use crate::error::{CafError, CafResult};

/// One subscript of an array reference. For arrays with a descriptor the values are Fortran
/// indices; for arrays without one (`STATIC_ARRAY`) they are 0-based element offsets already
/// multiplied by the dimension's element stride.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sub {
    /// The whole dimension with a stride (`::stride`; a negative stride runs from the upper
    /// bound down).
    Full(i64),
    /// `start:end:stride`.
    Range(i64, i64, i64),
    /// One index (the dimension does not count towards the rank).
    Single(i64),
    /// `start::stride`, up to the upper bound (down to the lower bound for a negative stride).
    OpenEnd(i64, i64),
    /// `:end:stride`, from the lower bound (from the upper bound for a negative stride).
    OpenStart(i64, i64),
    /// A vector subscript.
    Vector(Vec<i64>),
}

/// One link of a reference chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ref {
    /// A component at byte `offset` of the current object; `allocatable` components hold a
    /// pointer (scalar) or a descriptor (array, followed by an [`Ref::Array`]).
    Component {
        /// Byte offset in the parent.
        offset: isize,
        /// Whether the component is allocatable (or a pointer).
        allocatable: bool,
    },
    /// Subscripts of the array whose descriptor is the current object.
    Array(Vec<Sub>),
    /// Subscripts (element offsets) of an array without descriptor, elements of `item` bytes.
    StaticArray(Vec<Sub>, usize),
}

/// One dimension of an array descriptor found in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArrayDim {
    /// Lower bound.
    pub lbound: i64,
    /// Upper bound.
    pub ubound: i64,
    /// Distance between consecutive elements in bytes.
    pub stride: isize,
}

/// What the walk needs to read on the target image.
pub trait Chase {
    /// The pointer stored at `addr` (checked to lie in the target's memory).
    fn load_ptr(&self, addr: usize) -> CafResult<usize>;
    /// The data address and dimensions of the array descriptor at `addr`.
    fn array(&self, addr: usize) -> CafResult<(usize, Vec<ArrayDim>)>;
}

/// Where the designated elements are: a base address, per-dimension byte offsets (empty for a
/// scalar), and the extents of the result (dimensions with a single subscript dropped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// Address of the object the offsets are relative to.
    pub addr: usize,
    /// Byte offsets per dimension, fastest first.
    pub lists: Vec<Vec<isize>>,
    /// Shape of the result.
    pub shape: Vec<usize>,
}

/// Walks `refs` from the object at `start`. `own` holds the dimensions of the coarray itself
/// when it is an allocatable array: its descriptor lies in the accessing image (bounds are the
/// same on every image), so a leading [`Ref::Array`] subscripts `start` through them.
/// `Ok(None)` means an allocatable component on the way is not allocated.
pub fn walk(
    start: usize,
    own: Option<&[ArrayDim]>,
    refs: &[Ref],
    mem: &dyn Chase,
) -> CafResult<Option<Target>> {
    let mut t = Target {
        addr: start,
        lists: Vec::new(),
        shape: Vec::new(),
    };
    let mut ranked = false;
    for (k, r) in refs.iter().enumerate() {
        let next_is_array = matches!(refs.get(k + 1), Some(Ref::Array(_)));
        match r {
            Ref::Component {
                offset,
                allocatable,
            } => {
                let at = t.addr.wrapping_add(*offset as usize);
                if !allocatable || next_is_array {
                    t.addr = at;
                    continue;
                }
                if ranked {
                    return Err(bad(
                        "an allocatable component to the right of an array section",
                    ));
                }
                t.addr = mem.load_ptr(at)?;
                if t.addr == 0 {
                    return Ok(None);
                }
            }
            Ref::Array(subs) => {
                let after_component = matches!(
                    k.checked_sub(1).map(|p| &refs[p]),
                    Some(Ref::Component {
                        allocatable: true,
                        ..
                    })
                );
                let (base, dims) = match own {
                    _ if after_component => mem.array(t.addr)?,
                    Some(dims) if k == 0 => (start, dims.to_vec()),
                    _ => return Err(bad("an array reference on an array without descriptor")),
                };
                if base == 0 {
                    return Ok(None);
                }
                if ranked || subs.len() != dims.len() {
                    return Err(bad("an array reference that does not match its array"));
                }
                t.addr = base;
                ranked = select(
                    &mut t,
                    subs,
                    |k, s| indices(s, Some(&dims[k])),
                    |k| dims[k].stride,
                )?;
            }
            Ref::StaticArray(subs, item) => {
                let scalar = subs.iter().all(|s| matches!(s, Sub::Single(_)));
                if ranked && !scalar {
                    return Err(bad("two part references of nonzero rank"));
                }
                let ranks = select(&mut t, subs, |_, s| indices(s, None), |_| *item as isize)?;
                ranked |= ranks;
            }
        }
    }
    Ok(Some(t))
}

/// Applies one array selection to `t`: a selection of single elements moves its address; any
/// other appends per-dimension offset lists and the result's extents. Returns whether the
/// selection has nonzero rank.
fn select(
    t: &mut Target,
    subs: &[Sub],
    idx: impl Fn(usize, &Sub) -> CafResult<Vec<i64>>,
    stride: impl Fn(usize) -> isize,
) -> CafResult<bool> {
    let mut lists = Vec::with_capacity(subs.len());
    for (k, s) in subs.iter().enumerate() {
        lists.push(
            idx(k, s)?
                .iter()
                .map(|&i| i as isize * stride(k))
                .collect::<Vec<_>>(),
        );
    }
    if subs.iter().all(|s| matches!(s, Sub::Single(_))) {
        let shift: isize = lists.iter().map(|l| l[0]).sum();
        t.addr = t.addr.wrapping_add(shift as usize);
        return Ok(false);
    }
    for (s, l) in subs.iter().zip(&lists) {
        if !matches!(s, Sub::Single(_)) {
            t.shape.push(l.len());
        }
    }
    t.lists.extend(lists);
    Ok(true)
}

/// The indices a subscript selects, relative to the lower bound when `dim` is given (each
/// checked against the bounds), else as given (element offsets of an array without descriptor).
/// An omitted bound is the array's bound on the side the stride starts from or runs to
/// (Fortran 2018 9.5.3.3.2: `::-1` runs from the upper bound to the lower one).
fn indices(s: &Sub, dim: Option<&ArrayDim>) -> CafResult<Vec<i64>> {
    let (lo, hi) = dim.map_or((0, i64::MAX), |d| (d.lbound, d.ubound));
    let first = |st: i64| if st < 0 { hi } else { lo };
    let last = |st: i64| if st < 0 { lo } else { hi };
    let list = match s {
        Sub::Full(st) if dim.is_some() => triplet(first(*st), last(*st), *st)?,
        Sub::Range(a, b, st) => triplet(*a, *b, *st)?,
        Sub::Single(i) => vec![*i],
        Sub::OpenEnd(a, st) if dim.is_some() => triplet(*a, last(*st), *st)?,
        Sub::OpenStart(b, st) if dim.is_some() => triplet(first(*st), *b, *st)?,
        Sub::Vector(v) => v.clone(),
        _ => return Err(bad("an open subscript of an array without descriptor")),
    };
    let Some(d) = dim else { return Ok(list) };
    list.iter()
        .map(|&i| {
            if i < d.lbound || i > d.ubound {
                Err(CafError::InvalidArgument(format!(
                    "subscript {i} is out of bounds ({}:{}) in a component reference",
                    d.lbound, d.ubound
                )))
            } else {
                Ok(i - d.lbound)
            }
        })
        .collect()
}

/// The values `lo:hi:stride` of a subscript triplet (Fortran 2018 9.5.3.3.2); stride 0 is an
/// error.
pub fn triplet(lo: i64, hi: i64, stride: i64) -> CafResult<Vec<i64>> {
    if stride == 0 {
        return Err(bad("a subscript triplet with stride zero"));
    }
    let n = ((hi - lo) / stride + 1).max(0);
    Ok((0..n).map(|k| lo + k * stride).collect())
}

/// The error for a malformed chain.
fn bad(what: &str) -> CafError {
    CafError::InvalidArgument(format!("unsupported coindexed reference: {what}"))
}

#[cfg(test)]
#[path = "refs_tests.rs"]
mod tests;
