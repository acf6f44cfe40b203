//! Help texts, with examples, and the `help` subcommand.

use super::args::Failure;
use std::ffi::OsString;

/// Top-level help.
pub const TOP: &str = "\
ferrocaf - run coarray Fortran programs (gfortran -fcoarray=lib) on N images over shared memory

Usage: ferrocaf <command> [options]

Commands:
  build   compile and link a coarray program with gfortran and libferrocaf
  run     run a program, or a Fortran source file, on N images
  info    show version, configuration, library and compiler found, environment variables
  help    show the help of a command

Options:
  -h, --help     show this help
  -V, --version  show the version

Examples:
  ferrocaf build -O2 hello.f90 -o hello
  ferrocaf run -n 4 ./hello
  ferrocaf run -n 4 hello.f90        (builds into a cache, then runs)
  FERROCAF_NUM_IMAGES=4 ./hello      (a built program also starts its images by itself)
";

/// Help of `ferrocaf build`.
pub const BUILD: &str = "\
Usage: ferrocaf build [gfortran options] SOURCE... [-o PROGRAM]

Runs gfortran -fcoarray=lib with your options and sources, then links libferrocaf
(-L<libdir> -lferrocaf -Wl,-rpath,<libdir>; not with -c, -S, -E or -fsyntax-only).
Every option is passed to gfortran unchanged. The program is named a.out unless -o is given.
<libdir> is the directory of the ferrocaf executable, or ../lib beside it. `use ferrocaf_ext`
works too: -I names ../include/ferrocaf beside the executable when the same gfortran made
the .mod installed there, else a cache directory where the module is compiled on first use.

Examples:
  ferrocaf build hello.f90                    (writes a.out)
  ferrocaf build -O2 -g hello.f90 -o hello
  ferrocaf build -O2 -fcheck=all grid.f90 halo.f90 main.f90 -o main
  ferrocaf build -c mod.f90 && ferrocaf build mod.o main.f90 -o main
";

/// Help of `ferrocaf run`.
pub const RUN: &str = "\
Usage: ferrocaf run [-n N] [--heap SIZE] [--fflags FLAGS] PROGRAM [ARGS...]

Starts PROGRAM on N images and exits with the job's status (STOP and ERROR STOP codes
reach the shell as with a serial program). If PROGRAM is a Fortran source file
(.f90, .f, .F90, ...), it is first built with ferrocaf build into a private cache
directory ($XDG_CACHE_HOME/ferrocaf or ~/.cache/ferrocaf, at most FERROCAF_CACHE_SIZE),
rebuilt when the source, a file it includes, a module it uses or the flags change.
PROGRAM may be a wrapper that starts the program: gdb, strace -f, valgrind, time, sh -c, a
script. SIGTERM, SIGINT and SIGHUP are passed on to the images; those still running 3 s
later are killed. A program built for another coarray runtime is refused.

Options:
  -n N, -np N, --images N  number of images, 1 to 4096 (default: FERROCAF_NUM_IMAGES,
                           GFORTRAN_NUM_IMAGES, else the CPUs available)
  --heap SIZE              symmetric coarray heap per image, e.g. 256M, 512MiB or 2GB
                           (default: FERROCAF_HEAP_SIZE, else 1G)
  --fflags FLAGS           gfortran options for building a source file, e.g. --fflags '-O2 -g'
  -h, --help               show this help
Options must come before PROGRAM; everything after it is passed to the program.

Examples:
  ferrocaf run -n 4 ./hello
  ferrocaf run -np 2 --heap 256M ./pingpong 100000
  ferrocaf run -n 4 examples_caf/hello.f90
  ferrocaf run -n 2 --fflags -O2 examples_caf/pingpong.f90 100000
  ferrocaf run -n 2 gdb -batch -ex run -ex bt ./hello
";

/// Help of `ferrocaf info`.
pub const INFO: &str = "\
Usage: ferrocaf info

Shows the version, the transports compiled in, the configuration a program started directly
would use (images, heap, spin, event strategy), the directories of the executable, library,
header and Fortran module, the gfortran version found, and every environment variable
ferrocaf reads with its meaning and current value. Exits with 1 if a setting is invalid.

Examples:
  ferrocaf info
  FERROCAF_HEAP_SIZE=256M FERROCAF_EVENTS=p2p ferrocaf info
";

/// Runs `ferrocaf help [COMMAND]`.
pub fn main(args: Vec<OsString>) -> Result<i32, Failure> {
    let text = match args.first().map(|a| a.to_string_lossy()) {
        None => TOP,
        Some(c) => match c.as_ref() {
            "build" => BUILD,
            "run" => RUN,
            "info" => INFO,
            "help" | "-h" | "--help" => TOP,
            other => {
                return Err(Failure::usage(
                    "help",
                    format!("unknown command '{other}' (commands: build, run, info)"),
                ))
            }
        },
    };
    print!("{text}");
    Ok(0)
}
