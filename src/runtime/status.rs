//! Failed and stopped images (Fortran 2018 5.3.6, 11.5): FAIL IMAGE, IMAGE_STATUS,
//! FAILED_IMAGES, STOPPED_IMAGES and NUM_IMAGES(FAILED=), in the numbering of the current team
//! or of a team the program names (gfortran 16).

use super::Runtime;
use crate::engine::status;
use crate::engine::status::JOB_FAILED;
use crate::engine::team::Team;
use crate::error::{CafResult, STAT_FAILED_IMAGE, STAT_STOPPED_IMAGE};
use crate::transport::control::status::{ERROR_STOPPED, FAILED, STOPPED};
use crate::transport::AtomicOp;

impl Runtime {
    /// The initial-team index of current-team image `image` for a coindexed access: `Err` if
    /// it is out of range or has failed.
    pub fn target(&self, image: i64) -> CafResult<usize> {
        let j = self.team.resolve(image)?;
        // The header's news word is `status::news` without its two transport calls.
        if self.header.news.load(std::sync::atomic::Ordering::Acquire) != 0 {
            status::check_failed(self.tp, j)?;
        }
        Ok(j)
    }

    /// IMAGE_STATUS(image): 0 while executing, STAT_STOPPED_IMAGE once it initiated
    /// termination, STAT_FAILED_IMAGE once it failed.
    pub fn image_status(&self, image: i64) -> CafResult<i32> {
        self.image_status_in(self.team.current(), image)
    }

    /// IMAGE_STATUS(image, team): as [`Runtime::image_status`], `image` numbered in `team`.
    pub fn image_status_in(&self, team: &Team, image: i64) -> CafResult<i32> {
        let j = team.resolve(image)?;
        Ok(match status::of(self.tp, j) {
            STOPPED | ERROR_STOPPED => STAT_STOPPED_IMAGE,
            FAILED => STAT_FAILED_IMAGE,
            _ => 0,
        })
    }

    /// Team image indices, in increasing order, of the images that have failed (`failed`) or
    /// initiated normal termination.
    pub fn images_that(&self, failed: bool) -> Vec<i64> {
        self.images_in(self.team.current(), failed)
    }

    /// As [`Runtime::images_that`], for the images of `team` in its numbering.
    pub fn images_in(&self, team: &Team, failed: bool) -> Vec<i64> {
        let want = if failed { FAILED } else { STOPPED };
        (1..)
            .zip(&team.members)
            .filter(|(_, &j)| status::of(self.tp, j) == want)
            .map(|(k, _)| k)
            .collect()
    }

    /// FAIL IMAGE (Fortran 2018 11.5): this image stops taking part in the program without
    /// terminating others; they see STAT_FAILED_IMAGE on operations that need it. The process
    /// ends with status 0 (the supervisor counts a failed image as ended).
    /// Over a transport whose shutdown is collective (MPI), the process stays, idle, until
    /// the job ends, then finalises with the others.
    pub fn fail_image(&self) -> ! {
        self.set_status(FAILED, 0);
        self.tp.fetch_op(0, JOB_FAILED, 4, AtomicOp::Add, 1);
        status::announce(self.tp);
        if self.tp.collective_exit() {
            self.await_job_end();
        }
        crate::sys::proc::exit(0)
    }
}
