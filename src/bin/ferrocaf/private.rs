//! The cache lives in a private per-user directory, because `ferrocaf run prog.f90` executes
//! what it finds there: `$XDG_CACHE_HOME/ferrocaf`, else `$HOME/.cache/ferrocaf`, else the same
//! under the home directory of the user's passwd entry — never a shared temporary directory.
//! Every level ferrocaf uses is checked before it is trusted: the directories above the cache
//! must belong to this user or root and be writable by nobody else (sticky directories such as
//! `/tmp` excepted), and the cache, its entries and the executables in them must belong to this
//! user and be writable by nobody else. What fails a check is refused, never used.

use std::ffi::CStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// Group- or other-writable permission bits.
const WRITABLE_BY_OTHERS: u32 = 0o022;
/// The sticky bit: in such a directory only an entry's owner may rename or remove it.
const STICKY: u32 = 0o1000;

/// This process's effective user id.
fn me() -> u32 {
    // SAFETY: geteuid has no preconditions and cannot fail.
    unsafe { libc::geteuid() }
}

/// The home directory of this user's passwd entry, if there is one.
fn passwd_home() -> Option<PathBuf> {
    let mut pw: libc::passwd = zeroed_passwd();
    let mut out: *mut libc::passwd = std::ptr::null_mut();
    let mut buf = vec![0 as libc::c_char; 16 * 1024];
    // SAFETY: every pointer refers to live local storage of the stated size; getpwuid_r writes
    // the entry's strings into `buf`, which outlives their use below.
    let rc = unsafe { libc::getpwuid_r(me(), &mut pw, buf.as_mut_ptr(), buf.len(), &mut out) };
    if rc != 0 || out.is_null() || pw.pw_dir.is_null() {
        return None;
    }
    // SAFETY: pw_dir points to a NUL-terminated string in `buf`.
    let dir = unsafe { CStr::from_ptr(pw.pw_dir) };
    let dir = PathBuf::from(std::ffi::OsStr::from_bytes(dir.to_bytes()));
    dir.is_absolute().then_some(dir)
}

/// An all-zero `passwd`, to be filled by `getpwuid_r`.
fn zeroed_passwd() -> libc::passwd {
    // SAFETY: passwd holds only integers and raw pointers, for which all-zero is valid.
    unsafe { std::mem::zeroed() }
}

/// The directory the cache lives in (`$XDG_CACHE_HOME`, `$HOME/.cache` or the passwd home's
/// `.cache`), or why there is none.
pub fn base() -> Result<PathBuf, String> {
    let from = |var: &str| {
        std::env::var_os(var)
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    };
    from("XDG_CACHE_HOME")
        .or_else(|| from("HOME").map(|h| h.join(".cache")))
        .or_else(|| passwd_home().map(|h| h.join(".cache")))
        .ok_or_else(|| {
            "no private cache directory: neither XDG_CACHE_HOME nor HOME is set and this user \
             has no home directory; set XDG_CACHE_HOME to a directory of your own"
                .to_string()
        })
}

/// Checks one level: owned by this user (or root, if `root_ok`) and writable by nobody else
/// (unless `sticky_ok` and the directory is sticky). Symbolic links are not followed.
fn check(p: &Path, root_ok: bool, sticky_ok: bool) -> Result<(), String> {
    let m = fs::symlink_metadata(p).map_err(|e| format!("cannot inspect {}: {e}", p.display()))?;
    let me = me();
    if m.file_type().is_symlink() {
        return Err(format!(
            "{} is a symbolic link; the cache refuses to follow it (remove it)",
            p.display()
        ));
    }
    if m.uid() != me && !(root_ok && m.uid() == 0) {
        return Err(format!(
            "{} belongs to user {}, not to you (user {me}): the cache refuses to use what \
             another user owns; remove it or set XDG_CACHE_HOME to a directory of your own",
            p.display(),
            m.uid()
        ));
    }
    let mode = m.mode();
    if mode & WRITABLE_BY_OTHERS != 0 && !(sticky_ok && m.is_dir() && mode & STICKY != 0) {
        return Err(format!(
            "{} is writable by other users (mode {:o}): the cache refuses to use it; \
             `chmod go-w` it or set XDG_CACHE_HOME to a directory of your own",
            p.display(),
            mode & 0o7777
        ));
    }
    Ok(())
}

/// Checks an entry of the cache (a directory or a file in one): this user's, writable by
/// nobody else.
pub fn check_own(p: &Path) -> Result<(), String> {
    check(p, false, false)
}

/// Creates directory `p` with mode 0700 (and missing parents likewise).
pub fn create_dir(p: &Path) -> std::io::Result<()> {
    fs::DirBuilder::new().recursive(true).mode(0o700).create(p)
}

/// The cache directory, created private if missing, after checking every level from `/` down.
pub fn root() -> Result<PathBuf, String> {
    let base = base()?;
    create_dir(&base).map_err(|e| format!("cannot create {}: {e}", base.display()))?;
    let real = base
        .canonicalize()
        .map_err(|e| format!("cannot resolve {}: {e}", base.display()))?;
    for level in real.ancestors() {
        check(level, true, true)?;
    }
    let root = real.join("ferrocaf");
    create_dir(&root).map_err(|e| format!("cannot create {}: {e}", root.display()))?;
    check_own(&root)?;
    let mode = fs::symlink_metadata(&root).map_or(0, |m| m.mode());
    if mode & 0o077 != 0 {
        // Ours and written by nobody else, but readable: made so by an older ferrocaf.
        fs::set_permissions(&root, fs::Permissions::from_mode(0o700))
            .map_err(|e| format!("cannot make {} private: {e}", root.display()))?;
    }
    Ok(root)
}
