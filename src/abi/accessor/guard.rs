//! What keeps an accessor that strays from coarray memory from crashing silently. An accessor
//! runs in the caller's process against the target's memory; a pointer the target stored that
//! leads to its private memory (a pointer component associated with a non-coarray target, an
//! allocatable component moved in from an ordinary allocatable) means nothing here. Two checks:
//! a result pointer the accessor hands back must lie in some image's segment ([`inside`]), and a
//! fault while an accessor runs ends the program with one line instead of a segfault ([`call`]).
//! An address that happens to be mapped in this process as well cannot be caught. The handler
//! first lets event_attach's lazy shadows serve a fault on one of their pages (`shadow.rs`).

use crate::abi::descriptor::GfcDescriptor;
use crate::runtime::Runtime;
use std::ffi::{c_int, c_void};
use std::fmt::Write;
use std::sync::OnceLock;

extern "C" {
    /// This thread's marker (1 + the 0-based target image while an accessor runs, else 0;
    /// `guard_mark.c`: initial-exec TLS).
    fn ferrocaf_accessor_mark() -> usize;
}

#[cfg(not(target_arch = "x86_64"))]
extern "C" {
    /// Sets this thread's marker and returns the previous value (`guard_mark.c`).
    fn ferrocaf_accessor_enter(target: usize) -> usize;
    /// Puts back the value `ferrocaf_accessor_enter` returned.
    fn ferrocaf_accessor_leave(was: usize);
}

/// Sets this thread's marker to `target` and returns the previous value: three instructions
/// (the marker's offset from the thread pointer, read from the GOT; a load and a store
/// relative to `fs`), where a call into `guard_mark.c` cost eight with its frame.
///
/// # Safety
/// Restore the returned value with [`store`] when the accessor returns.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn enter(target: usize) -> usize {
    let was: usize;
    // SAFETY: `ferrocaf_accessor_marker` is an initial-exec thread-local of this library
    // (guard_mark.c), so fs + its GOT-held offset is this thread's marker.
    unsafe {
        std::arch::asm!(
            "mov {off}, qword ptr [rip + ferrocaf_accessor_marker@GOTTPOFF]",
            "mov {was}, qword ptr fs:[{off}]",
            "mov qword ptr fs:[{off}], {t}",
            off = out(reg) _,
            was = out(reg) was,
            t = in(reg) target,
            options(nostack, preserves_flags),
        );
    }
    was
}

/// Sets this thread's marker to `was`: the value [`enter`] returned, or the target of an
/// outermost accessor call ([`outermost`]).
///
/// # Safety
/// `was` came from [`enter`] on this thread, or the marker is 0 and is cleared with [`clear`]
/// when the accessor returns.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn store(was: usize) {
    // SAFETY: as in `enter`.
    unsafe {
        std::arch::asm!(
            "mov {off}, qword ptr [rip + ferrocaf_accessor_marker@GOTTPOFF]",
            "mov qword ptr fs:[{off}], {was}",
            off = out(reg) _,
            was = in(reg) was,
            options(nostack, preserves_flags),
        );
    }
}

/// Sets this thread's marker back to 0 after [`outermost`] set it: two instructions.
///
/// # Safety
/// This thread set the marker for an accessor that has returned.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn clear() {
    // SAFETY: as in `enter`.
    unsafe {
        std::arch::asm!(
            "mov {off}, qword ptr [rip + ferrocaf_accessor_marker@GOTTPOFF]",
            "mov qword ptr fs:[{off}], 0",
            off = out(reg) _,
            options(nostack, preserves_flags),
        );
    }
}

/// Sets this thread's marker back to 0 after [`outermost`] set it.
///
/// # Safety
/// This thread set the marker for an accessor that has returned.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
unsafe fn clear() {
    // SAFETY: restores this thread's marker (guard_mark.c).
    unsafe { ferrocaf_accessor_leave(0) }
}

/// Sets this thread's marker to `target` and returns the previous value.
///
/// # Safety
/// Restore the returned value with [`store`] when the accessor returns.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
unsafe fn enter(target: usize) -> usize {
    // SAFETY: sets this thread's marker (guard_mark.c).
    unsafe { ferrocaf_accessor_enter(target) }
}

