//! Building a source file for `ferrocaf run prog.f90`: it is compiled once into a cache
//! directory keyed by a hash of the source text, the files it includes and the modules it uses
//! ([`deps`]), the flags, the compiler and the library, and the executable is reused while none
//! of them changes. The cache is private to the user
//! ([`private`]) and kept under a size limit ([`prune`]).

use super::args::Failure;
use super::{build, deps, private, prune};
use ferrocaf::runtime::config;
use std::ffi::OsString;
use std::fs;
use std::path::{Path, PathBuf};

/// File name extensions gfortran compiles as Fortran source.
const SOURCE_EXTENSIONS: &[&str] = &[
    "f", "for", "ftn", "f90", "f95", "f03", "f08", "F", "FOR", "FTN", "F90", "F95", "F03", "F08",
];

/// Whether `p` names a Fortran source file (rather than a program to run).
pub fn is_source(p: &Path) -> bool {
    p.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e))
}

/// The cache directory, private and checked (see [`private`]).
pub fn root() -> Result<PathBuf, Failure> {
    private::root().map_err(|m| Failure::fatal(m, 1))
}

/// Returns `exe` in cache entry `dir` if both are there and pass the ownership checks, marking
/// the entry used; `None` if the entry is missing.
pub fn hit(dir: &Path, exe: &Path) -> Result<Option<PathBuf>, Failure> {
    if fs::symlink_metadata(dir).is_err() {
        return Ok(None);
    }
    for p in [dir, exe] {
        private::check_own(p).map_err(|m| Failure::fatal(m, 1))?;
    }
    prune::touch(dir);
    Ok(Some(exe.to_path_buf()))
}

/// 64-bit FNV-1a over length-prefixed parts (stable across Rust versions, unlike `Hasher`s).
pub fn key(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in (part.len() as u64).to_le_bytes().iter().chain(part.iter()) {
            h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Returns the executable built from `src` with gfortran `flags`, building it if the cache
/// does not hold it yet.
pub fn executable(src: &Path, flags: &[String]) -> Result<PathBuf, Failure> {
    super::foreign::check_flags(flags)?;
    let text = fs::read(src)
        .map_err(|e| Failure::fatal(format!("cannot read {}: {e}", src.display()), 1))?;
    let lib = build::lib_dir().map_err(|m| Failure::fatal(m, 1))?;
    let compiler = build::version().ok_or_else(build::missing)?;
    let name = src.file_name().unwrap_or_default();
    let joined = flags.join("\0");
    let deps = deps::files(src, flags);
    let mut parts: Vec<&[u8]> = vec![
        env!("CARGO_PKG_VERSION").as_bytes(),
        lib.as_os_str().as_encoded_bytes(),
        compiler.as_bytes(),
        name.as_encoded_bytes(),
        joined.as_bytes(),
        &text,
    ];
    for (path, bytes) in &deps {
        parts.extend([path.as_os_str().as_encoded_bytes(), bytes.as_slice()]);
    }
    let k = key(&parts);
    let root = root()?;
    let dir = root.join(format!("{k:016x}"));
    let stem = src.file_stem().unwrap_or_default();
    if let Some(exe) = hit(&dir, &dir.join(stem))? {
        return Ok(exe);
    }
    let tmp = root.join(format!("{k:016x}.tmp{}", std::process::id()));
    let io = |what: &str, p: &Path, e: std::io::Error| {
        Failure::fatal(format!("cannot {what} {}: {e}", p.display()), 1)
    };
    private::create_dir(&tmp).map_err(|e| io("create", &tmp, e))?;
    let mut args: Vec<OsString> = flags.iter().map(OsString::from).collect();
    if !flags.iter().any(|f| f.starts_with("-J")) {
        args.extend([OsString::from("-J"), tmp.clone().into_os_string()]);
    }
    args.extend([src.into(), "-o".into(), tmp.join(stem).into_os_string()]);
    let modules = super::module::dir()?;
    let code = build::status(&mut build::command(&args, &lib, &modules));
    if code.as_ref().map_or(true, |c| *c != 0) {
        let _ = fs::remove_dir_all(&tmp);
        let code = code?;
        return Err(Failure::fatal(
            format!(
                "building {} failed (gfortran exit status {code})",
                src.display()
            ),
            code,
        ));
    }
    if let Err(e) = fs::rename(&tmp, &dir) {
        // Another run built the same key at the same time: keep theirs.
        let _ = fs::remove_dir_all(&tmp);
        if !dir.join(stem).is_file() {
            return Err(io("fill the cache at", &dir, e));
        }
    }
    let limit = config::cache_size().map_err(|e| Failure::fatal(e.0, 2))?;
    prune::prune(&root, limit as u64, &dir);
    hit(&dir, &dir.join(stem))?
        .ok_or_else(|| Failure::fatal(format!("{} vanished from the cache", dir.display()), 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources_are_recognised_by_extension() {
        assert!(is_source(Path::new("examples_caf/hello.f90")));
        assert!(is_source(Path::new("old.F")));
        assert!(!is_source(Path::new("./hello")));
        assert!(!is_source(Path::new("lib.c")));
    }

    #[test]
    fn keys_separate_their_parts() {
        assert_ne!(key(&[b"ab", b"c"]), key(&[b"a", b"bc"]));
        assert_eq!(key(&[b"x"]), key(&[b"x"]));
    }
}
