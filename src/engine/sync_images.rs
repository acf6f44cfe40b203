//! SYNC IMAGES: per-pair counters. Image i bumps counter `sync_from(i)` in each partner's control
//! block, then waits until its own `sync_from(j)` has been bumped as often as it has synced with
//! j (Fortran 2018 11.6.4: the k-th sync with j matches j's k-th sync with i).

use super::status::{check_alive, ready_or_gone};
use super::team::Team;
use super::wait::Waiter;
use crate::error::{CafError, CafResult};
use crate::transport::control::Layout;
use crate::transport::{AtomicOp, Transport};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// How many times this image has synced with each initial-team image.
#[derive(Debug)]
pub struct SyncImages {
    counts: Mutex<Vec<u64>>,
}

impl SyncImages {
    /// Fresh state for a job of `n` images.
    pub fn new(n: usize) -> SyncImages {
        SyncImages {
            counts: Mutex::new(vec![0; n]),
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
        let partners: Vec<usize> = match list {
            None => team.members.iter().copied().filter(|&j| j != me).collect(),
            Some(l) => {
                let mut seen = vec![false; tp.num_images()];
                let mut out = Vec::with_capacity(l.len());
                for &img in l {
                    let j = team.resolve(img as i64)?;
                    if std::mem::replace(&mut seen[j], true) {
                        return Err(CafError::InvalidArgument(format!(
                            "image {img} appears more than once in SYNC IMAGES"
                        )));
                    }
                    if j != me {
                        out.push(j);
                    }
                }
                out
            }
        };
        for &j in &partners {
            tp.fetch_op(j, Layout::sync_from(me), 8, AtomicOp::Add, 1);
            tp.ring(j);
        }
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        for &j in &partners {
            counts[j] += 1;
            let want = counts[j];
            let word = tp
                .direct(me, Layout::sync_from(j))
                .expect("own segment is mapped");
            // SAFETY: the counter is an aligned u64 in this image's control block.
            let c = unsafe { &*(word as *const AtomicU64) };
            w.block(|| ready_or_gone(|| c.load(Ordering::Acquire) >= want, || check_alive(tp, j)))?;
        }
        Ok(())
    }
}
