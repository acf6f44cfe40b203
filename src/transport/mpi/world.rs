//! MPI start-up and shutdown, and the windows over every image's segment (the foMPI
//! "allocated window": one window for all coarrays, O(1) memory per peer, opened once with
//! `MPI_Win_lock_all` and never closed until the end).

use mpi_sys as m;
use std::ffi::{c_int, c_void, CString};
use std::ptr::null_mut;

/// Panics with the failing call's name when MPI reports an error (the panic hook turns it into
/// the runtime's one-line message and error termination of the job).
pub(super) fn check(rc: c_int, what: &str) {
    if rc != 0 {
        panic!("{what} failed (MPI error code {rc})");
    }
}

/// The thread level ferrocaf asks MPI for. The runtime starts no thread of its own: MPI is
/// called only by the threads that execute coarray statements, and a program executes those
/// from one thread at a time (OpenMP gives coarrays no meaning inside a parallel region), so
/// MPI_THREAD_SERIALIZED is enough. Open MPI's osc/pt2pt, the component that works across
/// nodes over TCP, refuses MPI_THREAD_MULTIPLE.
pub(super) fn thread_level() -> c_int {
    // SAFETY: a constant of the bindings, valid at any time.
    unsafe { m::RSMPI_THREAD_SERIALIZED }
}

/// The MPI handles of a job: opaque pointers (Open MPI) or integers (MPICH), valid in any
/// thread once created (calls are serialised, [`thread_level`]) and freed only by
/// [`World::finalize`].
pub(super) struct World {
    /// Window over every image's whole segment, for RMA from any image.
    pub win: m::MPI_Win,
    /// The shared-memory window of this node's images, when it is not `win` itself.
    pub node_win: Option<m::MPI_Win>,
    /// Duplicate of MPI_COMM_WORLD carrying notifications.
    pub comm: m::MPI_Comm,
    /// This rank and the number of ranks.
    pub rank: usize,
    /// Number of ranks.
    pub size: usize,
    /// Ranks on this node (sharing its processors).
    pub node_size: usize,
    /// Address of every image's segment in this process, where it is mapped (own segment
    /// always; on-node peers with a shared-memory window).
    pub mapped: Vec<Option<usize>>,
    /// Window displacement of every image's segment: MPI does not align window memory (Open
    /// MPI's shared windows start 8 bytes past a page), so each image aligns its segment to
    /// [`ALIGN`] inside its window and tells the others where.
    pub shift: Vec<usize>,
    /// Address of every image's (aligned) segment in that image's own process: the pointers
    /// an image stores in its segment (allocatable components) are relative to it.
    pub home: Vec<usize>,
}

/// Alignment of every segment (what the heaps' offsets and gfortran's data assume).
const ALIGN: usize = 4096;

/// Pause between this process's last output and MPI_Abort (see [`World::abort`]).
const OUTPUT_GRACE: std::time::Duration = std::time::Duration::from_millis(100);

// SAFETY: MPI handles are plain values usable from any thread, one at a time, under
// MPI_THREAD_SERIALIZED (checked at init); the window memory they describe lives until finalize.
unsafe impl Send for World {}
// SAFETY: as above; every method only passes the handles to thread-safe MPI calls.
unsafe impl Sync for World {}

