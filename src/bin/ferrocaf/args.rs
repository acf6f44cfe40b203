//! Shared pieces of hand-written argument parsing: the failure type and option values.

use ferrocaf::runtime::config::{self, MAX_IMAGES};
use std::ffi::OsString;

/// Why a command did not complete.
#[derive(Debug)]
pub enum Failure {
    /// The command line is wrong: one line of explanation, a hint to `--help`, exit 2.
    Usage {
        /// The subcommand ("" for the top level).
        cmd: &'static str,
        /// What is wrong.
        msg: String,
    },
    /// Something failed while doing the work: `ferrocaf: <msg>`, exit `code`.
    Fatal {
        /// What failed.
        msg: String,
        /// Exit status.
        code: i32,
    },
}

impl Failure {
    /// A usage error of subcommand `cmd`.
    pub fn usage(cmd: &'static str, msg: impl Into<String>) -> Self {
        Failure::Usage {
            cmd,
            msg: msg.into(),
        }
    }

    /// A failure while working, ending with exit status `code`.
    pub fn fatal(msg: impl Into<String>, code: i32) -> Self {
        Failure::Fatal {
            msg: msg.into(),
            code,
        }
    }
}

/// An option that takes a value, given as `NAME VALUE` or `NAME=VALUE`: returns the value when
/// `arg` is that option, taking it from `rest` if it is not attached.
pub fn value_of(
    cmd: &'static str,
    arg: &str,
    name: &str,
    rest: &mut impl Iterator<Item = OsString>,
) -> Result<Option<String>, Failure> {
    if arg == name {
        let v = rest
            .next()
            .ok_or_else(|| Failure::usage(cmd, format!("option {name} needs a value")))?;
        return v
            .into_string()
            .map(Some)
            .map_err(|_| Failure::usage(cmd, format!("the value of {name} is not valid UTF-8")));
    }
    Ok(arg
        .strip_prefix(name)
        .and_then(|v| v.strip_prefix('='))
        .map(str::to_string))
}

/// Parses the number of images given to option `opt`.
pub fn images(cmd: &'static str, opt: &str, text: &str) -> Result<usize, Failure> {
    config::parse_count(opt, text, MAX_IMAGES).map_err(|_| {
        Failure::usage(
            cmd,
            format!("{opt} expects a number of images from 1 to {MAX_IMAGES}, got '{text}'"),
        )
    })
}

/// Parses the heap size given to option `opt`.
pub fn heap(cmd: &'static str, opt: &str, text: &str) -> Result<usize, Failure> {
    config::parse_size(opt, text).map_err(|_| {
        Failure::usage(
            cmd,
            format!("{opt} expects a size such as 256M, 512MiB or 2GB, got '{text}'"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_attached_or_separate() {
        let mut rest = vec![OsString::from("4")].into_iter();
        assert_eq!(
            value_of("run", "-n", "-n", &mut rest).unwrap(),
            Some("4".into())
        );
        let mut none = Vec::<OsString>::new().into_iter();
        assert_eq!(
            value_of("run", "--images=3", "--images", &mut none).unwrap(),
            Some("3".into())
        );
        assert_eq!(value_of("run", "-np", "-n", &mut none).unwrap(), None);
        assert!(value_of("run", "-n", "-n", &mut none).is_err());
    }

    #[test]
    fn image_counts() {
        assert_eq!(images("run", "-n", "3").unwrap(), 3);
        for bad in ["0", "-1", "x", "4097", ""] {
            match images("run", "-n", bad) {
                Err(Failure::Usage { msg, .. }) => assert!(msg.starts_with("-n "), "{msg}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }
}
