//! FORM TEAM, CHANGE TEAM, END TEAM and SYNC TEAM (Fortran 2018 11.1.5, 11.6.6, 11.6.9), and
//! the current team every image selector is resolved through.
//!
//! The current team is an atomic pointer to a never-freed [`Team`], so THIS_IMAGE and image
//! resolution cost one load and no lock. Coarrays allocated while a team is current are listed
//! in that team's frame and freed at END TEAM. The symmetric heap is a coalescing first-fit free
//! list, so its state is a function of its set of live blocks; since a coarray allocated outside
//! a team cannot be deallocated inside it (9.7.3.2), freeing the frame's coarrays restores
//! exactly the set of live blocks of CHANGE TEAM time, and the heap is again identical on every
//! image of the parent team whatever the sibling teams allocated.

use super::registry::{HeapKind, Token};
use super::Runtime;
use crate::engine::team::Team;
use crate::error::{CafError, CafResult};
use std::collections::HashSet;
use std::ops::Deref;
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Mutex;

/// The error of a team value that no FORM TEAM or GET_TEAM of this image made.
pub const UNDEFINED_TEAM: &str =
    "the team variable is undefined: no FORM TEAM or GET_TEAM defined it";

/// The current team and, per active CHANGE TEAM, the coarrays allocated in it.
#[derive(Debug)]
pub struct Teams {
    current: AtomicPtr<Team>,
    /// One entry per active CHANGE TEAM: `(token address, descriptor base-address slot)`.
    frames: Mutex<Vec<Vec<(usize, usize)>>>,
    /// Addresses of every team of this image (the initial team and each FORM TEAM's), so that
    /// a team value compiled code passes back can be checked before it is used.
    known: Mutex<HashSet<usize>>,
}

impl Deref for Teams {
    type Target = Team;
    fn deref(&self) -> &Team {
        self.current()
    }
}

impl Teams {
    /// Starts in `initial`.
    pub fn new(initial: Team) -> Teams {
        let initial = Box::into_raw(Box::new(initial));
        Teams {
            current: AtomicPtr::new(initial),
            frames: Mutex::new(Vec::new()),
            known: Mutex::new(HashSet::from([initial as usize])),
        }
    }

    /// The team at `addr` if it is one of this image's teams (a team value compiled code
    /// holds), else `Err`: an undefined team variable.
    pub fn known(&self, addr: usize) -> CafResult<&'static Team> {
        let known = self.known.lock().unwrap_or_else(|p| p.into_inner());
        if known.contains(&addr) {
            // SAFETY: every address in `known` is a leaked, never-freed `Team`.
            Ok(unsafe { &*(addr as *const Team) })
        } else {
            Err(CafError::InvalidArgument(UNDEFINED_TEAM.into()))
        }
    }

    /// The initial team.
    pub fn initial(&self) -> &'static Team {
        self.current().root()
    }

    /// The number of images of the team numbered `number`: -1 is the initial team, any other
    /// number a team formed by the FORM TEAM that formed the current team (NUM_IMAGES with
    /// TEAM_NUMBER=, Fortran 2018 16.9.145).
    pub fn size_of_number(&self, number: i64) -> CafResult<usize> {
        if number == -1 {
            return Ok(self.initial().len());
        }
        let cur = self.current();
        cur.parent.and(cur.sibling_size(number)).ok_or_else(|| {
            CafError::InvalidArgument(format!(
                "no team numbered {number} was formed with the current team"
            ))
        })
    }

    /// The current team.
    pub fn current(&self) -> &'static Team {
        // SAFETY: `current` always holds a pointer from Box::into_raw that is never freed.
        unsafe { &*self.current.load(Ordering::Acquire) }
    }

    fn frames(&self) -> std::sync::MutexGuard<'_, Vec<Vec<(usize, usize)>>> {
        self.frames.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Records a symmetric registration made while the current team is not the initial team.
    pub fn track(&self, token: usize, slot: usize) {
        if let Some(top) = self.frames().last_mut() {
            top.push((token, slot));
        }
    }

    /// Forgets a registration about to be deallocated; `Err` if it was allocated outside the
    /// current team (Fortran 2018 9.7.3.2).
    pub fn untrack(&self, token: usize) -> CafResult<()> {
        let mut frames = self.frames();
        let Some(top) = frames.last_mut() else {
            return Ok(());
        };
        let i = top.iter().position(|c| c.0 == token).ok_or_else(|| {
            CafError::InvalidArgument(
                "a coarray allocated outside the current team cannot be deallocated inside it"
                    .into(),
            )
        })?;
        top.swap_remove(i);
        Ok(())
    }
}

