//! Teams as the engine sees them (Fortran 2018 5.3.4): an ordered list of initial-team image
//! indices, this image's rank, and what the team's members agree on without talking: its
//! number, nesting level and a job-unique id.

use crate::error::{CafError, CafResult};
use crate::transport::control::LEVELS;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

/// The images of a team, in team order, as 0-based indices of the initial team.
///
/// Team objects are never freed: compiled code may keep copies of a team value, and the
/// runtime hands out `&'static Team`s (a team costs a few dozen bytes plus 8 per member).
#[derive(Debug)]
pub struct Team {
    /// Initial-team index of each member, by team rank.
    pub members: Vec<usize>,
    /// This image's rank in the team (0-based).
    pub rank: usize,
    /// TEAM_NUMBER (-1 for the initial team).
    pub number: i64,
    /// Nesting level: 0 for the initial team, parent's level + 1 otherwise.
    pub level: usize,
    /// Id agreed by every member (derived from the parent's id, the parent's FORM TEAM count
    /// and the team number), distinct from every other team with high probability.
    pub id: u64,
    /// The team this one was formed in.
    pub parent: Option<&'static Team>,
    /// `(team number, members in team order)` of every team the same FORM TEAM formed, this
    /// one included (NUM_IMAGES(TEAM_NUMBER=) and image selectors with TEAM_NUMBER= name a
    /// sibling by its number); the initial team's is itself.
    pub family: Vec<(i64, Vec<usize>)>,
    /// Where the members' segments lie in this process, found on the first fast access while
    /// the team is current (`abi/near.rs`); `None` inside when some segment is not mapped here.
    pub placement: OnceLock<Option<Placement>>,
    barriers: AtomicU64,
    collectives: AtomicU64,
    forms: AtomicU64,
}

/// The address in this process of each member's segment, by team rank, so that a fast access
/// goes from an image index to its segment with one bounds check and one load.
#[derive(Debug)]
pub struct Placement {
    /// The member of rank `k` (image `k + 1` of the team): the start of its segment and its
    /// 0-based initial-team index, side by side (one bounds check for both).
    pub members: Box<[(usize, usize)]>,
    /// Whether every segment is at the address its owner uses (GCC 15+ accessors may run).
    pub same: bool,
    /// This image's number in the team (rank + 1): the `caller_image` an accessor receives by
    /// address.
    pub me: std::ffi::c_int,
}

/// splitmix64's finaliser: a bijective mix of 64 bits.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Team {
    /// The initial team of `n` images, seen from image `me`.
    pub fn initial(n: usize, me: usize) -> Team {
        Team::new((0..n).collect(), me, -1, None, mix(0x6665_7272_6f63_6166))
    }

    fn new(
        members: Vec<usize>,
        rank: usize,
        number: i64,
        parent: Option<&'static Team>,
        id: u64,
    ) -> Team {
        Team {
            family: vec![(number, members.clone())],
            members,
            rank,
            number,
            level: parent.map_or(0, |p| p.level + 1),
            id,
            parent,
            placement: OnceLock::new(),
            barriers: AtomicU64::new(0),
            collectives: AtomicU64::new(0),
            forms: AtomicU64::new(0),
        }
    }

    /// A child of `parent` numbered `number` with the given members, seen from initial image
    /// `me`. Every member of `parent` must call this once per FORM TEAM, in the same order.
    pub fn child(
        parent: &'static Team,
        number: i64,
        members: Vec<usize>,
        me: usize,
    ) -> CafResult<Team> {
        if parent.level + 1 >= LEVELS {
            return Err(CafError::InvalidArgument(format!(
                "teams are nested more than {} deep",
                LEVELS - 1
            )));
        }
        let rank = members.iter().position(|&j| j == me).ok_or_else(|| {
            CafError::InvalidArgument("this image is not a member of the team it forms".into())
        })?;
        let forms = parent.forms.fetch_add(1, Ordering::Relaxed);
        let id = mix(mix(parent.id ^ forms) ^ number as u64);
        Ok(Team::new(members, rank, number, Some(parent), id))
    }

    /// This team with the teams formed with it (see [`Team::family`]).
    pub fn with_family(mut self, family: Vec<(i64, Vec<usize>)>) -> Team {
        self.family = family;
        self
    }

    /// The number of images of the team numbered `number` among this team's family.
    pub fn sibling_size(&self, number: i64) -> Option<usize> {
        self.sibling(number).map(<[usize]>::len)
    }

    /// The members of the team numbered `number` among this team's family.
    pub fn sibling(&self, number: i64) -> Option<&[usize]> {
        self.family
            .iter()
            .find_map(|(k, m)| (*k == number).then_some(&m[..]))
    }

    /// The team this one descends from that has no parent.
    pub fn root(&'static self) -> &'static Team {
        std::iter::successors(Some(self), |t| t.parent)
            .last()
            .unwrap_or(self)
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

    /// Counts one more barrier of this team entered by this image; returns its number.
    pub fn enter_barrier(&self) -> u64 {
        self.barriers.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Counts one more collective of this team entered by this image; returns its number.
    pub fn enter_collective(&self) -> u64 {
        self.collectives.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Barriers and collectives of this team this image has entered.
    pub fn entered(&self) -> (u64, u64) {
        (
            self.barriers.load(Ordering::Relaxed),
            self.collectives.load(Ordering::Relaxed),
        )
    }

    /// Whether `other` is this team or one of its ancestors.
    pub fn within(&'static self, other: &Team) -> bool {
        std::iter::successors(Some(self), |t| t.parent).any(|t| std::ptr::eq(t, other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolve_checks_range() {
        let t = Team::new(vec![4, 2, 7], 1, 1, None, 9);
        assert_eq!(t.resolve(1), Ok(4));
        assert_eq!(t.resolve(3), Ok(7));
        assert_eq!(
            t.resolve(0),
            Err(CafError::InvalidImage { image: 0, count: 3 })
        );
        assert!(t.resolve(4).is_err());
        assert!(t.resolve(-1).is_err());
    }

    #[test]
    fn children_get_distinct_ids_and_levels() {
        let root: &'static Team = Box::leak(Box::new(Team::initial(4, 2)));
        let a = Team::child(root, 1, vec![0, 2], 2).unwrap();
        let b = Team::child(root, 1, vec![0, 2], 2).unwrap();
        assert_eq!((a.rank, a.level, a.number), (1, 1, 1));
        assert_ne!(a.id, b.id, "a second FORM TEAM gives a new team");
        assert_ne!(a.id, root.id);
        assert!(Team::child(root, 2, vec![1, 3], 2).is_err());
        let a: &'static Team = Box::leak(Box::new(
            a.with_family(vec![(1, vec![0, 2]), (2, vec![1, 3])]),
        ));
        assert!(a.within(root) && a.within(a) && !root.within(a));
        assert!(std::ptr::eq(a.root(), root) && std::ptr::eq(root.root(), root));
        assert_eq!((a.sibling_size(2), a.sibling_size(3)), (Some(2), None));
        assert_eq!(root.sibling_size(-1), Some(4));
    }

    #[test]
    fn nesting_is_bounded() {
        let mut t: &'static Team = Box::leak(Box::new(Team::initial(1, 0)));
        for _ in 1..LEVELS {
            t = Box::leak(Box::new(Team::child(t, 1, vec![0], 0).unwrap()));
        }
        assert!(Team::child(t, 1, vec![0], 0).is_err());
    }
}
