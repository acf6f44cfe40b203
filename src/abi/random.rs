//! RANDOM_INIT (Fortran 2018 16.9.155) on top of libgfortran's own generator: the runtime only
//! chooses the seed and installs it with RANDOM_SEED(PUT=).
//!
//! | REPEATABLE | IMAGE_DISTINCT | seed |
//! |---|---|---|
//! | true | true | a fixed function of the initial-team image index |
//! | true | false | one fixed seed, the same on every image |
//! | false | true | fresh from the operating system on each image (RANDOM_SEED()) |
//! | false | false | fresh on image 1 of the current team, broadcast: every image must call |

use super::descriptor::{GfcDescriptor, GfcDim, GfcDtype};
use crate::engine::random::repeatable_seed;
use crate::error::{CafError, CafResult};
use crate::runtime::{self, collective::CoOp};
use crate::transport::plan::contiguous;
use std::ffi::c_int;

extern "C" {
    fn ferrocaf_random_seed(
        size: *mut c_int,
        put: *const GfcDescriptor,
        get: *const GfcDescriptor,
    ) -> c_int;
}

/// A rank-1 default-integer descriptor of `seed`, as gfortran builds for RANDOM_SEED.
fn descriptor(seed: &mut [i32]) -> GfcDescriptor {
    let none = GfcDim {
        stride: 0,
        lbound: 0,
        ubound: 0,
    };
    let mut dim = [none; 15];
    dim[0] = GfcDim {
        stride: 1,
        lbound: 1,
        ubound: seed.len() as isize,
    };
    GfcDescriptor {
        base_addr: seed.as_mut_ptr().cast(),
        offset: usize::MAX, // -1: element (1) is at base_addr
        dtype: GfcDtype {
            elem_len: 4,
            version: 0,
            rank: 1,
            type_: 1,
            attribute: 0,
        },
        span: 4,
        dim,
    }
}

/// CALL RANDOM_SEED with optional SIZE=, PUT=, GET=.
fn random_seed(size: Option<&mut c_int>, put: Option<&mut [i32]>, get: Option<&mut [i32]>) {
    let size = size.map_or(std::ptr::null_mut(), |s| s as *mut c_int);
    let put = put.map(descriptor);
    let get = get.map(descriptor);
    let p = |d: &Option<GfcDescriptor>| d.as_ref().map_or(std::ptr::null(), |d| d as *const _);
    // SAFETY: the pointers are null or point to live values and descriptors of live arrays of
    // the seed size; libgfortran reads or writes exactly those.
    let linked = unsafe { ferrocaf_random_seed(size, p(&put), p(&get)) };
    debug_assert_eq!(linked, 0, "checked by seed_size()");
}

/// The number of default integers in libgfortran's seed.
fn seed_size() -> CafResult<usize> {
    let mut n: c_int = 0;
    // SAFETY: SIZE= is a live integer; PUT= and GET= are absent.
    if unsafe { ferrocaf_random_seed(&mut n, std::ptr::null(), std::ptr::null()) } != 0 {
        return Err(CafError::InvalidArgument(
            "libgfortran's RANDOM_SEED is not linked into this program".into(),
        ));
    }
    Ok(n.max(0) as usize)
}

/// Chooses and installs the seed (see the table above).
fn init(repeatable: bool, image_distinct: bool) -> CafResult<()> {
    let rt = runtime::get();
    let n = seed_size()?;
    let mut seed = if repeatable {
        repeatable_seed(n, if image_distinct { rt.me + 1 } else { 0 })
    } else {
        random_seed(None, None, None);
        if image_distinct {
            return Ok(());
        }
        let mut s = vec![0; n];
        random_seed(None, None, Some(&mut s));
        rt.collective(
            s.as_mut_ptr() as usize,
            &contiguous(n, 4),
            4,
            CoOp::Broadcast { source_image: 1 },
        )?;
        s
    };
    random_seed(None, Some(&mut seed), None);
    Ok(())
}

/// RANDOM_INIT (Fortran 2018 16.9.155): initialises the pseudorandom number generator.
#[no_mangle]
pub extern "C" fn _gfortran_caf_random_init(repeatable: bool, image_distinct: bool) {
    if let Err(e) = init(repeatable, image_distinct) {
        runtime::get().fatal(&e, "RANDOM_INIT");
    }
}
