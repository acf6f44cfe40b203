//! The `ferrocaf_ext` Fortran module (notified-access extension). `.mod` files are specific to
//! the gfortran version that wrote them, so `ferrocaf build` adds with `-I` either the installed
//! `<prefix>/include/ferrocaf` — when a stamp file beside its `ferrocaf_ext.mod` names the same
//! gfortran (scripts/install.sh writes it) — or a cache directory where the module source,
//! built into this executable, is compiled on first use with the user's own gfortran.

use super::args::Failure;
use super::{build, cache, private};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The module's source.
pub const SOURCE: &str = include_str!("../../../caf_abi/ferrocaf_ext.f90");

/// The stamp beside an installed `ferrocaf_ext.mod`: the first line of `gfortran --version` of
/// the compiler that wrote it.
pub const STAMP: &str = "ferrocaf_ext.stamp";

/// Where `ferrocaf_ext.mod` for a given gfortran is found.
pub enum Location {
    /// In the installed include directory, made by the same gfortran.
    Installed(PathBuf),
    /// In the cache (compiled there on first use).
    Cache(PathBuf),
}

/// The installed include directory `<bin>/../include/ferrocaf`, if it exists.
pub fn installed_dir() -> Option<PathBuf> {
    let dir = build::exe_dir().ok()?.join("../include/ferrocaf");
    dir.canonicalize().ok().filter(|d| d.is_dir())
}

/// Where the module for `compiler` (the first line of `gfortran --version`) is or will be,
/// under the cache directory `cache_root`.
pub fn location(compiler: &str, cache_root: &Path) -> Location {
    match installed_dir().filter(|d| made_by(d, compiler)) {
        Some(dir) => Location::Installed(dir),
        None => Location::Cache(cache_dir(compiler, cache_root)),
    }
}

/// The cache entry holding the module compiled by `compiler`.
fn cache_dir(compiler: &str, cache_root: &Path) -> PathBuf {
    let k = cache::key(&[SOURCE.as_bytes(), compiler.as_bytes()]);
    cache_root.join(format!("module-{k:016x}"))
}

/// Whether `dir` holds a `ferrocaf_ext.mod` whose stamp names `compiler`.
fn made_by(dir: &Path, compiler: &str) -> bool {
    dir.join("ferrocaf_ext.mod").is_file()
        && fs::read_to_string(dir.join(STAMP)).is_ok_and(|s| s.trim() == compiler.trim())
}

/// The directory holding `ferrocaf_ext.mod` for the gfortran on `PATH`, compiling it into the
/// cache if no installed one fits.
pub fn dir() -> Result<PathBuf, Failure> {
    let compiler = build::version().ok_or_else(build::missing)?;
    if let Some(dir) = installed_dir().filter(|d| made_by(d, &compiler)) {
        return Ok(dir);
    }
    let dir = cache_dir(&compiler, &cache::root()?);
    if cache::hit(&dir, &dir.join("ferrocaf_ext.mod"))?.is_some() {
        return Ok(dir);
    }
    let io = |e: std::io::Error| {
        Failure::fatal(format!("cannot prepare the ferrocaf_ext module: {e}"), 1)
    };
    let mut tmp = dir.clone().into_os_string();
    tmp.push(format!(".{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    private::create_dir(&tmp).map_err(io)?;
    let src = tmp.join("ferrocaf_ext.f90");
    fs::write(&src, SOURCE).map_err(io)?;
    let mut cmd = Command::new("gfortran");
    cmd.args(["-fcoarray=lib", "-c"])
        .arg(&src)
        .arg("-J")
        .arg(&tmp)
        .arg("-o")
        .arg(tmp.join("ferrocaf_ext.o"));
    if build::status(&mut cmd)? != 0 {
        return Err(Failure::fatal(
            "gfortran could not compile the ferrocaf_ext module",
            1,
        ));
    }
    if fs::rename(&tmp, &dir).is_err() {
        // Another ferrocaf finished first; its copy is as good as ours.
        let _ = fs::remove_dir_all(&tmp);
    }
    Ok(dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn installed_module_is_used_only_for_the_same_compiler() {
        let dir = std::env::temp_dir().join(format!("ferrocaf-module-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let gcc12 = "GNU Fortran (Debian 12.2.0-14) 12.2.0";
        assert!(!made_by(&dir, gcc12), "no .mod, no stamp");
        fs::write(dir.join("ferrocaf_ext.mod"), "").unwrap();
        assert!(
            !made_by(&dir, gcc12),
            "a .mod without a stamp is of unknown origin"
        );
        fs::write(dir.join(STAMP), format!("{gcc12}\n")).unwrap();
        assert!(made_by(&dir, gcc12));
        assert!(!made_by(&dir, "GNU Fortran (GCC) 14.2.0"));
        fs::remove_dir_all(&dir).unwrap();
    }
}
