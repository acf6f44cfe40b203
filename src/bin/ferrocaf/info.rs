//! `ferrocaf info`: version, transports, the configuration a direct run would use, where the
//! library and gfortran are, and every environment variable ferrocaf reads.

use super::args::Failure;
use super::{build, help};
use ferrocaf::runtime::config::{self, ConfigError, VARIABLES};
use std::ffi::OsString;

/// Transports compiled into this build.
const TRANSPORTS: &str = "shm (POSIX shared memory, one machine)";

/// Runs `ferrocaf info`.
pub fn main(args: Vec<OsString>) -> Result<i32, Failure> {
    if let Some(a) = args.first() {
        if a == "-h" || a == "--help" {
            print!("{}", help::INFO);
            return Ok(0);
        }
        let a = a.to_string_lossy();
        let what = if a.starts_with('-') {
            "option"
        } else {
            "argument"
        };
        return Err(Failure::usage("info", format!("unknown {what} '{a}'")));
    }
    let mut errors = 0;
    let mut show = |r: Result<String, ConfigError>| {
        r.unwrap_or_else(|e| {
            errors += 1;
            format!("INVALID: {e}")
        })
    };
    let images = config::num_images();
    let n = *images.as_ref().unwrap_or(&1);
    println!("ferrocaf {}", env!("CARGO_PKG_VERSION"));
    println!("transports:  {TRANSPORTS}");
    println!(
        "images:      {} (for a program started directly)",
        show(images.map(|n| n.to_string()))
    );
    println!("heap:        {}", show(config::heap_size().map(size)));
    println!(
        "spin:        {}",
        show(config::spin(n).map(|s| format!("{s} iterations before a wait sleeps")))
    );
    let lib = match build::lib_dir() {
        Ok(dir) => dir.display().to_string(),
        Err(e) => format!("NOT FOUND: {e}"),
    };
    println!("library dir: {lib}");
    let gfortran = build::version().unwrap_or_else(|| {
        "NOT FOUND (install it with: sudo apt-get install gfortran)".to_string()
    });
    println!("gfortran:    {gfortran}");
    println!("\nEnvironment variables:");
    for (name, meaning) in VARIABLES {
        let value = match std::env::var_os(name) {
            Some(v) => format!("= {}", v.to_string_lossy()),
            None => "(unset)".to_string(),
        };
        println!("  {name} {value}\n      {meaning}");
    }
    if errors > 0 {
        eprintln!("ferrocaf: the configuration above has {errors} invalid setting(s)");
        return Ok(1);
    }
    Ok(0)
}

/// `bytes` as `N bytes per image (1G)` when it is a whole number of K/M/G/T.
fn size(bytes: usize) -> String {
    let unit = [(40, 'T'), (30, 'G'), (20, 'M'), (10, 'K')]
        .iter()
        .find(|(shift, _)| bytes >> shift > 0 && bytes.is_multiple_of(1 << shift))
        .map(|(shift, u)| format!(" ({}{u})", bytes >> shift))
        .unwrap_or_default();
    format!("{bytes} bytes per image{unit}")
}

#[cfg(test)]
mod tests {
    use super::size;

    #[test]
    fn sizes_show_their_unit() {
        assert_eq!(size(1 << 30), "1073741824 bytes per image (1G)");
        assert_eq!(size(3 << 20), "3145728 bytes per image (3M)");
        assert_eq!(size(1000), "1000 bytes per image");
    }
}
