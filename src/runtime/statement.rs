//! The statement a SYNC ALL belongs to. gfortran 12 ends an ALLOCATE of a coarray with a call
//! of `_gfortran_caf_sync_all` without the statement's STAT= and ERRMSG= (Fortran 2018 9.7.1.2:
//! the allocation synchronises the team). ALLOCATE marks itself here, so that that SYNC ALL
//! names ALLOCATE in its error, and does not end the program when ALLOCATE has already reported
//! a stopped or failed image through STAT= (9.7.4: STAT_STOPPED_IMAGE).

use crate::engine::status;
use crate::engine::team::Team;
use crate::error::{CafError, CafResult};
use crate::transport::control::status::{ERROR_STOPPED, FAILED, STOPPED};
use crate::transport::Transport;
use std::sync::atomic::{AtomicU8, Ordering};

/// What the last ALLOCATE of a coarray left for the SYNC ALL gfortran calls after it.
#[derive(Debug, Default)]
pub struct Pending(AtomicU8);

/// What the SYNC ALL after an ALLOCATE does with its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// Not after an ALLOCATE: the program's own SYNC ALL.
    Nothing,
    /// After an ALLOCATE that succeeded: an error is the ALLOCATE's.
    Allocate,
    /// After an ALLOCATE that reported a terminated image through STAT=: the same error again
    /// is already reported.
    Reported,
}

impl Pending {
    /// Records an ALLOCATE of a coarray; `reported`: it gave its error to STAT=.
    pub fn allocate(&self, reported: bool) {
        let v = if reported { 2 } else { 1 };
        self.0.store(v, Ordering::Relaxed);
    }

    /// What the SYNC ALL being executed follows (and forgets it).
    pub fn take(&self) -> After {
        match self.0.swap(0, Ordering::Relaxed) {
            1 => After::Allocate,
            2 => After::Reported,
            _ => After::Nothing,
        }
    }
}

/// `Err` (the stopped or failed image) if a member of `team` has terminated before the
/// synchronisation an ALLOCATE of a coarray performs. Once this image knows of a termination
/// ([`status::termination_known`]), reads every member's status word rather than waiting for
/// the termination's announcement, which over MPI can reach this image after the status (a
/// program that saw IMAGE_STATUS report the image stopped must get the error here, not from
/// the SYNC ALL after the allocation). While it knows of none, reads nothing: a member that
/// terminates unseen is found by the allocation's synchronisation, as one that terminates
/// during it would be. Each read is a remote atomic across nodes, served at the target's
/// next entry into MPI: MPICH's stress_alloc on 3 images spent most of its time in them.
pub fn check_running(tp: &dyn Transport, team: &Team) -> CafResult<()> {
    if !status::termination_known(tp) {
        return Ok(());
    }
    team.members
        .iter()
        .try_for_each(|&j| match status::of(tp, j) {
            STOPPED | ERROR_STOPPED => Err(CafError::StoppedImage { image: j + 1 }),
            FAILED => Err(CafError::FailedImage { image: j + 1 }),
            _ => Ok(()),
        })
}

#[cfg(test)]
mod tests {
    use super::check_running;
    use crate::engine::status;
    use crate::engine::team::Team;
    use crate::error::CafError;
    use crate::transport::control::status::{RUNNING, STOPPED};
    use crate::transport::{AtomicOp, CopyPlan, Full, Notification, Place, Transport};
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Three images seen from image 1: its own header (zeroed: no news) is mapped, every
    /// other word is remote; counts the remote atomics and answers status loads from
    /// `statuses`.
    struct Remote {
        header: Vec<u64>,
        statuses: [u32; 3],
        atomics: AtomicUsize,
    }

    impl Transport for Remote {
        fn num_images(&self) -> usize {
            3
        }
        fn this_image(&self) -> usize {
            0
        }
        fn copy(&self, _: Place, _: Place, _: &CopyPlan) {
            unreachable!("no data moves")
        }
        fn fetch_op(&self, image: usize, offset: usize, _: usize, op: AtomicOp, _: u64) -> u64 {
            assert_eq!((offset, op), (status::STATUS, AtomicOp::Load));
            self.atomics.fetch_add(1, Ordering::Relaxed);
            self.statuses[image] as u64
        }
        fn compare_swap(&self, _: usize, _: usize, _: usize, _: u64, _: u64) -> u64 {
            unreachable!("no compare-and-swap")
        }
        fn fence(&self) {}
        fn ring(&self, _: usize) {}
        fn direct(&self, image: usize, offset: usize) -> Option<usize> {
            (image == 0).then(|| self.header.as_ptr() as usize + offset)
        }
        fn notify(&self, _: usize, _: &Notification) -> Result<(), Full> {
            unreachable!("no notifications")
        }
        fn drain(&self, _: &mut dyn FnMut(Notification)) {}
    }

    #[test]
    fn allocate_reads_status_words_only_once_a_termination_is_known() {
        let tp = Remote {
            header: vec![0; 64],
            statuses: [RUNNING, RUNNING, STOPPED],
            atomics: AtomicUsize::new(0),
        };
        let team = Team::initial(3, 0);
        assert!(
            check_running(&tp, &team).is_ok(),
            "no termination known yet"
        );
        assert_eq!(tp.atomics.load(Ordering::Relaxed), 0, "no remote read");
        assert_eq!(
            status::of(&tp, 2),
            STOPPED,
            "IMAGE_STATUS sees image 3 stopped"
        );
        assert!(matches!(
            check_running(&tp, &team),
            Err(CafError::StoppedImage { image: 3 })
        ));
        assert_eq!(
            tp.atomics.load(Ordering::Relaxed),
            4,
            "one read, then three"
        );
    }
}
