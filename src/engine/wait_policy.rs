//! The wait policy the user chooses with FERROCAF_WAIT: which phases a blocking wait of
//! `wait.rs` goes through. `auto` (the default) spins, yields while yields pay and sleeps on
//! the doorbell; `passive` polls once and sleeps, never yielding; `active` polls until
//! answered and never sleeps, as OpenMP's OMP_WAIT_POLICY=passive|active.

/// How this image's blocking waits spend their time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Spin, then yield while yields come back fast, then sleep (history and outside load
    /// shorten the polling).
    Auto,
    /// Poll once, then sleep on the doorbell (or nap, over a transport that cannot wake);
    /// no spinning and no `sched_yield`.
    Passive,
    /// Poll until answered, never sleeping; yield every few polls only when the job's images
    /// outnumber the cores.
    Active,
}

impl Policy {
    /// Parses `auto`, `passive` or `active` (any case, surrounding blanks ignored).
    pub fn parse(s: &str) -> Option<Policy> {
        match s.trim().to_ascii_lowercase().as_str() {
            "auto" => Some(Policy::Auto),
            "passive" => Some(Policy::Passive),
            "active" => Some(Policy::Active),
            _ => None,
        }
    }

    /// The policy's name, as FERROCAF_WAIT spells it.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Auto => "auto",
            Policy::Passive => "passive",
            Policy::Active => "active",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_three_names_in_any_case_and_nothing_else() {
        for p in [Policy::Auto, Policy::Passive, Policy::Active] {
            assert_eq!(Policy::parse(p.name()), Some(p));
        }
        assert_eq!(Policy::parse(" PASSIVE "), Some(Policy::Passive));
        assert_eq!(Policy::parse("Active"), Some(Policy::Active));
        assert_eq!(Policy::parse(""), None);
        assert_eq!(Policy::parse("spin"), None);
        assert_eq!(Policy::parse("activ"), None);
    }
}
