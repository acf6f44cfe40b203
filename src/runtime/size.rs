//! Sizes as people write them: `4096`, `64K`, `512MiB`, `2GB`, `1.5G`, `1T`. Every multiplier
//! is a power of 1024 (`K`, `KB`, `KiB` are all 1024 bytes), as for memory settings elsewhere
//! (PostgreSQL's `2GB`, the JVM's `2g`); a trailing `B` alone means bytes.

/// The multiplier a unit suffix stands for (case-insensitive), or `None` if it is not one.
fn unit(suffix: &str) -> Option<u128> {
    let s = suffix.trim().to_ascii_uppercase();
    if s.is_empty() || s == "B" {
        return Some(1);
    }
    let prefix = s
        .strip_suffix("IB")
        .or_else(|| s.strip_suffix('B'))
        .unwrap_or(&s);
    let power = match prefix {
        "K" => 1,
        "M" => 2,
        "G" => 3,
        "T" => 4,
        _ => return None,
    };
    Some(1u128 << (10 * power))
}

/// Bytes in `text`, or `None` if it is not a positive size that fits a `usize`. A fraction
/// (`1.5G`) is rounded down to whole bytes.
pub fn bytes(text: &str) -> Option<usize> {
    let t = text.trim();
    let end = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, suffix) = t.split_at(end);
    let mult = unit(suffix)?;
    let (whole, frac) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && frac.is_empty() || frac.len() > 18 {
        return None;
    }
    let whole: u128 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    let frac_value: u128 = if frac.is_empty() {
        0
    } else {
        frac.parse().ok()?
    };
    let scale = 10u128.pow(frac.len() as u32);
    let total = whole.checked_mul(mult)? + frac_value * mult / scale;
    usize::try_from(total).ok().filter(|v| *v > 0)
}

#[cfg(test)]
mod tests {
    use super::bytes;

    #[test]
    fn usual_spellings() {
        assert_eq!(bytes("4096"), Some(4096));
        assert_eq!(bytes("4096B"), Some(4096));
        assert_eq!(bytes("64K"), Some(64 << 10));
        assert_eq!(bytes("64kb"), Some(64 << 10));
        assert_eq!(bytes("512MiB"), Some(512 << 20));
        assert_eq!(bytes("512 MB"), Some(512 << 20));
        assert_eq!(bytes("2GB"), Some(2 << 30));
        assert_eq!(bytes("2g"), Some(2 << 30));
        assert_eq!(bytes("1.5GiB"), Some(3 << 29));
        assert_eq!(bytes("0.5T"), Some(1 << 39));
        assert_eq!(bytes("1T"), Some(1 << 40));
    }

    #[test]
    fn refusals() {
        for bad in [
            "",
            "lots",
            "0",
            "0.0G",
            "-1M",
            "1.2.3G",
            "2XB",
            "2iB",
            "99999999999T",
            ".",
            "G",
        ] {
            assert_eq!(bytes(bad), None, "{bad:?}");
        }
    }
}
