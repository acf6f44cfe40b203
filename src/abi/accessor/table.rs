//! The accessor table: `_gfortran_caf_register_accessor` collects `(hash, function)` pairs
//! from the static constructors, before the runtime exists; `_register_accessors_finish` sorts
//! them by hash; `_get_remote_function_index` finds a hash's index, the accessor's name across
//! images (every image runs the same executable, so every image builds the same table, while
//! function addresses may differ between processes).
//!
//! gfortran's hash is SDBM of the accessor's name modulo 10^8, so two accessors of one program
//! can share a hash; GCC's runtimes then silently call one for the other. Here a hash held by
//! two different functions is remembered and an index lookup of it is an error.
//!
//! The sorted table is published as a leaked slice behind an atomic pointer, so a call finds
//! its function with one load and no lock. Registering after a finish (a later constructor)
//! reopens the table; the next finish or lookup republishes it (the old slice is leaked: a
//! program has a handful of constructors).

use super::{Getter, Present, Receiver};
use crate::error::{CafError, CafResult};
use std::sync::atomic::{AtomicPtr, AtomicUsize, Ordering};
use std::sync::Mutex;

/// One registered accessor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    hash: i32,
    f: usize,
}

/// What the constructors registered, and whether it changed since the last publication.
struct Pending {
    entries: Vec<Entry>,
    dirty: bool,
    /// Whether [`arm`] was called (the fast paths see every publication from then on).
    armed: bool,
}

static PENDING: Mutex<Pending> = Mutex::new(Pending {
    entries: Vec::new(),
    dirty: false,
    armed: false,
});

/// The published table (hash-sorted, distinct pairs) and its length; before the first
/// publication a dangling pointer with length 0 (an empty slice, no null test on the hot path).
static TABLE: AtomicPtr<Entry> = AtomicPtr::new(std::ptr::NonNull::dangling().as_ptr());
static LEN: AtomicUsize = AtomicUsize::new(0);

/// The table's length as the fast paths ([`lookup`]) see it: 0 until the accessor fault guard
/// is installed ([`arm`]), then `LEN`; so the fast paths' bounds check also says that the
/// guard is armed, and they need no test of their own.
static ARMED_LEN: AtomicUsize = AtomicUsize::new(0);

fn pending() -> std::sync::MutexGuard<'static, Pending> {
    PENDING.lock().unwrap_or_else(|p| p.into_inner())
}

/// Sorts what was registered and publishes it.
fn publish(p: &mut Pending) {
    let mut v = p.entries.clone();
    v.sort_unstable();
    v.dedup();
    let table: &'static mut [Entry] = Box::leak(v.into_boxed_slice());
    // The pointer first: a reader loads a length (acquire), then the pointer, so a new length
    // comes with the new table or a later one, and an old length with a table at least that
    // long (entries are only ever added).
    TABLE.store(table.as_mut_ptr(), Ordering::Release);
    LEN.store(table.len(), Ordering::Release);
    if p.armed {
        ARMED_LEN.store(table.len(), Ordering::Release);
    }
    p.dirty = false;
}

/// Opens the fast paths' view of the table (the accessor fault guard is installed from now on).
pub(super) fn arm() {
    let mut p = pending();
    p.armed = true;
    ARMED_LEN.store(LEN.load(Ordering::Acquire), Ordering::Release);
}

/// The published table.
#[inline]
fn table() -> &'static [Entry] {
    view(LEN.load(Ordering::Acquire))
}

/// The first `len` entries of the published table; `len` is a value of `LEN` or `ARMED_LEN`
/// loaded (acquire) before this call.
fn view(len: usize) -> &'static [Entry] {
    let ptr = TABLE.load(Ordering::Acquire);
    // SAFETY: `ptr` is a leaked slice (never freed) at least as long as any length published
    // before it (see `publish`), or the initial dangling pointer, paired only with length 0.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// The index of `hash` in the sorted table: `Ok(-1)` when no accessor has it, an error when
/// two different accessors have it.
pub fn index_of(hash: i32) -> CafResult<i32> {
    {
        let mut p = pending();
        if p.dirty {
            publish(&mut p);
        }
    }
    let t = table();
    let first = t.partition_point(|e| e.hash < hash);
    let same = t[first..].iter().take_while(|e| e.hash == hash).count();
    match same {
        0 => Ok(-1),
        1 => Ok(first as i32),
        _ => Err(CafError::InvalidArgument(format!(
            "two different coindexed references have the same accessor hash {hash} (gfortran's \
             SDBM hash of their names collides): rename one of the variables"
        ))),
    }
}

