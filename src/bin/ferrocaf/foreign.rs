//! Programs that were not built for ferrocaf: built with another `-fcoarray=` (single, or lib
//! linked to OpenCoarrays' `libcaf_mpi` or GCC's `libcaf_shmem`), which `ferrocaf run` would
//! start as N unrelated copies or as N failing MPI programs. Detected from the ELF file and
//! from the build flags, and refused with what to do instead.

use super::args::Failure;
use super::elf;
use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// The hint shared by the messages.
const REBUILD: &str = "rebuild it with `ferrocaf build prog.f90 -o prog` (gfortran \
                       -fcoarray=lib linked to libferrocaf)";

/// Refuses a `-fcoarray=` other than `lib` among gfortran flags (ferrocaf adds `-fcoarray=lib`).
pub fn check_flags<S: AsRef<OsStr>>(flags: &[S]) -> Result<(), Failure> {
    for f in flags {
        let f = f.as_ref().to_string_lossy();
        if let Some(mode) = f.strip_prefix("-fcoarray=").filter(|m| *m != "lib") {
            return Err(Failure::fatal(
                format!(
                    "{f} builds a program that does not use ferrocaf ({}); ferrocaf builds with \
                     -fcoarray=lib: drop {f}, or call gfortran directly for a {mode} build",
                    match mode {
                        "single" => "one image, no coarray runtime",
                        "none" => "coarrays disabled",
                        _ => "another coarray mode",
                    }
                ),
                2,
            ));
        }
    }
    Ok(())
}

/// The file a program name will run: as given if it has a `/`, else found in `PATH`.
fn locate(program: &OsStr) -> Option<PathBuf> {
    let p = Path::new(program);
    if p.components().count() > 1 || p.is_file() {
        return Some(p.to_path_buf());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(p))
        .find(|c| c.is_file())
}

/// Why `linking` shows a Fortran program not built for ferrocaf, if it is one.
fn verdict(linking: &elf::Linking) -> Option<String> {
    let needs = |prefix: &str| linking.needed.iter().find(|n| n.starts_with(prefix));
    if let Some(caf) = needs("libcaf_") {
        let whose = if caf.starts_with("libcaf_shmem") {
            "GCC's own coarray library"
        } else {
            "OpenCoarrays (start it with cafrun or mpirun)"
        };
        return Some(format!(
            "is linked to {caf}, the runtime of {whose}, not to ferrocaf"
        ));
    }
    let ours =
        needs("libferrocaf").is_some() || linking.symbols.iter().any(|s| s.contains("ferrocaf"));
    if ours || !linking.has_symtab || needs("libgfortran").is_none() {
        return None;
    }
    if linking
        .symbols
        .iter()
        .any(|s| s.starts_with("_gfortran_caf_"))
    {
        let whose = if needs("libmpi").is_some() {
            "OpenCoarrays, linked statically (start it with cafrun or mpirun)"
        } else {
            "a coarray runtime other than ferrocaf"
        };
        return Some(format!("contains the coarray runtime of {whose}"));
    }
    Some(
        "was built without -fcoarray=lib (with -fcoarray=single, or without coarrays): it does \
         not use ferrocaf, and every image would run as a separate one-image program"
            .to_string(),
    )
}

/// Refuses a program that is not built for ferrocaf (other files and non-Fortran programs,
/// such as wrappers like `gdb` or `sh`, pass).
pub fn check_program(program: &OsStr) -> Result<(), Failure> {
    let Some(path) = locate(program) else {
        return Ok(());
    };
    let Some(linking) = elf::linking(&path) else {
        return Ok(());
    };
    match verdict(&linking) {
        Some(why) => Err(Failure::fatal(
            format!("{} {why}; {REBUILD}", path.display()),
            2,
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn linking(needed: &[&str], symbols: &[&str]) -> elf::Linking {
        elf::Linking {
            needed: needed.iter().map(|s| s.to_string()).collect(),
            symbols: symbols.iter().map(|s| s.to_string()).collect(),
            has_symtab: true,
        }
    }

    #[test]
    fn verdicts() {
        let ours = linking(
            &["libferrocaf.so", "libgfortran.so.5"],
            &["_gfortran_caf_init"],
        );
        assert!(verdict(&ours).is_none());
        let opencoarrays = linking(&["libcaf_mpi.so.3", "libgfortran.so.5"], &[]);
        assert!(verdict(&opencoarrays).unwrap().contains("OpenCoarrays"));
        let single = linking(&["libgfortran.so.5"], &["_gfortran_st_write"]);
        assert!(verdict(&single).unwrap().contains("-fcoarray=single"));
        let static_ours = linking(
            &["libgfortran.so.5"],
            &["_gfortran_caf_init", "_ZN8ferrocaf7runtime5start4main17h0E"],
        );
        assert!(verdict(&static_ours).is_none());
        let static_opencoarrays = linking(
            &["libmpi.so.40", "libgfortran.so.5"],
            &["_gfortran_caf_init"],
        );
        assert!(verdict(&static_opencoarrays)
            .unwrap()
            .contains("OpenCoarrays"));
        assert!(verdict(&linking(&["libc.so.6"], &[])).is_none());
    }

    #[test]
    fn only_fcoarray_lib_is_accepted() {
        assert!(check_flags(&["-O2", "-fcoarray=lib"]).is_ok());
        assert!(check_flags(&["-fcoarray=single"]).is_err());
        assert!(check_flags(&["-fcoarray=none"]).is_err());
    }
}
