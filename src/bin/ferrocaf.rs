//! The `ferrocaf` command line: `build` compiles a coarray program with gfortran against
//! libferrocaf, `run` starts it on N images, `info` shows the configuration.
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![warn(clippy::undocumented_unsafe_blocks)]

#[path = "ferrocaf/mod.rs"]
mod cli;

use cli::args::Failure;

fn main() {
    // SAFETY: restoring the default action of SIGPIPE has no memory-safety preconditions; it
    // makes `ferrocaf info | head` end quietly, as other command-line tools do, instead of
    // failing on a closed pipe. Images get the default action anyway (std resets it on spawn).
    unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    let argv: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let code = match cli::dispatch(argv) {
        Ok(code) => code,
        Err(Failure::Usage { cmd, msg }) => {
            let cmd = if cmd.is_empty() {
                String::new()
            } else {
                format!(" {cmd}")
            };
            eprintln!("ferrocaf{cmd}: {msg}");
            eprintln!("Try 'ferrocaf{cmd} --help' for more information.");
            2
        }
        Err(Failure::Fatal { msg, code }) => {
            eprintln!("ferrocaf: {msg}");
            code
        }
    };
    std::process::exit(code);
}