/// The function at `index`, if there is one and the accessor fault guard is installed (two
/// loads and a bounds check; the fast paths, which run accessors under `guard::armed`).
pub fn lookup(index: i32) -> Option<usize> {
    // A negative index becomes at least 2^63 and fails the bounds check (one sign-extending
    // load).
    view(ARMED_LEN.load(Ordering::Acquire))
        .get(index as isize as usize)
        .map(|e| e.f)
}

/// The function at `index`, or an error naming the index.
pub fn function(index: i32) -> CafResult<usize> {
    let t = table();
    usize::try_from(index)
        .ok()
        .and_then(|i| t.get(i))
        .map(|e| e.f)
        .ok_or_else(|| {
            CafError::InvalidArgument(format!(
                "accessor index {index} is not in the accessor table ({} accessors registered)",
                t.len()
            ))
        })
}

/// The getter at `index` (the index a `get_from_remote` or `transfer_between_remotes` call
/// site names for its source).
pub(super) fn getter(index: i32) -> CafResult<Getter> {
    let f = function(index)?;
    // SAFETY: a registered accessor's (non-null) address; the call that runs it is `unsafe`,
    // and its call site named a getter.
    Ok(unsafe { std::mem::transmute::<usize, Getter>(f) })
}

/// The receiver at `index` (the index a `send_to_remote` or `transfer_between_remotes` call
/// site names for its destination).
pub(super) fn receiver(index: i32) -> CafResult<Receiver> {
    let f = function(index)?;
    // SAFETY: as for `getter`; the call site named a receiver.
    Ok(unsafe { std::mem::transmute::<usize, Receiver>(f) })
}

/// The presence accessor at `index` (the index an `is_present_on_remote` call site names).
pub(super) fn presence(index: i32) -> CafResult<Present> {
    let f = function(index)?;
    // SAFETY: as for `getter`; the call site named a presence accessor.
    Ok(unsafe { std::mem::transmute::<usize, Present>(f) })
}

/// Adds an accessor (static constructors, before the runtime exists).
fn register(hash: i32, f: usize) {
    let mut p = pending();
    p.entries.push(Entry { hash, f });
    p.dirty = true;
}

/// Publishes the sorted table if anything was registered since the last time.
fn finish() {
    let mut p = pending();
    if p.dirty {
        publish(&mut p);
    }
}

/// Registers the accessor `accessor` of a coindexed reference under `hash` (GCC 15+: emitted
/// in the static constructor of every program unit with coindexed references, before `main`;
/// Fortran 2018 9.6, image selectors).
///
/// # Safety
/// `accessor` is a function of the accessor kinds gfortran generates.
#[no_mangle]
pub unsafe extern "C" fn _gfortran_caf_register_accessor(hash: i32, accessor: super::Getter) {
    register(hash, accessor as usize);
}

/// Ends a series of registrations (GCC 15+: called before the first coindexed access; Fortran
/// 2018 9.6, image selectors).
#[no_mangle]
pub extern "C" fn _gfortran_caf_register_accessors_finish() {
    finish();
}

/// The index of the accessor registered under `hash`, -1 if none (GCC 15+: cached at every
/// coindexed reference; Fortran 2018 9.6, image selectors).
#[no_mangle]
pub extern "C" fn _gfortran_caf_get_remote_function_index(hash: i32) -> i32 {
    index_of(hash).unwrap_or_else(|e| crate::runtime::get().fatal(&e, "coindexed reference"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_lookup_and_collisions() {
        register(30, 3);
        register(10, 1);
        register(20, 2);
        register(20, 2);
        register(40, 4);
        register(40, 5);
        finish();
        assert_eq!(index_of(10), Ok(0));
        assert_eq!(index_of(20), Ok(1));
        assert_eq!(index_of(30), Ok(2));
        assert_eq!(index_of(99), Ok(-1));
        assert!(index_of(40).unwrap_err().to_string().contains("hash 40"));
        assert_eq!(function(1), Ok(2));
        assert_eq!(lookup(1), None, "the fast paths wait for the fault guard");
        arm();
        assert_eq!(lookup(1), Some(2));
        assert_eq!(lookup(-1), None);
        assert!(function(9).is_err());
        assert!(function(-1).is_err());
        register(5, 7);
        assert_eq!(index_of(5), Ok(0), "a lookup republishes");
        assert_eq!(index_of(10), Ok(1));
        assert_eq!(
            lookup(0),
            Some(7),
            "an armed table stays armed when republished"
        );
    }
}
