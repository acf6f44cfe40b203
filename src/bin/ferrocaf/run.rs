//! `ferrocaf run`: starts a program (built first if it is a source file) on N images under the
//! supervisor and exits with the job's status.

use super::args::{self, Failure};
use super::{cache, foreign, help};
use ferrocaf::launch::supervisor::{supervise, Launch};
use ferrocaf::runtime::config;
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Name of this subcommand in messages.
const CMD: &str = "run";
/// The spellings of the image-count option (mpirun's and our own).
const IMAGE_OPTIONS: &[&str] = &["-np", "-n", "--images"];

/// What the command line asked for.
#[derive(Default)]
struct Request {
    /// Images (`None`: as a direct run would choose).
    n: Option<usize>,
    /// Heap per image (`None`: from the environment or the default).
    heap: Option<usize>,
    /// gfortran flags for building a source file.
    fflags: Vec<String>,
}

/// Runs `ferrocaf run [options] PROGRAM [ARGS...]`.
pub fn main(argv: Vec<OsString>) -> Result<i32, Failure> {
    let mut it = argv.into_iter();
    let mut req = Request::default();
    let missing = || {
        Failure::usage(
            CMD,
            "missing program to run (e.g. ferrocaf run -n 4 ./prog)",
        )
    };
    let program = 'parse: loop {
        let arg = it.next().ok_or_else(missing)?;
        let Some(s) = arg.to_str().map(str::to_string) else {
            break arg;
        };
        match s.as_str() {
            "-h" | "--help" => {
                print!("{}", help::RUN);
                return Ok(0);
            }
            "--" => break it.next().ok_or_else(missing)?,
            _ => {}
        }
        for opt in IMAGE_OPTIONS {
            if let Some(v) = args::value_of(CMD, &s, opt, &mut it)? {
                req.n = Some(args::images(CMD, opt, &v)?);
                continue 'parse;
            }
        }
        if let Some(v) = args::value_of(CMD, &s, "--heap", &mut it)? {
            req.heap = Some(args::heap(CMD, "--heap", &v)?);
        } else if let Some(v) = args::value_of(CMD, &s, "--fflags", &mut it)? {
            req.fflags.extend(v.split_whitespace().map(str::to_string));
        } else if s.starts_with('-') {
            return Err(Failure::usage(CMD, format!("unknown option '{s}'")));
        } else {
            break arg;
        }
    };
    launch(req, program, it.collect())
}

/// Builds `program` if it is a source file, then runs it on the requested images.
fn launch(req: Request, program: OsString, args: Vec<OsString>) -> Result<i32, Failure> {
    let config_error = |e: config::ConfigError| Failure::fatal(e.0, 2);
    let n = match req.n {
        Some(n) => n,
        None => config::num_images().map_err(config_error)?,
    };
    let heap = match req.heap {
        Some(h) => h,
        None => config::heap_size().map_err(config_error)?,
    };
    let path = PathBuf::from(&program);
    let (exe, arg0) = if cache::is_source(&path) {
        let exe = cache::executable(&path, &req.fflags)?.into_os_string();
        (exe.clone(), exe)
    } else if !req.fflags.is_empty() {
        return Err(Failure::usage(
            CMD,
            "--fflags applies only when running a source file",
        ));
    } else {
        let exe = resolve(&path)?;
        foreign::check_program(&exe)?;
        (exe, program)
    };
    let l = Launch {
        n,
        program: exe,
        arg0,
        args,
        heap,
    };
    supervise(&l).map_err(|e| Failure::fatal(e.0, 1))
}

/// The program to start: a path as given (which must exist), a bare name found in the current
/// directory, or else a bare name looked up in `PATH` when it is started.
fn resolve(p: &Path) -> Result<OsString, Failure> {
    let bare = p.components().count() == 1 && !p.has_root();
    if bare && !p.is_file() {
        return Ok(p.as_os_str().to_owned());
    }
    if !p.is_file() {
        return Err(Failure::fatal(
            format!("no such program: {}", p.display()),
            127,
        ));
    }
    Ok(if bare {
        Path::new(".").join(p)
    } else {
        p.to_path_buf()
    }
    .into_os_string())
}
