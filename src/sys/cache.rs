//! Which CPUs share a last-level cache, as the kernel describes them under
//! `/sys/devices/system/cpu/cpu*/cache/` (the highest-level data or unified cache of CPU 0 and
//! its `shared_cpu_list` on each CPU).
//!
//! A store into a line another core holds costs a read for ownership; when the two cores share
//! a cache that read is served there, when they do not it crosses the chip (or the socket). The
//! shm transport's large puts decide from this whether streaming stores, which skip that read
//! but leave the data in memory rather than in any cache, pay (`transport/shm/stream.rs`).

use std::path::Path;
use std::sync::OnceLock;

/// The last-level cache domain of each CPU: CPUs with the same domain share that cache.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Domains {
    /// Domain of CPU `i` (the lowest CPU sharing its cache), `None` where the kernel said
    /// nothing.
    of: Vec<Option<u32>>,
    /// Whether the kernel described every online CPU and all of them share one cache.
    one: bool,
}

impl Domains {
    /// Reads the domains from the sysfs tree at `root` (`/sys/devices/system/cpu` on a live
    /// system). Anything missing or unreadable leaves the CPUs it concerns without a domain.
    pub fn read(root: &Path) -> Domains {
        let online = read_list(&root.join("online")).unwrap_or_default();
        let Some(index) = last_level_index(&root.join("cpu0/cache")) else {
            return Domains::default();
        };
        let mut of: Vec<Option<u32>> = Vec::new();
        for &cpu in &online {
            if of.get(cpu).copied().flatten().is_some() {
                continue;
            }
            let list = root.join(format!("cpu{cpu}/cache/{index}/shared_cpu_list"));
            let Some(sharing) = read_list(&list) else {
                continue;
            };
            let domain = sharing.iter().copied().min().unwrap_or(cpu);
            for c in sharing.into_iter().chain([cpu]) {
                if of.len() <= c {
                    of.resize(c + 1, None);
                }
                of[c] = u32::try_from(domain).ok();
            }
        }
        let first = online.first().and_then(|&c| of.get(c).copied().flatten());
        let one = first.is_some()
            && online
                .iter()
                .all(|&c| of.get(c).copied().flatten() == first);
        Domains { of, one }
    }

    /// A machine of `cpus` CPUs that all share one cache.
    #[cfg(test)]
    pub fn all_shared(cpus: usize) -> Domains {
        Domains {
            of: vec![Some(0); cpus],
            one: true,
        }
    }

    /// The domains of this machine, read once.
    pub fn here() -> &'static Domains {
        static HERE: OnceLock<Domains> = OnceLock::new();
        HERE.get_or_init(|| Domains::read(Path::new("/sys/devices/system/cpu")))
    }

    /// How large puts between images go on this machine, for `ferrocaf info`.
    pub fn describe(&self) -> String {
        let mut caches: Vec<u32> = self.of.iter().flatten().copied().collect();
        caches.sort_unstable();
        caches.dedup();
        if self.one {
            let cpus = self.of.iter().flatten().count();
            format!("ordinary stores (all {cpus} CPUs share one last-level cache)")
        } else if caches.is_empty() {
            "streaming stores between CPUs (the kernel describes no shared cache)".to_string()
        } else {
            format!(
                "streaming stores between CPUs under different last-level caches ({} caches)",
                caches.len()
            )
        }
    }

    /// Whether CPUs `a` and `b` share their last-level cache. A CPU not known (`None`: the
    /// kernel did not say where a thread runs, or it has not run yet) shares it with another
    /// only when every CPU of the machine shares one cache; a CPU always shares with itself.
    pub fn share(&self, a: Option<usize>, b: Option<usize>) -> bool {
        let domain = |c: usize| self.of.get(c).copied().flatten();
        match (a, b) {
            (Some(a), Some(b)) if a == b => true,
            (Some(a), Some(b)) => match (domain(a), domain(b)) {
                (Some(x), Some(y)) => x == y,
                _ => self.one,
            },
            _ => self.one,
        }
    }
}

/// The `indexN` directory of the highest-level data or unified cache under `dir`.
fn last_level_index(dir: &Path) -> Option<String> {
    let mut best: Option<(u32, String)> = None;
    for entry in std::fs::read_dir(dir).ok()?.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("index") {
            continue;
        }
        let read = |f: &str| std::fs::read_to_string(entry.path().join(f)).ok();
        if read("type").is_some_and(|t| t.trim() == "Instruction") {
            continue;
        }
        let Some(level) = read("level").and_then(|l| l.trim().parse::<u32>().ok()) else {
            continue;
        };
        if best.as_ref().is_none_or(|(l, _)| level > *l) {
            best = Some((level, name));
        }
    }
    best.map(|(_, name)| name)
}

/// The CPUs of a kernel CPU list file (`0-3,8,10-11`), `None` if unreadable or malformed.
fn read_list(path: &Path) -> Option<Vec<usize>> {
    parse_list(std::fs::read_to_string(path).ok()?.trim())
}

