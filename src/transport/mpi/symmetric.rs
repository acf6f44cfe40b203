//! The shared window at the same address in every process of a node. MPI maps each process's
//! view of a shared window wherever it likes (Open MPI always elsewhere; MPICH too once its
//! symmetric heap is switched off, see `tune.rs`), but the code GCC 15+ emits for a coindexed
//! reference (an accessor, run in the caller) follows the pointers the target stored in its
//! coarrays, which are the target's own addresses. So the node's processes agree on one free
//! address range and each maps every on-node segment a second time into it, at the same place
//! in every process: the same pages, and MPI keeps its own view.

use super::world::check;
use crate::sys::mem;
use mpi_sys as m;

/// How many ranges are proposed before giving up (each by another rank of the node).
const ATTEMPTS: usize = 4;

/// Maps every segment in `mapped` (the on-node ones, each `seg` bytes from a page-aligned
/// address) into one range at the same address in every process of `node`, in rank order, and
/// moves `mapped` there, unless every process says it `already` maps them at their owners'
/// addresses. Collective over `node`. Returns false, changing nothing, when the processes find
/// no range free in all of them or the kernel refuses the aliases.
pub(super) fn remap(
    node: m::MPI_Comm,
    mapped: &mut [Option<usize>],
    seg: usize,
    already: bool,
) -> bool {
    let (mut me, mut size) = (0, 0);
    // SAFETY: a valid communicator and out-pointers.
    unsafe {
        check(m::MPI_Comm_rank(node, &mut me), "MPI_Comm_rank");
        check(m::MPI_Comm_size(node, &mut size), "MPI_Comm_size");
    }
    let (me, size) = (me as usize, size as usize);
    if all(node, already, size) {
        return true;
    }
    let stride = seg.next_multiple_of(mem::page_size());
    let len = stride * size;
    for attempt in 0..ATTEMPTS {
        let proposer = attempt % size;
        let mine = if me == proposer {
            mem::reserve(None, len).ok()
        } else {
            None
        };
        let at = gather(node, mine.unwrap_or(0) as u64, size)[proposer] as usize;
        if at == 0 {
            continue;
        }
        let reserved = mine.is_some() || mem::reserve(Some(at), len).is_ok();
        if !all(node, reserved, size) {
            if reserved {
                // SAFETY: this process's own reservation, used by nothing.
                unsafe { mem::unmap(at, len) };
            }
            continue;
        }
        let targets: Vec<usize> = (0..mapped.len()).filter(|&k| mapped[k].is_some()).collect();
        let aliased = targets.len() == size
            && targets.iter().enumerate().all(|(i, &k)| {
                let from = mapped[k].expect("filtered above");
                // SAFETY: `from` is the page-aligned start of image k's segment, `seg` bytes
                // of MPI's shared window; the target is this process's reservation.
                unsafe { mem::alias_at(from, stride, at + i * stride) }.is_ok()
            });
        if all(node, aliased, size) {
            for (i, &k) in targets.iter().enumerate() {
                mapped[k] = Some(at + i * stride);
            }
            return true;
        }
        // SAFETY: the reservation and the aliases in it are this process's own, used by
        // nothing yet (MPI keeps its own view of the window).
        unsafe { mem::unmap(at, len) };
        return false;
    }
    false
}

/// Whether `flag` holds in every process of `node`.
fn all(node: m::MPI_Comm, flag: bool, size: usize) -> bool {
    gather(node, u64::from(flag), size).iter().all(|&f| f == 1)
}

/// Every process's `value`, in rank order of `node`.
fn gather(node: m::MPI_Comm, value: u64, size: usize) -> Vec<u64> {
    let mut all = vec![0u64; size];
    // SAFETY: one u64 sent, one per rank received into a buffer of that length.
    unsafe {
        check(
            m::MPI_Allgather(
                (&value as *const u64).cast(),
                1,
                m::RSMPI_UINT64_T,
                all.as_mut_ptr().cast(),
                1,
                m::RSMPI_UINT64_T,
                node,
            ),
            "MPI_Allgather",
        )
    };
    all
}
