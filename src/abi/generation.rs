//! Which gfortran ABI the running program was compiled for. Some entry points keep their names
//! but change their arguments between generations (docs/ARCHITECTURE.md, "ABI generations"):
//! gfortran 8–14 (the GCC 12 ABI), 15 (remote accessors) and 16 (teams reworked). Nothing in the
//! calls tells them apart, so the runtime reads it from the program: every object gfortran
//! writes names its compiler in the ELF `.comment` section (`GCC: (Debian 16.2.0-4) 16.2.0`),
//! which the linker merges into the executable's. The C start files glibc brings and the C
//! parts of a statically linked libferrocaf add their compilers' names too; versions those
//! account for are set aside. `FERROCAF_GFORTRAN_ABI` (`12`, `15` or `16`) decides only when the
//! program's `.comment` does not; a setting that contradicts it is refused.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A generation of the libcaf ABI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Generation {
    /// gfortran 8 to 14: the GCC 12 ABI (get/send/*_by_ref, teams as in GCC 12).
    Gcc8,
    /// gfortran 15: remote accessors replace get/send/*_by_ref.
    Gcc15,
    /// gfortran 16 and later: accessors, and the team rework (this_image(team), form_team with
    /// STAT=/ERRMSG=, ...).
    Gcc16,
}

impl Generation {
    /// The generation of a gfortran major version; `None` before gfortran 8.
    pub fn of_major(major: u32) -> Option<Generation> {
        match major {
            0..=7 => None,
            8..=14 => Some(Generation::Gcc8),
            15 => Some(Generation::Gcc15),
            _ => Some(Generation::Gcc16),
        }
    }

    /// How `FERROCAF_GFORTRAN_ABI` names it.
    pub fn setting(self) -> &'static str {
        match self {
            Generation::Gcc8 => "12",
            Generation::Gcc15 => "15",
            Generation::Gcc16 => "16",
        }
    }

    /// The compilers it covers, for messages.
    pub fn compilers(self) -> &'static str {
        match self {
            Generation::Gcc8 => "gfortran 8 to 14",
            Generation::Gcc15 => "gfortran 15",
            Generation::Gcc16 => "gfortran 16",
        }
    }
}

/// The variable that decides when the program does not say.
pub const SETTING: &str = "FERROCAF_GFORTRAN_ABI";

/// The running program's generation, found once; a program whose generation cannot be found
/// ends with a one-line error naming the setting that decides it.
pub fn current() -> Generation {
    static CURRENT: OnceLock<Generation> = OnceLock::new();
    *CURRENT.get_or_init(|| {
        detect().unwrap_or_else(|e| {
            crate::sys::proc::say(format_args!("ferrocaf: {e}"));
            crate::sys::proc::exit(1)
        })
    })
}

/// Reads the program's and the C library's `.comment` and decides.
fn detect() -> Result<Generation, String> {
    let exe = Path::new("/proc/self/exe");
    let program = comment_majors(exe)?;
    let mut aside = match libc_path() {
        Some(p) => comment_majors(&p).unwrap_or_default(),
        None => Vec::new(),
    };
    aside.extend(env!("FERROCAF_CC_GCC_MAJOR").parse::<u32>().ok());
    let setting = std::env::var(SETTING).ok();
    decide(&program, &aside, setting.as_deref())
}

/// The GCC major versions an ELF file's `.comment` names.
fn comment_majors(path: &Path) -> Result<Vec<u32>, String> {
    Ok(crate::sys::elf::section(path, ".comment")?
        .map(|c| gcc_majors(&c))
        .unwrap_or_default())
}

/// The C library this process mapped.
fn libc_path() -> Option<PathBuf> {
    let maps = std::fs::read_to_string("/proc/self/maps").ok()?;
    maps.lines()
        .filter_map(|l| l.split_whitespace().nth(5))
        .find(|p| {
            let name = p.rsplit('/').next().unwrap_or(p);
            name.starts_with("libc.so") || name.starts_with("libc-")
        })
        .map(PathBuf::from)
}

