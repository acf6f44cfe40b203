//! FERROCAF_TEST_LAUNCHER: runs every test program through an external launcher instead of
//! ferrocaf's own supervisor, e.g. `mpirun --oversubscribe -n {n}` for the MPI transport
//! (`{n}` is replaced by the image count). Tests that need a capability the launched
//! transport lacks say so in their header (`! test: requires supervisor`) and are skipped, by name;
//! so are programs with GCC 15+ accessors when the images do not share memory. A run the
//! launcher did not start (its daemons did not start or never connected back) is launched again,
//! at most twice (`relaunch.rs`).

use std::path::Path;
use std::process::Command;

/// The launcher's words, if FERROCAF_TEST_LAUNCHER is set and not empty.
pub fn from_env() -> Option<Vec<String>> {
    let text = std::env::var("FERROCAF_TEST_LAUNCHER").ok()?;
    let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
    (!words.is_empty()).then_some(words)
}

/// FERROCAF_TEST_MAX_IMAGES: the largest image count to run (runs on more images are listed as
/// skipped), for launchers where every image costs much more than on one machine (the test
/// bed's hosts, scripts/test_testbed.sh).
pub fn max_images() -> Result<Option<usize>, String> {
    match std::env::var("FERROCAF_TEST_MAX_IMAGES") {
        Err(_) => Ok(None),
        Ok(v) => v
            .trim()
            .parse()
            .map(Some)
            .map_err(|_| format!("FERROCAF_TEST_MAX_IMAGES={v:?} is not an image count")),
    }
}

/// Whether a run lacks a capability a test requires: `supervisor`, ferrocaf's own launcher
/// (its messages about killed images, and an exit with a non-zero STOP code that nobody
/// reports), which a `launched` (MPI) job lacks; `shared-window`, images on one node sharing
/// their memory, which a launched job with FERROCAF_MPI_SHM=0 (one-sided RMA only) or over
/// the fabric transport lacks; `mapped-peers`, every image mapping every other's memory, which
/// such a job lacks too, and so does one whose images are spread over hosts
/// (FERROCAF_TEST_HOSTS above 1: scripts/test_testbed.sh, scripts/test_sid_mpi.sh --bed);
/// `rma-only`, images that do not map each other's memory: only
/// such a job has it; `steady-memory`, resident memory that stays flat over many operations,
/// which libfabric's tcp provider (`tcp;ofi_rxm`) lacks: its processes grow by about 47 bytes
/// per RMA operation until some 12 MB of the provider's per-connection memory has been touched
/// (docs/ARCHITECTURE.md, "Fabric transport").
pub fn missing(capability: &str, launched: bool) -> bool {
    let env_is = |var: &str, v: &str| std::env::var(var).is_ok_and(|x| x == v);
    let rma_only =
        launched && (env_is("FERROCAF_MPI_SHM", "0") || env_is("FERROCAF_TRANSPORT", "fabric"));
    match capability {
        "supervisor" => launched,
        "shared-window" => rma_only,
        "mapped-peers" => rma_only || (launched && hosts() > 1),
        "rma-only" => !rma_only,
        "steady-memory" => {
            launched
                && env_is("FERROCAF_TRANSPORT", "fabric")
                && std::env::var("FI_PROVIDER").is_ok_and(|p| p.starts_with("tcp"))
        }
        _ => false,
    }
}

/// FERROCAF_TEST_HOSTS: over how many hosts the launcher spreads the images (1 when unset or
/// not a number).
fn hosts() -> usize {
    std::env::var("FERROCAF_TEST_HOSTS")
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(1)
}

/// The command running `exe` on `n` images: directly (the program supervises itself), or
/// through the launcher.
pub fn command(launcher: Option<&[String]>, exe: &Path, n: usize) -> Command {
    match launcher {
        None => Command::new(exe),
        Some(words) => {
            let mut cmd = Command::new(&words[0]);
            cmd.args(words[1..].iter().map(|w| w.replace("{n}", &n.to_string())))
                .arg(exe);
            cmd
        }
    }
}