/// The CPUs of a kernel CPU list (`0-3,8,10-11`; empty: none), `None` if malformed.
fn parse_list(text: &str) -> Option<Vec<usize>> {
    let mut cpus = Vec::new();
    for part in text.split(',').filter(|p| !p.is_empty()) {
        let (lo, hi): (usize, usize) = match part.split_once('-') {
            Some((lo, hi)) => (lo.parse().ok()?, hi.parse().ok()?),
            None => {
                let c = part.parse().ok()?;
                (c, c)
            }
        };
        if hi < lo {
            return None;
        }
        cpus.extend(lo..=hi);
    }
    Some(cpus)
}

#[cfg(test)]
mod tests {
    use super::{parse_list, Domains};
    use std::path::{Path, PathBuf};

    /// One cache of a CPU: index, level, type, shared_cpu_list.
    type Cache = (u32, u32, &'static str, &'static str);

    /// A fake `/sys/devices/system/cpu` under a fresh temporary directory: `online`, and the
    /// caches of CPU 0, 1, ... in order.
    fn tree(online: &str, cpus: &[Vec<Cache>]) -> PathBuf {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let k = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let root = std::env::temp_dir().join(format!("ferrocaf-cache-{}-{k}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join("online"), format!("{online}\n")).unwrap();
        for (cpu, caches) in cpus.iter().enumerate() {
            for (index, level, kind, list) in caches {
                let d = root.join(format!("cpu{cpu}/cache/index{index}"));
                std::fs::create_dir_all(&d).unwrap();
                std::fs::write(d.join("level"), format!("{level}\n")).unwrap();
                std::fs::write(d.join("type"), format!("{kind}\n")).unwrap();
                std::fs::write(d.join("shared_cpu_list"), format!("{list}\n")).unwrap();
            }
        }
        root
    }

    /// The caches of a CPU: private L1d, L1i and L2, and an L3 shared by `l3`.
    fn caches(own: &'static str, l3: &'static str) -> Vec<Cache> {
        vec![
            (0, 1, "Data", own),
            (1, 1, "Instruction", own),
            (2, 2, "Unified", own),
            (3, 3, "Unified", l3),
        ]
    }

    #[test]
    fn cpu_lists_parse_ranges_and_singles() {
        assert_eq!(parse_list("0-3,8,10-11"), Some(vec![0, 1, 2, 3, 8, 10, 11]));
        assert_eq!(parse_list("5"), Some(vec![5]));
        assert_eq!(parse_list(""), Some(vec![]));
        assert_eq!(parse_list("3-1"), None);
        assert_eq!(parse_list("a"), None);
    }

    /// Two CPUs under one L3 share it, with each other and with a CPU not known.
    #[test]
    fn one_shared_last_level_cache() {
        let root = tree("0-1", &[caches("0", "0-1"), caches("1", "0-1")]);
        let d = Domains::read(&root);
        assert!(d.share(Some(0), Some(1)));
        assert!(d.share(None, Some(1)), "any CPU shares the one cache");
        assert!(
            d.describe().starts_with("ordinary stores (all 2 CPUs"),
            "{}",
            d.describe()
        );
        std::fs::remove_dir_all(root).unwrap();
    }

    /// Two L3 instances (two chiplets or sockets): CPUs under the same one share, the others
    /// and a CPU not known do not; a CPU shares with itself.
    #[test]
    fn two_last_level_caches() {
        let per = [
            caches("0", "0-1"),
            caches("1", "0-1"),
            caches("2", "2-3"),
            caches("3", "2-3"),
        ];
        let root = tree("0-3", &per);
        let d = Domains::read(&root);
        assert!(d.share(Some(0), Some(1)) && d.share(Some(2), Some(3)));
        assert!(!d.share(Some(1), Some(2)));
        assert!(!d.share(None, Some(0)), "not known: maybe the other cache");
        assert!(d.share(Some(3), Some(3)));
        assert!(
            !d.share(Some(0), Some(9)),
            "a CPU the kernel did not describe"
        );
        std::fs::remove_dir_all(root).unwrap();
    }

    /// Private caches only (the highest level is each CPU's own L2): nothing is shared.
    #[test]
    fn private_caches_share_nothing() {
        let c =
            |own: &'static str| -> Vec<Cache> { vec![(0, 1, "Data", own), (2, 2, "Unified", own)] };
        let root = tree("0-1", &[c("0"), c("1")]);
        let d = Domains::read(&root);
        assert!(!d.share(Some(0), Some(1)));
        assert!(!d.share(None, None));
        std::fs::remove_dir_all(root).unwrap();
    }

    /// No cache information at all: only a CPU and itself share.
    #[test]
    fn no_description_shares_nothing() {
        let d = Domains::read(Path::new("/nonexistent/ferrocaf"));
        assert!(!d.share(Some(0), Some(1)));
        assert!(!d.share(None, Some(0)));
        assert!(d.share(Some(1), Some(1)));
        assert!(
            d.describe().contains("describes no shared cache"),
            "{}",
            d.describe()
        );
    }
}
