//! CO_REDUCE (Fortran 2018 16.9.47): a reduction with the program's own pure function.
//!
//! How gfortran 12 calls the operator (found with `-fdump-tree-original`; `opr_flags` bits
//! 1 BYREF, 2 HIDDENLEN, 4 ARG_VALUE, 8 ARG_DESC):
//!
//! | operator | flags | call |
//! |---|---|---|
//! | non-CHARACTER, arguments by reference | 0 | `T f(T *x, T *y)`, result by value |
//! | non-CHARACTER, VALUE arguments | 4 | `T f(T x, T y)` |
//! | CHARACTER, BIND(C) (LEN=1) | 0 / 4 | as the two above with a one-byte `T` |
//! | CHARACTER | 1 (3 through a procedure pointer component) | `void f(char *r, size_t rlen, char *x, char *y, size_t xlen, size_t ylen)` |
//! | CHARACTER(LEN=1), VALUE | 5 | as above with `x`, `y` passed by value |
//!
//! HIDDENLEN is set only for procedure pointer components, but every non-BIND(C) CHARACTER operator
//! has the hidden lengths. For a procedure pointer component (`co_reduce(a, h%op)`) gfortran 12
//! passes not the pointer but the first byte of the function's code (`*h.op` loaded with `movzbl`):
//! such an "address" below 4096 is reported as an error. A procedure pointer variable or a dummy
//! procedure as OPERATION is rejected by gfortran 12 itself. ARG_DESC is never set: the standard
//! requires scalar, non-allocatable, non-pointer, non-polymorphic arguments, which need no
//! descriptor. BYREF without CHARACTER would mean an array result, which the standard forbids.
//!
//! A derived-type result is returned as the C ABI returns a struct. Above 16 bytes that is
//! through a hidden result pointer, which ferrocaf calls. Up to 16 bytes the x86-64 ABI puts each
//! eightbyte in an integer or an SSE register according to the component types, which gfortran
//! does not pass to the runtime, so such operators (and derived-type VALUE arguments, passed on
//! the stack) are rejected with an error rather than guessed.

use super::descriptor::{desc, GfcDescriptor};
use super::errors::{collective_errmsg, finish};
use super::ErrMsg;
use crate::engine::types::Class;
use crate::error::{CafError, CafResult};
use crate::runtime::{self, collective::CoOp};
use std::ffi::{c_int, c_void};

const BYREF: c_int = 1;
const ARG_VALUE: c_int = 4;
const ARG_DESC: c_int = 8;

// Classes of `co_reduce_call.c`.
const CLS_INT: c_int = 0;
const CLS_REAL: c_int = 1;
const CLS_COMPLEX: c_int = 2;
const CLS_STRUCT: c_int = 3;

extern "C" {
    fn ferrocaf_opr_call(
        opr: *const c_void,
        cls: c_int,
        size: usize,
        by_value: c_int,
        res: *mut u8,
        x: *const u8,
        y: *const u8,
    ) -> c_int;
    fn ferrocaf_opr_call_char(
        opr: *const c_void,
        by_value: c_int,
        res: *mut u8,
        x: *const u8,
        y: *const u8,
        len: usize,
        kind: usize,
    );
}

/// How the operator is called on one pair of elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Form {
    /// Result by value (or hidden pointer for large derived types): class and size for the C side.
    Value { cls: c_int, by_value: bool },
    /// gfortran's CHARACTER function convention.
    Char {
        len: usize,
        kind: usize,
        by_value: bool,
    },
}

fn unsupported(what: String) -> CafError {
    CafError::InvalidArgument(format!("CO_REDUCE: {what}"))
}

/// The calling form of operator `opr` for elements of gfortran type code `code` and `size` bytes.
fn form(opr: usize, code: i8, size: usize, flags: c_int, a_len: c_int) -> CafResult<Form> {
    let by_value = flags & ARG_VALUE != 0;
    if opr < 4096 {
        return Err(unsupported(format!(
            "OPERATION is not a function address ({opr:#x}): gfortran 12 passes a code byte for \
             a procedure pointer component; use the procedure's name"
        )));
    }
    if flags & ARG_DESC != 0 {
        return Err(unsupported(
            "operators taking descriptors are not supported (gfortran 12 never emits them)".into(),
        ));
    }
    let class = Class::from_code(code);
    if class == Class::Character && flags & BYREF != 0 {
        let len = a_len.max(0) as usize;
        let kind = size.checked_div(len).unwrap_or(1);
        if by_value && len != 1 {
            return Err(unsupported(format!(
                "VALUE arguments of length {len} (only length 1 is allowed)"
            )));
        }
        return Ok(Form::Char {
            len,
            kind,
            by_value,
        });
    }
    if flags & BYREF != 0 {
        return Err(unsupported(format!(
            "a result returned by reference for type code {code} (only CHARACTER has one)"
        )));
    }
    let cls = match (class, size) {
        (Class::Integer | Class::Logical, 1 | 2 | 4 | 8 | 16) => CLS_INT,
        (Class::Character, 1) => CLS_INT,
        (Class::Real, 4 | 8 | 16) => CLS_REAL,
        (Class::Complex, 8 | 16 | 32) => CLS_COMPLEX,
        (Class::Bytes, 17..) if !by_value => CLS_STRUCT,
        (Class::Bytes, _) if by_value => {
            return Err(unsupported(
                "derived-type VALUE arguments are not supported (the C ABI passes them by \
                 component types the runtime does not know)"
                    .into(),
            ))
        }
        (Class::Bytes, _) => {
            return Err(unsupported(format!(
                "a derived-type result of {size} bytes is returned in registers chosen by its \
                 component types, which gfortran does not pass to the runtime; make the type \
                 larger than 16 bytes"
            )))
        }
        _ => {
            return Err(unsupported(format!(
                "type code {code} of {size}-byte elements"
            )))
        }
    };
    Ok(Form::Value { cls, by_value })
}

