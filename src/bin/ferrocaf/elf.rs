//! Just enough of ELF (64-bit, little-endian) to tell how a program was linked: the shared
//! libraries it needs (`DT_NEEDED`) and the names in its symbol tables.

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

/// Section types used here.
const SHT_SYMTAB: u32 = 2;
const SHT_DYNAMIC: u32 = 6;
const SHT_DYNSYM: u32 = 11;
/// Dynamic tag of a needed library.
const DT_NEEDED: u64 = 1;

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// A section header: type, file offset, size, linked section, entry size.
struct Section {
    kind: u32,
    offset: usize,
    size: usize,
    link: usize,
    entsize: usize,
}

/// The NUL-terminated string at `at` in section `strtab`.
fn string(b: &[u8], strtab: &Section, at: usize) -> Option<String> {
    let start = strtab.offset.checked_add(at)?;
    let bytes = b.get(start..strtab.offset + strtab.size)?;
    let end = bytes.iter().position(|c| *c == 0)?;
    Some(String::from_utf8_lossy(&bytes[..end]).into_owned())
}

/// Reads the linking of the ELF image `b`; `None` if it is not a 64-bit little-endian ELF file.
pub fn linking(b: &[u8]) -> Option<Linking> {
    if b.get(..6)? != b"\x7fELF\x02\x01" {
        return None;
    }
    let shoff = usize::try_from(u64_at(b, 0x28)?).ok()?;
    let shentsize = usize::from(u16_at(b, 0x3a)?);
    let shnum = usize::from(u16_at(b, 0x3c)?);
    let sections: Vec<Section> = (0..shnum)
        .map(|i| {
            let h = shoff.checked_add(i.checked_mul(shentsize)?)?;
            Some(Section {
                kind: u32_at(b, h + 4)?,
                offset: usize::try_from(u64_at(b, h + 0x18)?).ok()?,
                size: usize::try_from(u64_at(b, h + 0x20)?).ok()?,
                link: u32_at(b, h + 0x28)? as usize,
                entsize: usize::try_from(u64_at(b, h + 0x38)?).ok()?,
            })
        })
        .collect::<Option<_>>()?;
    let mut out = Linking::default();
    for s in &sections {
        let Some(strtab) = sections.get(s.link) else {
            continue;
        };
        let entries = (0..s.size / s.entsize.max(1)).map(|i| s.offset + i * s.entsize);
        match s.kind {
            SHT_DYNAMIC => {
                for e in entries {
                    if u64_at(b, e)? == DT_NEEDED {
                        let at = usize::try_from(u64_at(b, e + 8)?).ok()?;
                        out.needed.extend(string(b, strtab, at));
                    }
                }
            }
            SHT_SYMTAB | SHT_DYNSYM => {
                out.has_symtab |= s.kind == SHT_SYMTAB;
                for e in entries {
                    let at = u32_at(b, e)? as usize;
                    out.symbols
                        .extend(string(b, strtab, at).filter(|n| !n.is_empty()));
                }
            }
            _ => {}
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_test_binary_is_read() {
        let me = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        let l = linking(&me).unwrap();
        assert!(l.needed.iter().any(|n| n.starts_with("libc.so")), "{l:?}");
        assert!(l.symbols.iter().any(|s| s == "malloc"));
    }

    #[test]
    fn other_files_are_not_judged() {
        assert!(linking(b"#!/bin/sh\n").is_none());
        assert!(linking(b"\x7fELF\x02\x01").is_none());
    }
}
