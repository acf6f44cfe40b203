//! One MPI derived datatype per side of a copy: a strided section becomes a chain of
//! `MPI_Type_create_hvector` (one per dimension), a vector-subscripted one a chain of
//! `MPI_Type_create_hindexed_block` (one per dimension's offset list), over a contiguous
//! element of bytes. A contiguous side needs no derived type at all.

use super::world::check;
use crate::transport::plan::{Dim, Layout};
use mpi_sys as m;
use std::ffi::c_int;

/// A side's datatype: `count` items of `raw`; derived types are freed on drop.
pub(super) struct Type {
    /// Items of `raw` to transfer.
    pub count: c_int,
    /// The MPI datatype.
    pub raw: m::MPI_Datatype,
    derived: bool,
}

/// Converts a length to an MPI count.
fn int(n: usize) -> c_int {
    c_int::try_from(n).expect("section too large for one MPI transfer")
}

impl Type {
    /// The datatype of `layout` for elements of `elem` bytes; `broadcast` of `n` repeats the
    /// layout's one element `n` times (stride 0, a read-only side).
    pub fn of(layout: &Layout, elem: usize, broadcast: Option<usize>) -> Type {
        // SAFETY: RSMPI_UINT8_T is a predefined datatype, valid after MPI_Init.
        let byte = unsafe { m::RSMPI_UINT8_T };
        if let Some(n) = broadcast {
            let one = Type::of(layout, elem, None);
            return Type::chain(
                one,
                &[Dim {
                    extent: n,
                    stride: 0,
                }],
            );
        }
        match layout {
            Layout::Strided(d) if d.is_empty() => Type::plain(int(elem), byte),
            Layout::Strided(d) if d.len() == 1 && d[0].stride == elem as isize => {
                Type::plain(int(elem * d[0].extent), byte)
            }
            Layout::Strided(d) => Type::chain(Type::element(elem), d),
            Layout::Indexed(lists) => {
                let mut t = Type::element(elem);
                for l in lists {
                    let mut next = byte;
                    // SAFETY: `l` holds `l.len()` displacements, and MPI_Aint (`ptrdiff_t` in
                    // Open MPI, `long` in MPICH) has isize's size and sign (asserted below);
                    // `t.raw` is a valid datatype.
                    unsafe {
                        check(
                            m::MPI_Type_create_hindexed_block(
                                int(l.len()),
                                1,
                                l.as_ptr().cast::<m::MPI_Aint>(),
                                t.raw,
                                &mut next,
                            ),
                            "MPI_Type_create_hindexed_block",
                        )
                    };
                    t = Type::derived(next);
                }
                t.commit()
            }
        }
    }

    /// A predefined type, never freed.
    fn plain(count: c_int, raw: m::MPI_Datatype) -> Type {
        Type {
            count,
            raw,
            derived: false,
        }
    }

    /// A new derived type, freed on drop.
    fn derived(raw: m::MPI_Datatype) -> Type {
        Type {
            count: 1,
            raw,
            derived: true,
        }
    }

    /// One element: `elem` contiguous bytes.
    fn element(elem: usize) -> Type {
        let mut t = null();
        // SAFETY: valid predefined old type and out-pointer.
        unsafe {
            check(
                m::MPI_Type_contiguous(int(elem), m::RSMPI_UINT8_T, &mut t),
                "MPI_Type_contiguous",
            )
        };
        Type::derived(t)
    }

    /// `inner` repeated along every dimension of `dims` (fastest first), committed.
    fn chain(mut inner: Type, dims: &[Dim]) -> Type {
        if inner.count != 1 {
            let whole = Type::element(inner.count as usize);
            debug_assert!(!inner.derived);
            inner = whole;
        }
        for d in dims {
            let mut next = null();
            // SAFETY: `inner.raw` is a valid datatype and the out-pointer is valid.
            unsafe {
                check(
                    m::MPI_Type_create_hvector(
                        int(d.extent),
                        1,
                        d.stride as m::MPI_Aint,
                        inner.raw,
                        &mut next,
                    ),
                    "MPI_Type_create_hvector",
                )
            };
            inner = Type::derived(next);
        }
        inner.commit()
    }

    /// Commits a derived type for use in communication.
    fn commit(mut self) -> Type {
        // SAFETY: `self.raw` is a valid, uncommitted derived datatype.
        unsafe { check(m::MPI_Type_commit(&mut self.raw), "MPI_Type_commit") };
        self
    }
}

impl Drop for Type {
    fn drop(&mut self) {
        if self.derived {
            // SAFETY: a derived type this value owns; MPI keeps it alive for any pending
            // operation or enclosing type that still uses it.
            unsafe { m::MPI_Type_free(&mut self.raw) };
        }
    }
}

// Byte displacements are isize in the plans and MPI_Aint in MPI: the same representation.
const _: () = assert!(
    std::mem::size_of::<m::MPI_Aint>() == std::mem::size_of::<isize>() && m::MPI_Aint::MIN < 0
);

/// An all-zero datatype handle, overwritten by the constructor call.
fn null() -> m::MPI_Datatype {
    // SAFETY: datatype handles are pointers or integers; all-zero bytes are a valid value.
    unsafe { std::mem::zeroed() }
}