/// 16-byte aligned copies of the two arguments and the result.
struct Scratch {
    x: Vec<u128>,
    y: Vec<u128>,
    r: Vec<u128>,
    size: usize,
}

impl Scratch {
    fn new(size: usize) -> Scratch {
        let n = size.div_ceil(16).max(2);
        Scratch {
            x: vec![0; n],
            y: vec![0; n],
            r: vec![0; n],
            size,
        }
    }

    /// `acc = opr(acc, other)` for one element.
    ///
    /// # Safety
    /// `opr` is the operator gfortran passed, of the form `form` describes.
    unsafe fn combine(&mut self, opr: *const c_void, form: Form, acc: &mut [u8], other: &[u8]) {
        let n = self.size;
        let (x, y, r) = (
            self.x.as_mut_ptr() as *mut u8,
            self.y.as_mut_ptr() as *mut u8,
            self.r.as_mut_ptr() as *mut u8,
        );
        // SAFETY: each scratch buffer holds at least `n` bytes; `acc` and `other` hold `n`; the
        // operator reads its arguments and writes one result element (guaranteed by the caller).
        unsafe {
            std::ptr::copy_nonoverlapping(acc.as_ptr(), x, n);
            std::ptr::copy_nonoverlapping(other.as_ptr(), y, n);
            match form {
                Form::Value { cls, by_value } => {
                    let done = ferrocaf_opr_call(opr, cls, n, by_value as c_int, r, x, y);
                    debug_assert_eq!(done, 0, "form() admitted a form the C side lacks");
                }
                Form::Char {
                    len,
                    kind,
                    by_value,
                } => ferrocaf_opr_call_char(opr, by_value as c_int, r, x, y, len, kind),
            }
            std::ptr::copy_nonoverlapping(r, acc.as_mut_ptr(), n);
        }
    }
}

/// CO_REDUCE (Fortran 2018 16.9.47): combines A across the current team with OPERATION.
///
/// # Safety
/// Arguments as gfortran passes them.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn _gfortran_caf_co_reduce(
    a: *mut GfcDescriptor,
    opr: *const c_void,
    opr_flags: c_int,
    result_image: c_int,
    stat: *mut c_int,
    errmsg: ErrMsg,
    a_len: c_int,
    errmsg_len: usize,
) {
    let rt = runtime::get();
    let (errmsg, a_len, errmsg_len) = collective_errmsg(errmsg, a_len, errmsg_len);
    // SAFETY: guaranteed by the caller.
    let d = unsafe { desc(a) };
    let size = d.dtype.elem_len;
    let r = form(opr as usize, d.dtype.type_, size, opr_flags, a_len).and_then(|form| {
        let f = |acc: &mut [u8], other: &[u8]| -> CafResult<()> {
            let mut s = Scratch::new(size);
            for (a, b) in acc.chunks_exact_mut(size).zip(other.chunks_exact(size)) {
                // SAFETY: `opr` is the program's operator, of the form gfortran's flags say.
                unsafe { s.combine(opr, form, a, b) };
            }
            Ok(())
        };
        rt.collective(
            d.base_addr as usize,
            &d.allocated_dims(),
            size,
            CoOp::Reduce {
                result_image: result_image as i64,
                combine: &f,
            },
        )
    });
    // SAFETY: forwarded from the caller.
    unsafe { finish(r, stat, errmsg, errmsg_len, "CO_REDUCE") };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An operator address.
    const F: usize = 0x40_0000;

    #[test]
    fn forms_gfortran_emits() {
        let v = |cls, by_value| Ok(Form::Value { cls, by_value });
        assert_eq!(form(F, 1, 4, 0, 0), v(CLS_INT, false));
        assert_eq!(form(F, 2, 1, 4, 0), v(CLS_INT, true));
        assert_eq!(form(F, 3, 16, 4, 0), v(CLS_REAL, true));
        assert_eq!(form(F, 4, 32, 0, 0), v(CLS_COMPLEX, false));
        assert_eq!(form(F, 6, 1, 0, 1), v(CLS_INT, false));
        assert_eq!(form(F, 5, 24, 0, 0), v(CLS_STRUCT, false));
        let c = |len, kind, by_value| {
            Ok(Form::Char {
                len,
                kind,
                by_value,
            })
        };
        assert_eq!(form(F, 6, 12, 1, 3), c(3, 4, false));
        assert_eq!(form(F, 6, 3, 3, 3), c(3, 1, false));
        assert_eq!(form(F, 6, 1, 5, 1), c(1, 1, true));
    }

    #[test]
    fn forms_rejected() {
        assert!(form(F, 5, 16, 0, 0).is_err());
        assert!(form(F, 5, 24, 4, 0).is_err());
        assert!(form(F, 1, 4, 8, 0).is_err());
        assert!(form(F, 1, 4, 1, 0).is_err());
        assert!(form(F, 6, 3, 5, 3).is_err());
        assert!(form(F, 1, 3, 0, 0).is_err());
        assert!(form(0x55, 6, 3, 3, 3).is_err());
    }
}
