//! Handing the core over after waking another image. The kernel often wakes an image onto
//! its waker's CPU (wake-affine), and under EEVDF the wakee then does not preempt a waker of
//! its own group before the waker's slice ends: beside CPU-bound processes a woken image
//! waited a median 0.9-1.5 ms for a waker that computed on, against 40-50 µs with
//! libcaf_shmem, whose wakers soon sleep (bench/NOTES.md, branches share and wakeyield). A
//! statement that woke a sleeping image therefore yields once, but only while this image's
//! waits see outside load: on an idle machine the woken image is about to run anyway and the
//! yield only adds switches (SYNC ALL at 8 images on 2 cores 7.2 → 13.2 µs).

/// After a statement's rings: calls `give` (hand the core over) once if any of them woke a
/// sleeping image (`woke`) and `outside_load()` holds, which is asked only then. Returns
/// whether it gave.
pub fn hand_over(woke: bool, outside_load: impl FnOnce() -> bool, give: impl FnOnce()) -> bool {
    let handing = woke && outside_load();
    if handing {
        give();
    }
    handing
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn a_statement_yields_once_only_after_waking_someone_under_outside_load() {
        // One statement ringing several images (SYNC IMAGES): each ring reports whether it
        // found a sleeper; the statement yields at most once, after all of them.
        for rings in [
            vec![],
            vec![false],
            vec![true],
            vec![false, true, true, false],
        ] {
            for load in [false, true] {
                let (asked, gave) = (Cell::new(0), Cell::new(0));
                let woke = rings.iter().fold(false, |a, &r| a | r);
                hand_over(
                    woke,
                    || {
                        asked.set(asked.get() + 1);
                        load
                    },
                    || gave.set(gave.get() + 1),
                );
                let any = rings.contains(&true);
                assert_eq!(gave.get(), usize::from(any && load), "{rings:?} {load}");
                assert_eq!(asked.get(), usize::from(any), "{rings:?} {load}");
            }
        }
    }
}
