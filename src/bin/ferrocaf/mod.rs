//! The subcommands of the `ferrocaf` command line, one module each.

pub mod args;
mod build;
mod cache;
mod deps;
mod elf;
mod foreign;
mod help;
mod info;
mod module;
mod private;
mod prune;
mod run;

use args::Failure;
use std::ffi::OsString;

/// Runs the subcommand named by the first argument; returns the exit status.
pub fn dispatch(argv: Vec<OsString>) -> Result<i32, Failure> {
    let mut rest = argv.into_iter();
    let Some(first) = rest.next() else {
        print!("{}", help::TOP);
        return Ok(0);
    };
    let rest: Vec<_> = rest.collect();
    match first.to_string_lossy().as_ref() {
        "build" => build::main(rest),
        "run" => run::main(rest),
        "info" => info::main(rest),
        "help" => help::main(rest),
        "-h" | "--help" => {
            print!("{}", help::TOP);
            Ok(0)
        }
        "-V" | "--version" => {
            println!("ferrocaf {}", env!("CARGO_PKG_VERSION"));
            Ok(0)
        }
        other if other.starts_with('-') => {
            Err(Failure::usage("", format!("unknown option '{other}'")))
        }
        other => Err(Failure::usage(
            "",
            format!("unknown command '{other}' (commands: build, run, info, help)"),
        )),
    }
}