impl World {
    /// Initialises MPI and creates windows of `sizes(n).1` bytes per image; the first
    /// `sizes(n).0` bytes (the control block) are zeroed before any peer may touch them.
    /// With `shm`, this node's images share memory and address each other directly, each
    /// segment at one address in every process of the node (`symmetric.rs`).
    pub fn init(sizes: impl Fn(usize) -> (usize, usize), shm: bool) -> Result<World, String> {
        let (mut provided, mut rank, mut size) = (0, 0, 0);
        super::osc::choose(&library());
        let level = thread_level();
        // SAFETY: MPI may be initialised with null argc/argv; the out-pointers are valid.
        unsafe {
            check(
                m::MPI_Init_thread(null_mut(), null_mut(), level, &mut provided),
                "MPI_Init_thread",
            );
            if provided < level {
                return Err("the MPI library does not provide MPI_THREAD_SERIALIZED".into());
            }
            check(
                m::MPI_Comm_rank(m::RSMPI_COMM_WORLD, &mut rank),
                "MPI_Comm_rank",
            );
            check(
                m::MPI_Comm_size(m::RSMPI_COMM_WORLD, &mut size),
                "MPI_Comm_size",
            );
        }
        super::tune::apply();
        let (rank, size) = (rank as usize, size as usize);
        let (ctrl, seg) = sizes(size);
        let mut w = World {
            win: null_handle(),
            node_win: None,
            comm: dup_world(),
            rank,
            size,
            node_size: 1,
            mapped: vec![None; size],
            shift: vec![0; size],
            home: vec![0; size],
        };
        let raw = if shm {
            w.shared(seg + ALIGN)
        } else {
            w.allocated(seg + ALIGN)
        };
        w.mapped[rank] = Some(raw);
        w.exchange_shifts(raw, raw.next_multiple_of(ALIGN) - raw);
        if shm {
            w.same_addresses(seg);
        }
        let base = w.mapped[rank].expect("own segment");
        // SAFETY: the window's first `ctrl` bytes are this image's own, not yet shared with
        // anyone: peers touch them only after the barrier below.
        unsafe {
            std::ptr::write_bytes(base as *mut u8, 0, ctrl);
            check(m::MPI_Win_lock_all(0, w.win), "MPI_Win_lock_all");
            if let Some(nw) = w.node_win {
                check(m::MPI_Win_lock_all(0, nw), "MPI_Win_lock_all");
            }
            check(m::MPI_Barrier(m::RSMPI_COMM_WORLD), "MPI_Barrier");
        }
        Ok(w)
    }

    /// Shares `mine` (this image's segment displacement in its window of local address `raw`)
    /// and the segment's address with every image; moves every mapped segment address by its
    /// image's displacement.
    fn exchange_shifts(&mut self, raw: usize, mine: usize) {
        let me = [mine as u64, (raw + mine) as u64];
        let mut all = vec![0u64; 2 * self.size];
        // SAFETY: two u64 sent, two per rank received into a buffer of that length.
        unsafe {
            check(
                m::MPI_Allgather(
                    me.as_ptr().cast(),
                    2,
                    m::RSMPI_UINT64_T,
                    all.as_mut_ptr().cast(),
                    2,
                    m::RSMPI_UINT64_T,
                    m::RSMPI_COMM_WORLD,
                ),
                "MPI_Allgather",
            )
        };
        self.shift = all.chunks(2).map(|p| p[0] as usize).collect();
        self.home = all.chunks(2).map(|p| p[1] as usize).collect();
        for (a, s) in self.mapped.iter_mut().zip(&self.shift) {
            *a = a.map(|a| a + s);
        }
    }

    /// Maps this node's segments at the same address in every process of the node
    /// (`symmetric.rs`) unless MPI already did, and tells every image where each image's
    /// segment now is in its owner's process.
    fn same_addresses(&mut self, seg: usize) {
        let here = |w: &World| (0..w.size).all(|k| w.mapped[k].is_none_or(|a| a == w.home[k]));
        let mut node = split_node();
        let already = here(self);
        super::symmetric::remap(node, &mut self.mapped, seg, already);
        // SAFETY: the node communicator is no longer needed.
        unsafe { check(m::MPI_Comm_free(&mut node), "MPI_Comm_free") };
        let me = self.mapped[self.rank].expect("own segment") as u64;
        let mut all = vec![0u64; self.size];
        // SAFETY: one u64 sent, one per rank received into a buffer of that length.
        unsafe {
            check(
                m::MPI_Allgather(
                    (&me as *const u64).cast(),
                    1,
                    m::RSMPI_UINT64_T,
                    all.as_mut_ptr().cast(),
                    1,
                    m::RSMPI_UINT64_T,
                    m::RSMPI_COMM_WORLD,
                ),
                "MPI_Allgather",
            )
        };
        self.home = all.into_iter().map(|a| a as usize).collect();
    }

