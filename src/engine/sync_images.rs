//! SYNC IMAGES: per-pair counters. Image i bumps counter `sync_from(i)` in each partner's control
//! block, then waits until its own `sync_from(j)` has been bumped as often as it has synced with
//! j (Fortran 2018 11.6.4: the k-th sync with j matches j's k-th sync with i).

use super::status::check_alive;
use super::team::Team;
use super::wait::Waiter;
use crate::error::{CafError, CafResult};
use crate::transport::control::Layout;
use crate::transport::Transport;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// This image's SYNC IMAGES state, kept between calls so that a call allocates nothing.
#[derive(Debug)]
struct State {
    /// Syncs completed with each initial-team image.
    counts: Vec<u64>,
    /// `marks[j] == stamp` when image j is already in the current list (duplicate check
    /// without clearing a bitmap per call).
    marks: Vec<u64>,
    stamp: u64,
    /// The current call's partners.
    partners: Vec<usize>,
}

/// How many times this image has synced with each initial-team image.
#[derive(Debug)]
pub struct SyncImages {
    state: Mutex<State>,
}

impl SyncImages {
    /// Fresh state for a job of `n` images.
    pub fn new(n: usize) -> SyncImages {
        SyncImages {
            state: Mutex::new(State {
                counts: vec![0; n],
                marks: vec![0; n],
                stamp: 0,
                partners: Vec::with_capacity(n),
            }),
        }
    }

    /// Synchronises with the listed team images (1-based), or with every other team image when
    /// `list` is `None` (`SYNC IMAGES (*)`).
    pub fn sync(
        &self,
        tp: &dyn Transport,
        w: &Waiter,
        team: &Team,
        list: Option<&[i32]>,
    ) -> CafResult<()> {
        let me = tp.this_image();
        let mut st = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let State {
            counts,
            marks,
            stamp,
            partners,
        } = &mut *st;
        partners.clear();
        match list {
            None => partners.extend(team.members.iter().copied().filter(|&j| j != me)),
            Some(l) => {
                *stamp += 1;
                for &img in l {
                    let j = team.resolve(img as i64)?;
                    if std::mem::replace(&mut marks[j], *stamp) == *stamp {
                        return Err(CafError::InvalidArgument(format!(
                            "image {img} appears more than once in SYNC IMAGES"
                        )));
                    }
                    if j != me {
                        partners.push(j);
                    }
                }
            }
        }
        for &j in partners.iter() {
            tp.signal(j, Layout::sync_from(me));
        }
        for &j in partners.iter() {
            counts[j] += 1;
            let want = counts[j];
            let word = tp
                .direct(me, Layout::sync_from(j))
                .expect("own segment is mapped");
            // SAFETY: the counter is an aligned u64 in this image's control block.
            let c = unsafe { &*(word as *const AtomicU64) };
            w.block_ready(|| c.load(Ordering::Acquire) >= want, || check_alive(tp, j))?;
        }
        Ok(())
    }
}