impl Runtime {
    /// FORM TEAM: collective over the current team. Exchanges every image's team number and
    /// NEW_INDEX= (0 when absent) and returns this image's new team, ordered by NEW_INDEX= if
    /// given, else by rank in the current team. The checks follow the exchange, so that every
    /// image reports an error one image's arguments cause instead of waiting for it.
    pub fn form_team(&self, number: i64, new_index: i64) -> CafResult<&'static Team> {
        let parent = self.team.current();
        let n = parent.len();
        let mut all = vec![0i64; 2 * n];
        all[2 * parent.rank] = number;
        all[2 * parent.rank + 1] = new_index;
        self.sum_i64(&mut all)?;
        if let Some(r) = (0..n).find(|&r| all[2 * r] <= 0) {
            return Err(CafError::InvalidArgument(format!(
                "FORM TEAM: team number {} of image {} is not positive",
                all[2 * r],
                r + 1
            )));
        }
        // Every team this FORM TEAM makes, with its members in team order (NEW_INDEX= if
        // given, else rank in the current team): NUM_IMAGES(TEAM_NUMBER=) and image selectors
        // with TEAM_NUMBER= name a sibling of the new team (Fortran 2018 9.6, 16.9.145).
        let mut numbers: Vec<i64> = (0..n).map(|r| all[2 * r]).collect();
        numbers.sort_unstable();
        numbers.dedup();
        let mut family = Vec::with_capacity(numbers.len());
        for &k in &numbers {
            let mut chosen: Vec<(i64, usize)> = (0..n)
                .filter(|&r| all[2 * r] == k)
                .map(|r| (all[2 * r + 1], r))
                .collect();
            chosen.sort_unstable();
            let indexed = chosen.iter().any(|c| c.0 != 0);
            if k == number && indexed && chosen.iter().zip(1..).any(|(c, j)| c.0 != j) {
                return Err(CafError::InvalidArgument(format!(
                    "FORM TEAM: the NEW_INDEX= values of team {number} are not 1 to {}",
                    chosen.len()
                )));
            }
            family.push((k, chosen.iter().map(|c| parent.members[c.1]).collect()));
        }
        let members = family
            .iter()
            .find(|f: &&(i64, Vec<usize>)| f.0 == number)
            .map(|f| f.1.clone())
            .unwrap_or_default();
        let team = Team::child(parent, number, members, self.me)?.with_family(family);
        let team: &'static Team = Box::leak(Box::new(team));
        self.team
            .known
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(team as *const Team as usize);
        Ok(team)
    }

    /// Sums `v` elementwise over the current team, result everywhere.
    fn sum_i64(&self, v: &mut [i64]) -> CafResult<()> {
        let add = |acc: &mut [u8], other: &[u8]| -> CafResult<()> {
            for (a, b) in acc.chunks_exact_mut(8).zip(other.chunks_exact(8)) {
                let s = i64::from_ne_bytes(a.try_into().expect("8 bytes"))
                    .wrapping_add(i64::from_ne_bytes(b.try_into().expect("8 bytes")));
                a.copy_from_slice(&s.to_ne_bytes());
            }
            Ok(())
        };
        let dims = crate::transport::plan::contiguous(v.len(), 8);
        let op = super::collective::CoOp::Reduce {
            result_image: 0,
            combine: &add,
        };
        self.collective(v.as_mut_ptr() as usize, &dims, 8, op)
    }

    /// CHANGE TEAM: makes `team` (formed in the current team) current and synchronises its
    /// images.
    pub fn change_team(&self, team: &'static Team) -> CafResult<()> {
        if !team
            .parent
            .is_some_and(|p| std::ptr::eq(p, self.team.current()))
        {
            return Err(CafError::InvalidArgument(
                "CHANGE TEAM: the team was not formed by FORM TEAM in the current team".into(),
            ));
        }
        self.team.frames().push(Vec::new());
        self.team
            .current
            .store(team as *const _ as *mut _, Ordering::Release);
        self.barrier.sync(self.tp, &self.waiter, team)
    }

    /// END TEAM: synchronises the current team's images, deallocates the coarrays allocated
    /// in it, and makes its parent current again (also when a member failed or stopped, which
    /// it then reports).
    pub fn end_team(&self) -> CafResult<()> {
        let team = self.team.current();
        let parent = team.parent.ok_or_else(|| {
            CafError::InvalidArgument("END TEAM outside a CHANGE TEAM construct".into())
        })?;
        // With a failed or stopped member the statement still ends the team for the others
        // (Fortran 2018 11.6.11) and then reports it.
        let synced = self.barrier.sync(self.tp, &self.waiter, team);
        if let Err(e) = &synced {
            if !matches!(
                e,
                CafError::FailedImage { .. } | CafError::StoppedImage { .. }
            ) {
                return synced;
            }
        }
        let coarrays = self.team.frames().pop().unwrap_or_default();
        for (tok, slot) in coarrays {
            // SAFETY: tracked tokens are live tokens of this runtime; deregister untracks a
            // token before freeing it, so this one has not been freed.
            let t = unsafe { &mut *(tok as *mut Token) };
            Runtime::heap(&self.sym).free(t.offset);
            self.registry.remove(t.offset);
            t.heap = HeapKind::None;
            t.size = 0;
            if slot != 0 {
                // SAFETY: `slot` is the base-address field of the coarray's descriptor, which
                // outlives the team: a coarray still allocated at END TEAM is SAVEd or a main
                // program variable (unsaved locals are deallocated when their procedure returns).
                unsafe { *(slot as *mut usize) = 0 };
            }
        }
        self.team
            .current
            .store(parent as *const _ as *mut _, Ordering::Release);
        synced
    }

    /// SYNC TEAM: synchronises the images of `team`, which must be the current team, one of
    /// its ancestors, or a team formed in the current team.
    pub fn sync_team(&self, team: &'static Team) -> CafResult<()> {
        let cur = self.team.current();
        if !(cur.within(team) || team.parent.is_some_and(|p| std::ptr::eq(p, cur))) {
            return Err(CafError::InvalidArgument(
                "SYNC TEAM: the team is neither the current team, an ancestor, nor formed in it"
                    .into(),
            ));
        }
        self.barrier.sync(self.tp, &self.waiter, team)
    }
}
