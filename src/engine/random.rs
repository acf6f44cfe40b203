//! Seeds for RANDOM_INIT (Fortran 2018 16.9.155) with REPEATABLE=.true.: a fixed function of the
//! image, so the same image gets the same seed on every call and in every run.

/// Seed of the repeatable sequences; any odd constant works.
const BASE: u64 = 0x6665_7272_6f63_6166;

/// SplitMix64 (Steele, Lea, Flood 2014): a full-period generator whose outputs are well mixed
/// even for neighbouring inputs, so images 1, 2, 3 get unrelated seeds.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The repeatable seed of `n` default integers for `image` (1-based in the initial team), or the
/// one seed shared by all images when `image` is 0.
pub fn repeatable_seed(n: usize, image: usize) -> Vec<i32> {
    let mut state = BASE ^ (image as u64).wrapping_mul(0xd1b5_4a32_d192_ed03);
    (0..n).map(|_| splitmix(&mut state) as i32).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_image_same_seed_other_image_other_seed() {
        assert_eq!(repeatable_seed(8, 3), repeatable_seed(8, 3));
        assert_ne!(repeatable_seed(8, 3), repeatable_seed(8, 4));
        assert_ne!(repeatable_seed(8, 0), repeatable_seed(8, 1));
        assert_eq!(repeatable_seed(5, 2), repeatable_seed(8, 2)[..5]);
    }
}