    /// `MPI_Win_allocate` over all ranks; returns this rank's base address.
    fn allocated(&mut self, seg: usize) -> usize {
        let (mut node, mut node_size) = (split_node(), 0);
        // SAFETY: a valid communicator, freed once its size is known.
        unsafe {
            check(m::MPI_Comm_size(node, &mut node_size), "MPI_Comm_size");
            check(m::MPI_Comm_free(&mut node), "MPI_Comm_free");
        }
        self.node_size = node_size as usize;
        let mut base: *mut c_void = null_mut();
        // SAFETY: out-pointers are valid; MPI allocates `seg` bytes and returns their address.
        unsafe {
            check(
                m::MPI_Win_allocate(
                    seg as m::MPI_Aint,
                    1,
                    m::RSMPI_INFO_NULL,
                    m::RSMPI_COMM_WORLD,
                    (&mut base as *mut *mut c_void).cast(),
                    &mut self.win,
                ),
                "MPI_Win_allocate",
            );
        }
        base as usize
    }

    /// `MPI_Win_allocate_shared` over this node's ranks (the RMA window itself when the node
    /// holds every rank, else an `MPI_Win_create` over the same memory is the RMA window);
    /// records where every on-node peer's segment lies in this process.
    fn shared(&mut self, seg: usize) -> usize {
        let (mut node, mut nw): (m::MPI_Comm, m::MPI_Win) = (split_node(), null_handle());
        let mut base: *mut c_void = null_mut();
        let key = CString::new("alloc_shared_noncontig").expect("no NUL");
        let yes = CString::new("true").expect("no NUL");
        let (mut info, mut node_size) = (null_handle(), 0);
        // SAFETY: valid communicators and out-pointers; strings are NUL-terminated.
        unsafe {
            check(m::MPI_Comm_size(node, &mut node_size), "MPI_Comm_size");
            check(m::MPI_Info_create(&mut info), "MPI_Info_create");
            check(
                m::MPI_Info_set(info, key.as_ptr(), yes.as_ptr()),
                "MPI_Info_set",
            );
            check(
                m::MPI_Win_allocate_shared(
                    seg as m::MPI_Aint,
                    1,
                    info,
                    node,
                    (&mut base as *mut *mut c_void).cast(),
                    &mut nw,
                ),
                "MPI_Win_allocate_shared",
            );
            check(m::MPI_Info_free(&mut info), "MPI_Info_free");
        }
        let node_size = node_size as usize;
        self.node_size = node_size;
        let mut world_ranks = vec![0 as c_int; node_size];
        let me = self.rank as c_int;
        // SAFETY: one int sent and `node_size` received into a buffer of that length.
        unsafe {
            check(
                m::MPI_Allgather(
                    (&me as *const c_int).cast(),
                    1,
                    m::RSMPI_INT32_T,
                    world_ranks.as_mut_ptr().cast(),
                    1,
                    m::RSMPI_INT32_T,
                    node,
                ),
                "MPI_Allgather",
            );
        }
        for (k, &r) in world_ranks.iter().enumerate() {
            let (mut sz, mut unit, mut at): (m::MPI_Aint, c_int, *mut c_void) = (0, 0, null_mut());
            // SAFETY: `k` is a rank of the shared window's group; out-pointers are valid.
            unsafe {
                check(
                    m::MPI_Win_shared_query(
                        nw,
                        k as c_int,
                        &mut sz,
                        &mut unit,
                        (&mut at as *mut *mut c_void).cast(),
                    ),
                    "MPI_Win_shared_query",
                )
            };
            self.mapped[r as usize] = Some(at as usize);
        }
        if node_size == self.size {
            self.win = nw;
        } else {
            self.node_win = Some(nw);
            // SAFETY: `base` is this rank's `seg` bytes of the shared window, alive until the
            // windows are freed (the RMA window first).
            unsafe {
                check(
                    m::MPI_Win_create(
                        base,
                        seg as m::MPI_Aint,
                        1,
                        m::RSMPI_INFO_NULL,
                        m::RSMPI_COMM_WORLD,
                        &mut self.win,
                    ),
                    "MPI_Win_create",
                );
            }
        }
        // SAFETY: the node communicator is no longer needed (the window keeps its own group).
        unsafe { check(m::MPI_Comm_free(&mut node), "MPI_Comm_free") };
        base as usize
    }

