//! Starting a job: the supervisor that spawns N images, watches them, propagates the exit status
//! and tears everything down; and the environment protocol by which an image joins its job.

pub mod job;
pub mod limits;
pub mod supervisor;
pub mod wait;

pub use job::Job;
pub use supervisor::supervise;