/// Sets this thread's marker to `was`: the value [`enter`] returned, or the target of an
/// outermost accessor call ([`outermost`]).
///
/// # Safety
/// `was` came from [`enter`] on this thread, or the marker is 0 and is cleared with [`clear`]
/// when the accessor returns.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
unsafe fn store(was: usize) {
    // SAFETY: restores this thread's marker (guard_mark.c).
    unsafe { ferrocaf_accessor_leave(was) }
}

/// Faults below this address are a null pointer plus an offset: an unallocated component.
const NULL_PAGE: usize = 65536;

/// The SIGSEGV and SIGBUS actions in place before the guard (libgfortran's backtrace handler,
/// or the default), restored for faults outside accessors.
static PREVIOUS: OnceLock<[libc::sigaction; 2]> = OnceLock::new();

const SIGNALS: [c_int; 2] = [libc::SIGSEGV, libc::SIGBUS];

/// Whether `len` bytes at `addr` lie in one image's segment as this process maps it
/// (`near`: the first byte of the segment to try first, usually the target's).
#[inline]
pub(super) fn inside(rt: &Runtime, near: usize, addr: usize, len: usize) -> bool {
    within(rt, near, addr, len) || inside_any(rt, addr, len)
}

/// Whether `len` bytes at `addr` lie in the segment starting at `lo`: one subtraction and one
/// comparison when `len` is a constant (an address below `lo` wraps to a large offset).
#[inline]
pub(super) fn within(rt: &Runtime, lo: usize, addr: usize, len: usize) -> bool {
    let off = addr.wrapping_sub(lo);
    off <= rt.seg_size && len <= rt.seg_size - off
}

/// Whether `len` bytes at `addr` lie in some image's segment (the slow half of [`inside`]).
#[cold]
pub(super) fn inside_any(rt: &Runtime, addr: usize, len: usize) -> bool {
    (0..rt.n).any(|j| {
        rt.tp
            .direct(j, 0)
            .is_some_and(|lo| within(rt, lo, addr, len))
    })
}

/// A fixed buffer for formatting in a signal handler (no allocation).
struct Line {
    buf: [u8; 320],
    len: usize,
}

impl Write for Line {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let k = s.len().min(self.buf.len() - self.len);
        self.buf[self.len..self.len + k].copy_from_slice(&s.as_bytes()[..k]);
        self.len += k;
        Ok(())
    }
}

extern "C" fn on_fault(sig: c_int, info: *mut libc::siginfo_t, _ctx: *mut c_void) {
    // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
    if sig == libc::SIGSEGV && super::shadow::on_fault(unsafe { (*info).si_addr() } as usize) {
        return;
    }
    // SAFETY: reads this thread's marker (a plain thread-local load).
    let target = unsafe { ferrocaf_accessor_mark() };
    if target != 0 {
        if let Some(rt) = crate::runtime::try_get() {
            // SAFETY: the kernel passes a valid siginfo to an SA_SIGINFO handler.
            let addr = unsafe { (*info).si_addr() } as usize;
            let mut line = Line {
                buf: [0; 320],
                len: 0,
            };
            let me = rt.me + 1;
            let _ = if addr < NULL_PAGE {
                writeln!(
                    line,
                    "ferrocaf: image {me}: an allocatable component is not allocated on image \
                     {target} (address {addr:#x}) (coindexed access)"
                )
            } else {
                writeln!(
                    line,
                    "ferrocaf: image {me}: a coindexed reference leads outside image {target}'s \
                     coarray memory (address {addr:#x}: a pointer component associated with \
                     non-coarray memory?) (coindexed access)"
                )
            };
            // SAFETY: writes `len` initialised bytes of a live buffer to stderr.
            unsafe { libc::write(2, line.buf.as_ptr().cast(), line.len) };
            rt.abort(1);
        }
    }
    // Not ours: put the previous action back; the faulting instruction runs again under it.
    if let Some(prev) = PREVIOUS.get() {
        let k = usize::from(sig == libc::SIGBUS);
        // SAFETY: restores an action read from the kernel.
        unsafe { libc::sigaction(sig, &prev[k], std::ptr::null_mut()) };
    }
}