    /// Collective shutdown: closes the epochs, frees the windows, finalises MPI.
    pub fn finalize(&self) {
        let (mut win, mut comm) = (self.win, self.comm);
        // SAFETY: called once, by every rank, after every image has terminated; nothing uses
        // the handles afterwards.
        unsafe {
            check(m::MPI_Win_unlock_all(win), "MPI_Win_unlock_all");
            check(m::MPI_Win_free(&mut win), "MPI_Win_free");
            if let Some(mut nw) = self.node_win {
                check(m::MPI_Win_unlock_all(nw), "MPI_Win_unlock_all");
                check(m::MPI_Win_free(&mut nw), "MPI_Win_free");
            }
            check(m::MPI_Comm_free(&mut comm), "MPI_Comm_free");
            check(m::MPI_Finalize(), "MPI_Finalize");
        }
    }

    /// Ends every rank of the job with `code` (ERROR STOP), [`OUTPUT_GRACE`] after this
    /// process's last message: MPICH's launcher drops output still on its way to the terminal
    /// when the abort reaches it (a line written just before MPI_Abort was lost in 4 of 40 runs
    /// of a small C program on this 2-core machine under load; none with a 20 ms pause).
    pub fn abort(&self, code: i32) {
        std::thread::sleep(OUTPUT_GRACE);
        // SAFETY: MPI_Abort is valid at any time after init.
        unsafe { m::MPI_Abort(m::RSMPI_COMM_WORLD, code) };
    }
}

/// The MPI library's name and version: its version string up to the first line end or comma
/// ("MPICH Version: 4.0.2", "Open MPI v4.1.4").
pub(super) fn library() -> String {
    // SAFETY: a constant of the bindings, valid at any time.
    let max = unsafe { m::RSMPI_MAX_LIBRARY_VERSION_STRING };
    let mut buf = vec![0u8; max.max(1) as usize];
    let mut len: c_int = 0;
    // SAFETY: the buffer holds MPI_MAX_LIBRARY_VERSION_STRING bytes, as the call requires; it
    // may be called before MPI_Init and after MPI_Finalize.
    let rc = unsafe { m::MPI_Get_library_version(buf.as_mut_ptr().cast(), &mut len) };
    if rc != 0 {
        return "an unknown MPI library".into();
    }
    buf.truncate((len.max(0) as usize).min(buf.len()));
    let text = String::from_utf8_lossy(&buf);
    let head = text.lines().next().unwrap_or_default();
    let name = head.split(',').next().unwrap_or_default();
    name.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// An all-zero handle, overwritten by the MPI call that creates the real one.
pub(super) fn null_handle<T>() -> T {
    // SAFETY: MPI handles are pointers or integers, for which all-zero bytes are a valid value.
    unsafe { std::mem::zeroed() }
}

/// The communicator of this node's ranks (those that can share memory).
fn split_node() -> m::MPI_Comm {
    let mut c = null_handle();
    // SAFETY: MPI is initialised; the out-pointer is valid.
    unsafe {
        check(
            m::MPI_Comm_split_type(
                m::RSMPI_COMM_WORLD,
                m::RSMPI_COMM_TYPE_SHARED,
                0,
                m::RSMPI_INFO_NULL,
                &mut c,
            ),
            "MPI_Comm_split_type",
        )
    };
    c
}

/// A private duplicate of MPI_COMM_WORLD.
fn dup_world() -> m::MPI_Comm {
    let mut c = null_handle();
    // SAFETY: MPI is initialised; the out-pointer is valid.
    unsafe { check(m::MPI_Comm_dup(m::RSMPI_COMM_WORLD, &mut c), "MPI_Comm_dup") };
    c
}
