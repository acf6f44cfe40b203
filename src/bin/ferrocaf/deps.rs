//! The files a source's build depends on besides the source itself, so that editing any of
//! them rebuilds the cached executable: files named by Fortran `include '...'` lines and by
//! preprocessor `#include "..."` / `#include <...>` lines (recursively), and the `.mod` files
//! of the modules it `use`s. Files are looked for as gfortran does: in the including file's
//! directory, then in each `-I` directory (and for modules also the `-J` directory).

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// What one line of source may refer to.
#[derive(Debug, PartialEq, Eq)]
enum Reference {
    /// A file included by name.
    Include(String),
    /// A (non-intrinsic) module, by its lower-case name.
    Module(String),
}

/// The quoted name at the start of `rest` (`'x'`, `"x"` or `<x>`).
fn quoted(rest: &str) -> Option<String> {
    let rest = rest.trim_start();
    let close = match rest.chars().next()? {
        '\'' => '\'',
        '"' => '"',
        '<' => '>',
        _ => return None,
    };
    let body = &rest[1..];
    body.find(close).map(|end| body[..end].to_string())
}

/// What `line` refers to, if anything.
fn reference(line: &str) -> Option<Reference> {
    let t = line.trim_start();
    let lower = t.to_ascii_lowercase();
    if let Some(rest) = lower.strip_prefix('#') {
        let rest = rest.trim_start().strip_prefix("include")?;
        let offset = t.len() - rest.len();
        return quoted(&t[offset..]).map(Reference::Include);
    }
    if let Some(rest) = lower.strip_prefix("include") {
        if rest.starts_with(char::is_whitespace) || rest.starts_with(['\'', '"']) {
            return quoted(&t[t.len() - rest.len()..]).map(Reference::Include);
        }
        return None;
    }
    let rest = lower.strip_prefix("use")?;
    if !rest.starts_with([' ', '\t', ',', ':']) {
        return None;
    }
    let mut rest = rest.trim_start();
    if let Some(attr) = rest.strip_prefix(',') {
        let attr = attr.trim_start();
        if attr.starts_with("intrinsic") {
            return None;
        }
        rest = attr.strip_prefix("non_intrinsic")?.trim_start();
    }
    let rest = rest.strip_prefix("::").unwrap_or(rest).trim_start();
    let name: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    (!name.is_empty()).then_some(Reference::Module(name))
}

/// The directories given to gfortran with `-I` (and `-J`, where it writes and reads modules).
fn search_dirs(flags: &[String]) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let (mut inc, mut modules) = (Vec::new(), Vec::new());
    let mut it = flags.iter();
    while let Some(f) = it.next() {
        for (opt, list) in [("-I", &mut inc), ("-J", &mut modules)] {
            if f == opt {
                list.extend(it.next().map(PathBuf::from));
            } else if let Some(d) = f.strip_prefix(opt) {
                list.push(PathBuf::from(d));
            }
        }
    }
    modules.extend(inc.iter().cloned());
    (inc, modules)
}

/// The first existing file `name` in `dir` or one of `dirs`.
fn find(name: &str, dir: &Path, dirs: &[PathBuf]) -> Option<PathBuf> {
    std::iter::once(dir)
        .chain(dirs.iter().map(PathBuf::as_path))
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// Every file the build of `src` with `flags` reads besides `src`, with its contents, in a
/// stable order. A reference that is not found is left to gfortran (which reports it or finds
/// it in a system directory).
pub fn files(src: &Path, flags: &[String]) -> Vec<(PathBuf, Vec<u8>)> {
    let (inc, modules) = search_dirs(flags);
    let mut seen = BTreeSet::new();
    let mut todo = vec![src.to_path_buf()];
    let mut out = Vec::new();
    while let Some(file) = todo.pop() {
        let Ok(text) = fs::read(&file) else {
            continue;
        };
        let dir = file.parent().unwrap_or(Path::new(".")).to_path_buf();
        for line in String::from_utf8_lossy(&text).lines() {
            let found = match reference(line) {
                Some(Reference::Include(name)) => find(&name, &dir, &inc),
                Some(Reference::Module(name)) => find(&format!("{name}.mod"), &dir, &modules),
                None => None,
            };
            if let Some(p) = found.filter(|p| seen.insert(p.clone())) {
                if p.extension().is_none_or(|e| e != "mod") {
                    todo.push(p.clone());
                }
                out.push(p);
            }
        }
    }
    out.sort();
    out.into_iter()
        .map(|p| {
            let bytes = fs::read(&p).unwrap_or_default();
            (p, bytes)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inc(s: &str) -> Option<Reference> {
        Some(Reference::Include(s.to_string()))
    }

    fn module(s: &str) -> Option<Reference> {
        Some(Reference::Module(s.to_string()))
    }

    #[test]
    fn references_are_recognised() {
        assert_eq!(reference("  include 'params.inc'"), inc("params.inc"));
        assert_eq!(reference("INCLUDE \"Dir/P.h\" ! note"), inc("Dir/P.h"));
        assert_eq!(reference("#include \"cfg.h\""), inc("cfg.h"));
        assert_eq!(reference("#  include <sys.h>"), inc("sys.h"));
        assert_eq!(reference("use Grid"), module("grid"));
        assert_eq!(reference("  use :: fields, only: u"), module("fields"));
        assert_eq!(reference("use, non_intrinsic :: mine"), module("mine"));
        assert_eq!(reference("use, intrinsic :: iso_fortran_env"), None);
        assert_eq!(reference("included = 3"), None);
        assert_eq!(reference("user = 1"), None);
        assert_eq!(reference("print *, 'use x'"), None);
    }

    #[test]
    fn search_directories_come_from_the_flags() {
        let flags: Vec<String> = ["-O2", "-Iinc", "-I", "more", "-Jmods"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (i, m) = search_dirs(&flags);
        assert_eq!(i, [PathBuf::from("inc"), PathBuf::from("more")]);
        assert_eq!(m[0], PathBuf::from("mods"));
    }
}