/// Installs the handler once (at the first accessor call: libgfortran installs its own
/// handlers when `main` starts, after the runtime's constructors).
#[inline]
fn install() {
    if PREVIOUS.get().is_none() {
        install_now();
    }
}

/// Installs the handler and then opens the accessor table's fast view (`table::arm`): a fast
/// path that finds its accessor there runs it with the guard installed.
#[cold]
fn install_now() {
    catch_faults();
    super::table::arm();
}

/// Installs the handler once, remembering the actions it replaces.
pub(super) fn catch_faults() {
    PREVIOUS.get_or_init(|| {
        // SAFETY: sigaction structs are plain data; all-zero is a valid value to fill.
        let mut prev: [libc::sigaction; 2] = unsafe { std::mem::zeroed() };
        for (k, &sig) in SIGNALS.iter().enumerate() {
            // SAFETY: reads the current action into a local.
            unsafe { libc::sigaction(sig, std::ptr::null(), &mut prev[k]) };
        }
        for &sig in &SIGNALS {
            // SAFETY: as above; the handler has the SA_SIGINFO signature.
            unsafe {
                let mut act: libc::sigaction = std::mem::zeroed();
                act.sa_sigaction =
                    on_fault as extern "C" fn(c_int, *mut libc::siginfo_t, *mut c_void) as usize;
                act.sa_flags = libc::SA_SIGINFO;
                libc::sigemptyset(&mut act.sa_mask);
                libc::sigaction(sig, &act, std::ptr::null_mut());
            }
        }
        prev
    });
}

/// Runs `f` (an accessor call on 0-based image `target`) with the fault guard armed.
#[inline]
pub(super) fn call<R>(target: usize, f: impl FnOnce() -> R) -> R {
    install();
    armed(target, f)
}

/// [`call`] without the test that the handler is installed: for an accessor found through
/// `table::lookup`, which finds one only once it is.
#[inline(always)]
pub(super) fn armed<R>(target: usize, f: impl FnOnce() -> R) -> R {
    // SAFETY: sets and restores this thread's marker around the call.
    let was = unsafe { enter(target + 1) };
    let r = f();
    // SAFETY: as above.
    unsafe { store(was) };
    r
}

/// [`armed`] for a call that no accessor run encloses, so the marker is cleared after it
/// instead of restored (one load and a register fewer). The fast paths (`fast.rs`) are such
/// calls: they take only symmetric coarrays, and the one coarray an accessor's own nested calls
/// name is its caller token (`HeapKind::Caller`), which they leave to the general path.
#[inline(always)]
pub(super) fn outermost<R>(target: usize, f: impl FnOnce() -> R) -> R {
    debug_assert_eq!(
        // SAFETY: reads this thread's marker (a plain thread-local load).
        unsafe { ferrocaf_accessor_mark() },
        0,
        "an accessor run encloses"
    );
    // SAFETY: sets this thread's marker around the call; no accessor run of this thread is
    // under way (the caller's guarantee), so the marker was 0.
    unsafe { store(target + 1) };
    let r = f();
    // SAFETY: as above.
    unsafe { clear() };
    r
}

/// [`call`]s `f` with the accessor's object argument: the object's address `base` when `desc`
/// is null, else `desc` with its base address swapped for `base` during the call and restored
/// after.
///
/// # Safety
/// `desc` is null or a valid, writable descriptor.
pub(super) unsafe fn call_at(
    target: usize,
    desc: *mut GfcDescriptor,
    base: usize,
    f: impl FnOnce(*mut c_void),
) {
    if desc.is_null() {
        return call(target, || f(base as *mut c_void));
    }
    // SAFETY: a valid descriptor (caller's guarantee), restored below.
    let old = unsafe { std::mem::replace(&mut (*desc).base_addr, base as *mut c_void) };
    call(target, || f(desc.cast()));
    // SAFETY: as above.
    unsafe { (*desc).base_addr = old };
}
