//! CHARACTER assignment between lengths and kinds (Fortran 2018 10.2.1.3 p10: a shorter value
//! is padded with blanks, a longer one truncated on the right). Kind 1 to kind 4 widens each
//! character to its code point; kind 4 to kind 1 narrows, and a code point above 255 becomes
//! `?` because kind 1 cannot represent it.

use super::scalar::Scalar;

/// The blank that pads a shorter value.
const BLANK: u8 = b' ';
/// What a kind-4 character outside kind 1 narrows to.
const UNREPRESENTABLE: u8 = b'?';

/// Converts `n` packed strings of `from_kind` (1 or 4) and `from_len` characters in `src` to
/// `to_kind` and `to_len` characters in `dst`.
pub(crate) fn strings(
    dst: &mut [u8],
    (to_kind, to_len): (u8, usize),
    src: &[u8],
    (from_kind, from_len): (u8, usize),
    n: usize,
) {
    let (dw, sw) = (to_len * to_kind as usize, from_len * from_kind as usize);
    if dw == 0 {
        return;
    }
    match (from_kind, to_kind) {
        (1, 1) => each(dst, dw, src, sw, n, |d, s| same_kind(d, s, &[BLANK])),
        (4, 4) => each(dst, dw, src, sw, n, |d, s| {
            same_kind(d, s, &u32::from(BLANK).to_ne_bytes())
        }),
        (1, _) => each(dst, dw, src, sw, n, widen),
        _ => each(dst, dw, src, sw, n, narrow),
    }
}

/// Calls `f(dst element, src element)` for `n` elements of `dw` and `sw` bytes.
#[inline(always)]
fn each(dst: &mut [u8], dw: usize, src: &[u8], sw: usize, n: usize, f: impl Fn(&mut [u8], &[u8])) {
    for (i, d) in dst.chunks_exact_mut(dw).take(n).enumerate() {
        f(d, &src[i * sw..(i + 1) * sw]);
    }
}

/// Copies `s` into `d` (same kind), truncating or padding with the character `blank`.
fn same_kind(d: &mut [u8], s: &[u8], blank: &[u8]) {
    let k = s.len().min(d.len());
    d[..k].copy_from_slice(&s[..k]);
    for c in d[k..].chunks_exact_mut(blank.len()) {
        c.copy_from_slice(blank);
    }
}

/// Kind-1 `s` into kind-4 `d`.
fn widen(d: &mut [u8], s: &[u8]) {
    let mut chars = d.chunks_exact_mut(4);
    for (&b, c) in s.iter().zip(chars.by_ref()) {
        u32::from(b).put(c);
    }
    chars.for_each(|c| u32::from(BLANK).put(c));
}

/// Kind-4 `s` into kind-1 `d`.
fn narrow(d: &mut [u8], s: &[u8]) {
    let k = (s.len() / 4).min(d.len());
    for (c, cp) in d[..k].iter_mut().zip(s.chunks_exact(4)) {
        *c = u8::try_from(u32::get(cp)).unwrap_or(UNREPRESENTABLE);
    }
    d[k..].fill(BLANK);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wide(s: &str) -> Vec<u8> {
        s.chars().flat_map(|c| u32::from(c).to_ne_bytes()).collect()
    }

    fn run(to: (u8, usize), src: &[u8], from: (u8, usize), n: usize) -> Vec<u8> {
        let mut dst = vec![0xEE; n * to.0 as usize * to.1];
        strings(&mut dst, to, src, from, n);
        dst
    }

    #[test]
    fn kind1_pads_with_blanks_and_truncates() {
        assert_eq!(
            run((1, 5), b"abcXY", (1, 1), 5),
            b"a    b    c    X    Y    "
        );
        assert_eq!(run((1, 2), b"abcdefgh", (1, 4), 2), b"abef");
        assert_eq!(run((1, 3), b"", (1, 0), 2), b"      ");
    }

    #[test]
    fn kind4_pads_with_blanks_and_truncates() {
        assert_eq!(run((4, 4), &wide("añ€𝄞"), (4, 2), 2), wide("añ  €𝄞  "));
        assert_eq!(run((4, 1), &wide("añ€𝄞"), (4, 2), 2), wide("a€"));
    }

    #[test]
    fn kind1_widens_to_code_points() {
        assert_eq!(run((4, 3), b"a\xF1", (1, 2), 1), wide("añ "));
        assert_eq!(run((4, 1), b"xyz", (1, 3), 1), wide("x"));
    }

    #[test]
    fn kind4_narrows_with_question_mark_for_unrepresentable() {
        assert_eq!(run((1, 5), &wide("añ€𝄞"), (4, 4), 1), b"a\xF1?? ");
        assert_eq!(run((1, 2), &wide("abc"), (4, 3), 1), b"ab");
    }
}
