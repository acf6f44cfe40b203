//! `ferrocaf build`: `gfortran -fcoarray=lib` with libferrocaf linked in; every other flag is
//! passed through unchanged.

use super::args::Failure;
use super::help;
use std::ffi::OsString;
use std::io::ErrorKind;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The compiler driver ferrocaf calls.
const GFORTRAN: &str = "gfortran";

/// gfortran options whose value is the next argument (so it is not an input file).
const TAKES_VALUE: &[&str] = &[
    "-o",
    "-I",
    "-J",
    "-L",
    "-l",
    "-x",
    "-D",
    "-U",
    "-include",
    "-isystem",
    "-iquote",
    "-idirafter",
    "-MF",
    "-MT",
    "-MQ",
    "-Xlinker",
    "-Xassembler",
    "-Xpreprocessor",
];

/// gfortran options that stop before linking (then libferrocaf is not added).
const NO_LINK: &[&str] = &["-c", "-S", "-E", "-fsyntax-only", "-M", "-MM"];

/// Runs `ferrocaf build ARGS...`.
pub fn main(args: Vec<OsString>) -> Result<i32, Failure> {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        print!("{}", help::BUILD);
        return Ok(0);
    }
    if !has_input(&args) {
        return Err(Failure::usage(
            "build",
            "missing source file (e.g. ferrocaf build prog.f90)",
        ));
    }
    super::foreign::check_flags(&args)?;
    let lib = lib_dir().map_err(|m| Failure::fatal(m, 1))?;
    let modules = super::module::dir()?;
    status(&mut command(&args, &lib, &modules))
}

/// Whether `args` name at least one input file.
fn has_input(args: &[OsString]) -> bool {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let s = a.to_string_lossy();
        if TAKES_VALUE.contains(&s.as_ref()) {
            it.next();
        } else if !s.starts_with('-') || s == "-" {
            return true;
        }
    }
    false
}

/// The directory of this executable, symbolic links resolved: cargo's `target/<profile>/`, or
/// `<prefix>/bin` when installed.
pub fn exe_dir() -> Result<PathBuf, String> {
    let exe = std::env::current_exe()
        .and_then(|e| e.canonicalize())
        .map_err(|e| format!("cannot locate the ferrocaf executable: {e}"))?;
    Ok(exe.parent().unwrap_or(Path::new("/")).to_path_buf())
}

/// The directory holding libferrocaf: next to this executable (cargo's `target/<profile>/`),
/// else `../lib` beside its directory (the installed layout).
pub fn lib_dir() -> Result<PathBuf, String> {
    let bin = exe_dir()?;
    let candidates = [bin.clone(), bin.join("../lib")];
    candidates
        .iter()
        .find(|d| d.join("libferrocaf.so").is_file())
        .map(|d| d.canonicalize().unwrap_or_else(|_| d.clone()))
        .ok_or_else(|| {
            format!(
                "cannot find libferrocaf.so in {} or {} (build it with `cargo build`)",
                candidates[0].display(),
                candidates[1].display()
            )
        })
}

/// `gfortran -fcoarray=lib -I<modules> ARGS -L<lib> -lferrocaf -Wl,-rpath,<lib>` (link flags
/// only when the command links; `<modules>` holds `ferrocaf_ext.mod`).
pub fn command(args: &[OsString], lib: &Path, modules: &Path) -> Command {
    let mut cmd = Command::new(GFORTRAN);
    let mut inc = OsString::from("-I");
    inc.push(modules.as_os_str());
    cmd.arg("-fcoarray=lib").arg(inc).args(args);
    if !args.iter().any(|a| NO_LINK.iter().any(|n| a == *n)) {
        let with = |prefix: &str| {
            let mut s = OsString::from(prefix);
            s.push(lib.as_os_str());
            s
        };
        cmd.arg(with("-L"))
            .arg("-lferrocaf")
            .arg(with("-Wl,-rpath,"));
    }
    cmd
}

/// Runs a gfortran command and returns its exit status (128 + signal if it was killed).
pub fn status(cmd: &mut Command) -> Result<i32, Failure> {
    match cmd.status() {
        Ok(st) => Ok(st.code().unwrap_or_else(|| 128 + st.signal().unwrap_or(0))),
        Err(e) if e.kind() == ErrorKind::NotFound => Err(missing()),
        Err(e) => Err(Failure::fatal(format!("cannot run {GFORTRAN}: {e}"), 1)),
    }
}

/// The failure when gfortran is not installed.
pub fn missing() -> Failure {
    Failure::fatal(
        format!("{GFORTRAN} not found; install it with: sudo apt-get install {GFORTRAN}"),
        127,
    )
}

/// The first line of `gfortran --version`, or `None` if gfortran cannot be run.
pub fn version() -> Option<String> {
    let out = Command::new(GFORTRAN).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    out.status
        .success()
        .then(|| text.lines().next().unwrap_or("").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn inputs_are_told_from_option_values() {
        assert!(has_input(&os(&["-O2", "prog.f90", "-o", "prog"])));
        assert!(!has_input(&os(&["-O2", "-o", "prog", "-I", "inc"])));
        assert!(!has_input(&[]));
    }

    #[test]
    fn link_flags_only_when_linking() {
        let lib = Path::new("/opt/ferrocaf/lib");
        let linked: Vec<_> = command(&os(&["a.f90"]), lib, Path::new("/m"))
            .get_args()
            .map(|a| a.to_owned())
            .collect();
        assert_eq!(linked[0], "-fcoarray=lib");
        assert!(linked.contains(&OsString::from("-lferrocaf")));
        assert!(linked.contains(&OsString::from("-Wl,-rpath,/opt/ferrocaf/lib")));
        let compiled = command(&os(&["-c", "a.f90"]), lib, Path::new("/m"));
        assert!(!compiled.get_args().any(|a| a == "-lferrocaf"));
    }
}