/// The distinct major versions of the `GCC: (vendor) 16.2.0` strings of a `.comment` section.
pub fn gcc_majors(comment: &[u8]) -> Vec<u32> {
    let mut out: Vec<u32> = comment
        .split(|&b| b == 0)
        .filter_map(|s| std::str::from_utf8(s).ok())
        .filter_map(|s| s.trim().strip_prefix("GCC:"))
        .filter_map(|rest| {
            let rest = rest.trim_start();
            // The vendor part may itself hold a version: `(Debian 16.2.0-4)`.
            let rest = match rest.strip_prefix('(') {
                Some(r) => r.split_once(')').map_or("", |(_, after)| after),
                None => rest,
            };
            rest.split_whitespace()
                .next()?
                .split('.')
                .next()?
                .parse()
                .ok()
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Decides from the program's GCC versions, those other parts account for (`aside`), and the
/// setting.
pub fn decide(program: &[u32], aside: &[u32], setting: Option<&str>) -> Result<Generation, String> {
    let own: Vec<u32> = program
        .iter()
        .copied()
        .filter(|m| !aside.contains(m))
        .collect();
    let candidates = if own.is_empty() { program } else { &own[..] };
    if let Some(old) = candidates.iter().find(|&&m| m < 8) {
        return Err(format!(
            "this program was compiled by gfortran {old}; ferrocaf needs gfortran 8 or later"
        ));
    }
    let mut gens: Vec<Generation> = candidates
        .iter()
        .filter_map(|&m| Generation::of_major(m))
        .collect();
    gens.dedup();
    let detected = (gens.len() == 1).then(|| gens[0]);
    let chosen = setting.map(parse_setting).transpose()?;
    match (detected, chosen) {
        (Some(d), Some(c)) if d != c => Err(format!(
            "{SETTING}={} contradicts the program, which {} compiled",
            c.setting(),
            d.compilers()
        )),
        (Some(d), _) => Ok(d),
        (None, Some(c)) => Ok(c),
        (None, None) => {
            let named = if candidates.is_empty() {
                "names no GCC".to_string()
            } else {
                let v: Vec<String> = candidates.iter().map(u32::to_string).collect();
                format!("names GCC {}", v.join(" and "))
            };
            Err(format!(
                "cannot tell which gfortran compiled this program (its .comment section {named}); \
                 set {SETTING} to 12 (gfortran 8 to 14), 15 or 16"
            ))
        }
    }
}

/// The generation `FERROCAF_GFORTRAN_ABI` names, if it is set (`ferrocaf info` shows it); an
/// error naming the variable if its value is not one ferrocaf knows.
pub fn setting() -> Result<Option<Generation>, String> {
    std::env::var(SETTING)
        .ok()
        .map(|v| parse_setting(&v))
        .transpose()
}

/// Parses a `FERROCAF_GFORTRAN_ABI` value: a gfortran major version.
fn parse_setting(v: &str) -> Result<Generation, String> {
    v.trim()
        .parse::<u32>()
        .ok()
        .and_then(Generation::of_major)
        .ok_or_else(|| {
            format!("{SETTING}={v} is not a gfortran version ferrocaf knows (12, 15 or 16)")
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use Generation::*;

    #[test]
    fn versions_come_from_gcc_strings_only() {
        let c =
            b"GCC: (Debian 16.2.0-4) 16.2.0\0GCC: (Debian 15.2.0-7) 15.2.0\0rustc version 1.95.0\0\
                  GCC: (GNU) 13.2.1 20240210\0GCC: 12.2.0\0\0";
        assert_eq!(gcc_majors(c), vec![12, 13, 15, 16]);
    }

    #[test]
    fn start_files_of_another_compiler_are_set_aside() {
        assert_eq!(decide(&[15, 16], &[15], None), Ok(Gcc16));
        assert_eq!(decide(&[14, 15], &[15], None), Ok(Gcc8));
        assert_eq!(decide(&[15], &[15], None), Ok(Gcc15));
        assert_eq!(decide(&[12], &[12], None), Ok(Gcc8));
        assert_eq!(decide(&[12, 13, 14], &[], None), Ok(Gcc8));
    }

    #[test]
    fn the_setting_decides_only_what_the_program_does_not() {
        assert_eq!(decide(&[15, 16], &[], Some("15")), Ok(Gcc15));
        assert_eq!(decide(&[], &[], Some("16")), Ok(Gcc16));
        assert_eq!(decide(&[16], &[], Some("16")), Ok(Gcc16));
        let e = decide(&[16], &[], Some("12")).unwrap_err();
        assert!(
            e.contains("contradicts") && e.contains("gfortran 16"),
            "{e}"
        );
        let e = decide(&[15, 16], &[], None).unwrap_err();
        assert!(e.contains("GCC 15 and 16") && e.contains(SETTING), "{e}");
        assert!(decide(&[], &[], None).unwrap_err().contains("names no GCC"));
        assert!(decide(&[], &[], Some("17x")).unwrap_err().contains("17x"));
    }

    #[test]
    fn gfortran_before_8_is_refused() {
        assert!(decide(&[7], &[], None).unwrap_err().contains("gfortran 7"));
        assert!(decide(&[7], &[], Some("12")).is_err());
    }
}
