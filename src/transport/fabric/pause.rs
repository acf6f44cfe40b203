//! How the shim's waits for this image's own operations (`ff_wait` in `shim.c`, and a post the
//! provider refused for now) pause between empty polls ([`SCHEDULE`]): they poll at once 64
//! times, then yield the processor through the image's yield gate until poll 1024, then nap 20
//! µs before each poll, never longer: these waits are for the provider's own progress, which a
//! longer nap would only delay. A yield that the gate refused or that proved slow ends the
//! yielding of that wait: beside CPU-bound processes a yield hands the core to one of them for
//! its slice, while a napper is woken by its timer with preemption. Over the shm provider an
//! owner-side call's owner waits here for its reply's delivery, which needs its caller to run:
//! its ungated yields were most of the 1.4 ms such a call cost beside 2 CPU-bound processes
//! (bench/NOTES.md, branch fabshm).

use crate::transport::backoff::Schedule;
use std::ffi::c_uint;
use std::time::Duration;

/// The shim's waits: 64 polls, yields up to poll 1024, then naps of 20 µs.
const SCHEDULE: Schedule = Schedule::new(
    64,
    1024 - 64,
    Duration::from_micros(20),
    Duration::from_micros(20),
);

/// Pauses a wait of the shim after `*idle` empty polls, and counts this one.
pub(super) extern "C" fn pause(idle: *mut c_uint) {
    // SAFETY: the shim passes the counter of its running wait, a live local of this thread.
    SCHEDULE.pause(unsafe { &mut *idle });
}
