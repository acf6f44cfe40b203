//! `ferrocaf info`: version, transports, the configuration a direct run would use, where the
//! library and gfortran are, and every environment variable ferrocaf reads.

use super::args::Failure;
use super::module::{self, Location};
use super::{build, help, private};
use ferrocaf::abi::generation;
use ferrocaf::engine::event::Strategy;
use ferrocaf::runtime::config::{self, ConfigError, VARIABLES};
use std::ffi::OsString;
use std::path::PathBuf;

/// Transports compiled into this build, with what each is for.
fn transports() -> String {
    let mut list = vec!["shm (shared memory, one machine)"];
    if cfg!(feature = "mpi") {
        list.push("mpi (MPI-3 RMA, several machines)");
    }
    if cfg!(feature = "fabric") {
        list.push("fabric (libfabric RMA under a PMIx launcher)");
    }
    list.join(", ")
}

/// The libfabric providers the fabric transport could use here (FI_PROVIDER applied).
#[cfg(feature = "fabric")]
fn fabric_providers() -> Option<String> {
    Some(match ferrocaf::transport::fabric::providers() {
        Ok(list) if list.is_empty() => "none".to_string(),
        Ok(list) => list.join(", "),
        Err(e) => format!("none ({e})"),
    })
}

/// Without the fabric transport there are no providers to list.
#[cfg(not(feature = "fabric"))]
fn fabric_providers() -> Option<String> {
    None
}

/// The name `FERROCAF_EVENTS` gives a strategy.
fn strategy_name(s: Strategy) -> &'static str {
    match s {
        Strategy::Atomic => "atomic",
        Strategy::P2p => "p2p",
        Strategy::Notified => "notified",
    }
}

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
    println!("transports:  {}", transports());
    if let Some(p) = fabric_providers() {
        println!("providers:   {p} (libfabric, for FERROCAF_TRANSPORT=fabric)");
    }
    println!(
        "images:      {} (for a program started directly)",
        show(images.map(|n| n.to_string()))
    );
    println!("heap:        {}", show(config::heap_size().map(size)));
    println!(
        "spin:        {}",
        show(config::spin(n).map(|s| format!("{s} iterations before a wait sleeps")))
    );
    println!(
        "wait:        {}",
        show(config::wait_policy().map(|p| p.name().to_string()))
    );
    println!(
        "events:      {}",
        show(config::events().map(|s| strategy_name(s).to_string()))
    );
    println!(
        "large puts:  {}",
        ferrocaf::sys::cache::Domains::here().describe()
    );
    println!(
        "gfortran ABI: {}",
        show(generation::setting().map_err(ConfigError).map(|g| match g {
            Some(g) => format!(
                "{} ({}, from FERROCAF_GFORTRAN_ABI)",
                g.setting(),
                g.compilers()
            ),
            None => "read from each program (the compiler its .comment names)".to_string(),
        }))
    );
    println!("\nDirectories:");
    let found = |r: Result<PathBuf, String>| match r {
        Ok(dir) => dir.display().to_string(),
        Err(e) => format!("NOT FOUND: {e}"),
    };
    println!("  executable:  {}", found(build::exe_dir()));
    println!("  library:     {}", found(build::lib_dir()));
    let include = module::installed_dir();
    println!(
        "  include:     {}",
        include.as_ref().map_or_else(
            || "none (not an installed ferrocaf; C header: caf_abi/ferrocaf.h)".to_string(),
            |d| d.display().to_string()
        )
    );
    let gfortran = build::version();
    let cache_root = private::base().map(|b| b.join("ferrocaf"));
    println!("  cache:       {}", found(cache_root.clone()));
    let cache_root = cache_root.unwrap_or_else(|_| PathBuf::from("(no cache directory)"));
    let modules = match gfortran
        .as_deref()
        .map(|g| module::location(g, &cache_root))
    {
        Some(Location::Installed(dir)) => format!("{} (installed)", dir.display()),
        Some(Location::Cache(dir)) => format!(
            "{} (the cache; compiled on first use{})",
            dir.display(),
            if include.is_some() {
                ", as the installed one is for another gfortran"
            } else {
                ""
            }
        ),
        None => "NOT FOUND (gfortran is needed to compile ferrocaf_ext)".to_string(),
    };
    println!("  modules:     {modules}");
    let gfortran = gfortran.unwrap_or_else(|| {
        "NOT FOUND (install it with: sudo apt-get install gfortran)".to_string()
    });
    println!("\ngfortran:      {gfortran}");
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
