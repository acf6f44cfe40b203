//! Keeps the cache under its size limit (FERROCAF_CACHE_SIZE): entries are directories whose
//! modification time is their last use (a hit touches it), and the least recently used are
//! removed first. Directories being filled (`*.tmp<pid>`, `module-*.<pid>`) are left alone.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Marks the cache entry `dir` as used now.
pub fn touch(dir: &Path) {
    // Best effort: an entry whose time cannot be set is merely pruned earlier.
    if let Ok(f) = fs::File::open(dir) {
        let _ = f.set_modified(SystemTime::now());
    }
}

/// Whether `name` is a finished cache entry: a program (16 hex digits) or a compiled module.
fn is_entry(name: &str) -> bool {
    let key = name.strip_prefix("module-").unwrap_or(name);
    key.len() == 16 && key.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Bytes of the files under `p`.
fn size(p: &Path) -> u64 {
    let Ok(m) = fs::symlink_metadata(p) else {
        return 0;
    };
    if !m.is_dir() {
        return m.len();
    }
    fs::read_dir(p)
        .map(|d| d.filter_map(|e| e.ok()).map(|e| size(&e.path())).sum())
        .unwrap_or(0)
}

/// Removes least recently used entries of `root` until the rest fits in `limit` bytes; `keep`
/// (the entry about to be run) is never removed.
pub fn prune(root: &Path, limit: u64, keep: &Path) {
    let Ok(dir) = fs::read_dir(root) else {
        return;
    };
    let mut entries: Vec<(SystemTime, u64, PathBuf)> = dir
        .filter_map(|e| e.ok())
        .filter(|e| is_entry(&e.file_name().to_string_lossy()))
        .filter_map(|e| {
            let used = e.metadata().and_then(|m| m.modified()).ok()?;
            Some((used, size(&e.path()), e.path()))
        })
        .collect();
    let mut total: u64 = entries.iter().map(|e| e.1).sum();
    entries.sort();
    for (_, bytes, path) in entries {
        if total <= limit {
            break;
        }
        if path != keep && fs::remove_dir_all(&path).is_ok() {
            total -= bytes;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_entry;

    #[test]
    fn only_finished_entries_are_pruned() {
        assert!(is_entry("00ff00ff00ff00ff"));
        assert!(is_entry("module-00ff00ff00ff00ff"));
        assert!(!is_entry("00ff00ff00ff00ff.tmp123"));
        assert!(!is_entry("module-00ff00ff00ff00ff.123"));
        assert!(!is_entry("notes"));
    }
}
