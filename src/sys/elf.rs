//! Just enough of the ELF format to read one named section of a 64-bit little-endian file: the
//! runtime reads the `.comment` of the program and of the C library to tell which gfortran
//! compiled the program (`abi::generation`).

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// Size of the ELF64 file header.
const EHDR: usize = 64;
/// Size of one ELF64 section header.
const SHDR: usize = 64;
/// Largest section this reader returns (a `.comment` is a few hundred bytes; the symbol table
/// of a large program, read by `ferrocaf run` to tell how it was linked, a few megabytes).
const MAX_SECTION: u64 = 64 << 20;

/// The bytes of section `name` of the ELF file at `path`: `Ok(None)` when the file has no such
/// section, an error when it cannot be read or is not a 64-bit little-endian ELF file.
pub fn section(path: &Path, name: &str) -> Result<Option<Vec<u8>>, String> {
    let what = |e: std::io::Error| format!("{}: {e}", path.display());
    let mut f = File::open(path).map_err(what)?;
    let mut eh = Vec::with_capacity(EHDR);
    f.by_ref()
        .take(EHDR as u64)
        .read_to_end(&mut eh)
        .map_err(what)?;
    if eh.len() < EHDR || &eh[..4] != b"\x7fELF" || eh[4] != 2 || eh[5] != 1 {
        return Err(format!(
            "{}: not a 64-bit little-endian ELF file",
            path.display()
        ));
    }
    let shoff = u64_at(&eh, 0x28);
    let shentsize = u16_at(&eh, 0x3a) as usize;
    let shnum = u16_at(&eh, 0x3c) as usize;
    let shstrndx = u16_at(&eh, 0x3e) as usize;
    if shoff == 0 || shnum == 0 || shentsize != SHDR || shstrndx >= shnum {
        return Ok(None);
    }
    let mut table = vec![0u8; shnum * SHDR];
    f.seek(SeekFrom::Start(shoff)).map_err(what)?;
    f.read_exact(&mut table).map_err(what)?;
    let header = |i: usize| &table[i * SHDR..(i + 1) * SHDR];
    let names = read_at(&mut f, header(shstrndx)).map_err(what)?;
    for i in 0..shnum {
        let h = header(i);
        let at = u32_at(h, 0) as usize;
        let Some(tail) = names.get(at..) else {
            continue;
        };
        let end = tail.iter().position(|&b| b == 0).unwrap_or(tail.len());
        if &tail[..end] == name.as_bytes() {
            return read_at(&mut f, h).map(Some).map_err(what);
        }
    }
    Ok(None)
}

/// The contents of the section whose header is `h` (empty for a section without file bytes).
fn read_at(f: &mut File, h: &[u8]) -> std::io::Result<Vec<u8>> {
    const SHT_NOBITS: u32 = 8;
    let (offset, size) = (u64_at(h, 0x18), u64_at(h, 0x20));
    if u32_at(h, 4) == SHT_NOBITS || size == 0 {
        return Ok(Vec::new());
    }
    if size > MAX_SECTION {
        return Err(std::io::Error::other("section too large"));
    }
    let mut buf = vec![0u8; size as usize];
    f.seek(SeekFrom::Start(offset))?;
    f.read_exact(&mut buf)?;
    Ok(buf)
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_section_of_this_test_binary() {
        let exe = std::env::current_exe().unwrap();
        assert!(section(&exe, ".comment")
            .unwrap()
            .is_some_and(|c| !c.is_empty()));
        assert_eq!(section(&exe, ".no-such-section").unwrap(), None);
    }

    #[test]
    fn refuses_what_is_not_elf() {
        let p = std::env::temp_dir().join(format!("ferrocaf-elf-{}", std::process::id()));
        std::fs::write(&p, b"#!/bin/sh\nexit 0\n").unwrap();
        assert!(section(&p, ".comment")
            .unwrap_err()
            .contains("not a 64-bit"));
        std::fs::remove_file(&p).unwrap();
    }
}
