//! The `ferrocaf_ext` Fortran module (notified-access extension): its source is built into this
//! executable and compiled on first use with the user's own gfortran (`.mod` files are
//! compiler-version specific), into the cache; `ferrocaf build` adds that directory with `-I`.

use super::args::Failure;
use super::{build, cache};
use std::fs;
use std::path::PathBuf;
use std::process::Command;

/// The module's source.
pub const SOURCE: &str = include_str!("../../../caf_abi/ferrocaf_ext.f90");

/// The directory holding `ferrocaf_ext.mod` for the installed gfortran, compiling it if needed.
pub fn dir() -> Result<PathBuf, Failure> {
    let compiler = build::version().ok_or_else(build::missing)?;
    let k = cache::key(&[SOURCE.as_bytes(), compiler.as_bytes()]);
    let dir = cache::root().join(format!("module-{k:016x}"));
    if dir.join("ferrocaf_ext.mod").is_file() {
        return Ok(dir);
    }
    let io = |e: std::io::Error| {
        Failure::fatal(format!("cannot prepare the ferrocaf_ext module: {e}"), 1)
    };
    let tmp = cache::root().join(format!("module-{k:016x}.{}", std::process::id()));
    fs::create_dir_all(&tmp).map_err(io)?;
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
