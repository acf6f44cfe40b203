//! Teams as the engine sees them: an ordered list of initial-team image indices.

use crate::error::{CafError, CafResult};

/// The images of a team, in team order, as 0-based indices of the initial team.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Team {
    /// Initial-team index of each member, by team rank.
    pub members: Vec<usize>,
    /// This image's rank in the team (0-based).
    pub rank: usize,
}

impl Team {
    /// The initial team of `n` images, seen from image `me`.
    pub fn initial(n: usize, me: usize) -> Team {
        Team {
            members: (0..n).collect(),
            rank: me,
        }
    }

    /// Number of images in the team.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the team is empty (never true for a real team).
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Translates a 1-based image index of this team to an initial-team index, checking range.
    pub fn resolve(&self, image: i64) -> CafResult<usize> {
        if image >= 1 && (image as u64) <= self.members.len() as u64 {
            Ok(self.members[image as usize - 1])
        } else {
            Err(CafError::InvalidImage {
                image,
                count: self.members.len(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_checks_range() {
        let t = Team {
            members: vec![4, 2, 7],
            rank: 1,
        };
        assert_eq!(t.resolve(1), Ok(4));
        assert_eq!(t.resolve(3), Ok(7));
        assert_eq!(
            t.resolve(0),
            Err(CafError::InvalidImage { image: 0, count: 3 })
        );
        assert!(t.resolve(4).is_err());
        assert!(t.resolve(-1).is_err());
    }
}
