//! How a program was linked, read from its ELF file with the runtime's section reader
//! (`ferrocaf::sys::elf`): the shared libraries it needs (`DT_NEEDED` entries of `.dynamic`)
//! and the names in its symbol tables (`.dynsym`, and `.symtab` unless stripped).

use ferrocaf::sys::elf::section;
use std::path::Path;

/// What an executable says about its linking.
#[derive(Debug, Default)]
pub struct Linking {
    /// Sonames of the libraries it needs, e.g. `libgfortran.so.5`.
    pub needed: Vec<String>,
    /// Names in `.dynsym` and `.symtab` (defined or not).
    pub symbols: Vec<String>,
    /// Whether it has a full symbol table (`.symtab`; gone when stripped).
    pub has_symtab: bool,
}

/// Dynamic tag of a needed library.
const DT_NEEDED: u64 = 1;
/// Bytes of an ELF64 dynamic entry and of a symbol.
const DYN: usize = 16;
const SYM: usize = 24;

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// The NUL-terminated name at `at` in a string table.
fn name_at(strings: &[u8], at: usize) -> Option<String> {
    let tail = strings.get(at..)?;
    let end = tail.iter().position(|c| *c == 0)?;
    (end > 0).then(|| String::from_utf8_lossy(&tail[..end]).into_owned())
}

/// The names of the symbols in `table`, whose strings are `strings`.
fn symbols<'a>(table: &'a [u8], strings: &'a [u8]) -> impl Iterator<Item = String> + 'a {
    table.chunks_exact(SYM).filter_map(move |s| {
        let at = u32::from_le_bytes(s[..4].try_into().ok()?) as usize;
        name_at(strings, at)
    })
}

/// Reads how the ELF file at `path` was linked; `None` if it is not a 64-bit little-endian ELF
/// file or cannot be read.
pub fn linking(path: &Path) -> Option<Linking> {
    let read = |name: &str| section(path, name).map(Option::unwrap_or_default);
    let dynamic = read(".dynamic").ok()?;
    let dynstr = read(".dynstr").ok()?;
    let mut out = Linking::default();
    for entry in dynamic.chunks_exact(DYN) {
        if u64_at(entry, 0) == Some(DT_NEEDED) {
            let at = usize::try_from(u64_at(entry, 8)?).ok()?;
            out.needed.extend(name_at(&dynstr, at));
        }
    }
    out.symbols.extend(symbols(&read(".dynsym").ok()?, &dynstr));
    let symtab = read(".symtab").ok()?;
    out.has_symtab = !symtab.is_empty();
    out.symbols.extend(symbols(&symtab, &read(".strtab").ok()?));
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_test_binary_is_read() {
        let l = linking(&std::env::current_exe().unwrap()).unwrap();
        assert!(l.needed.iter().any(|n| n.starts_with("libc.so")), "{l:?}");
        assert!(l.symbols.iter().any(|s| s == "malloc"));
    }

    #[test]
    fn other_files_are_not_judged() {
        let p = std::env::temp_dir().join(format!("ferrocaf-linking-{}", std::process::id()));
        std::fs::write(&p, b"#!/bin/sh\n").unwrap();
        assert!(linking(&p).is_none());
        std::fs::remove_file(&p).unwrap();
    }
}
