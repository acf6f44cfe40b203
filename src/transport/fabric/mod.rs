//! The libfabric transport (feature `fabric`): every image's segment registered once with the
//! provider, puts and gets as `fi_writemsg`/`fi_readmsg` (strided sections as iov batches), atomics
//! as `fi_fetch_atomic`/`fi_compare_atomic`, notifications as 64-byte sends, and notified puts
//! as one `fi_writedata` whose immediate data names the source and the tag, and puts into
//! memory attached to the image's counted event as counted puts (`count.rs`). GCC 15+ accessors
//! run on the owner of their object: requests and replies as sends in pieces (`calls.rs`).
//!
//! Bootstrap through the launcher's PMIx server (`boot.rs`); the provider is the first that
//! `fi_getinfo` offers for reliable datagram endpoints with RMA, atomics and messages
//! (`FI_PROVIDER` narrows the choice as usual). All libfabric calls go through a C shim
//! (`shim.c`), one thread at a time under the endpoint lock.
//!
//! Completion. Writes and sends ask for `FI_DELIVERY_COMPLETE` and are waited for before the
//! call returns, so data is visible at the target when `copy` returns and a notification sent
//! after it is in the target's completion queue before its sender continues. Every atomic on
//! any image's words, its owner's included, goes through the provider (its atomics are atomic
//! only among themselves); the owner waits on its words with plain loads after driving
//! progress. Only the own segment is mapped (`direct`); `can_wake` is false and waits poll,
//! calling [`Transport::progress`], which drives the provider and collects arrivals.

mod boot;
mod calls;
mod count;
mod ffi;
mod imm;
mod pause;
mod pump;
mod regions;
mod rma;

use super::one_sided;
use super::owner::OwnerCalls;
use super::wire::{decode, encode, WORDS};
use super::{AtomicOp, CopyPlan, Full, Notification, Place, Transport};
use calls::Calls;
use count::Counting;
pub use ffi::providers;
use ffi::{check, Ff, Iov, SLOT};
use pump::Pump;
use rma::Mark;
use std::collections::VecDeque;
use std::ffi::{c_int, c_void, CStr};
use std::sync::atomic::{fence, Ordering};
use std::sync::{Mutex, MutexGuard, Once, OnceLock};

/// Bytes reserved for an endpoint name.
const NAME: usize = 256;

/// The endpoint, the notifications collected from it but not yet drained, and the owner-side
/// calls' messages collected from it.
pub(super) struct Ep {
    ff: *mut Ff,
    arrived: VecDeque<Notification>,
    calls: Calls,
}

// SAFETY: the shim's state is used by one thread at a time, under the Mutex that owns it.
unsafe impl Send for Ep {}

/// How notified puts travel (`FERROCAF_FABRIC_NOTIFY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotifyPath {
    /// As `Immediate`, except that puts into memory attached to the image's counted event
    /// (the first event attached) are counted puts: one write to the target's counting
    /// endpoint, whose remote-write counter (FI_RMA_EVENT) is the posts' count. Needs a
    /// provider with FI_RMA_EVENT, else it is `Immediate`.
    Counting,
    /// One `fi_writedata`: data and notification in one network transaction.
    Immediate,
    /// A write, the wait for its completion, then a separate notification message.
    Emulated,
}

impl NotifyPath {
    /// Parses `counting`, `immediate` or `emulated`.
    pub fn parse(s: &str) -> Option<NotifyPath> {
        match s.trim() {
            "counting" => Some(NotifyPath::Counting),
            "immediate" => Some(NotifyPath::Immediate),
            "emulated" => Some(NotifyPath::Emulated),
            _ => None,
        }
    }
}

/// The fabric transport of one image.
pub struct Fabric {
    ep: Mutex<Ep>,
    me: usize,
    n: usize,
    /// This image's segment (mapped here; peers reach it through the provider).
    seg: usize,
    /// Every image's segment address in its own process.
    homes: Vec<usize>,
    /// Every image's remote key.
    keys: Vec<u64>,
    /// Remote addresses are virtual addresses (FI_MR_VIRT_ADDR), else segment offsets.
    virt: bool,
    /// Remote pieces per RMA operation.
    limit: usize,
    path: NotifyPath,
    /// Counted puts (every image has a counting endpoint), when `path` is `Counting`.
    count: Counting,
    /// The provider progresses data by itself (FI_PROGRESS_AUTO): no progress thread.
    auto: bool,
    provider: String,
    pump: OnceLock<Pump>,
    finished: Once,
}

impl Fabric {
    /// Joins the job through PMIx, maps and registers a segment of `sizes(n).1` bytes (the
    /// first `sizes(n).0`, the control block, zero), opens the endpoint and learns every
    /// image's address; notified puts take `path` (immediate needs 8 bytes of immediate data,
    /// counting a provider with FI_RMA_EVENT; else the next path down).
    pub fn init(
        sizes: impl Fn(usize) -> (usize, usize),
        path: NotifyPath,
    ) -> Result<Fabric, String> {
        let (me, n) = boot::init()?;
        let seg_len = sizes(n).1;
        let seg = map(seg_len)?;
        let (mut ff, mut name, mut len) = (std::ptr::null_mut(), [0u8; NAME], NAME);
        let (mut cname, mut clen) = ([0u8; NAME], NAME);
        // SAFETY: `seg` is `seg_len` bytes mapped for the life of the process; the out-pointers
        // are valid and `name` and `cname` hold `len` and `clen` bytes.
        let rc = unsafe {
            ffi::ff_open(
                &mut ff,
                seg as *mut c_void,
                seg_len,
                name.as_mut_ptr().cast(),
                &mut len,
                c_int::from(path == NotifyPath::Counting),
                cname.as_mut_ptr().cast(),
                &mut clen,
                pause::pause,
            )
        };
        if rc < 0 {
            let want = std::env::var("FI_PROVIDER")
                .map_or(String::new(), |p| format!(" (FI_PROVIDER={p})"));
            return Err(format!(
                "no libfabric provider{want} gives reliable datagram endpoints with RMA, atomics \
                 and messages here: {}",
                ffi::strerror(rc)
            ));
        }
        // SAFETY: `ff` is open.
        unsafe { regions::keep(ff) };
        // SAFETY: `ff` is open; the provider name is a NUL-terminated string it owns.
        let provider = unsafe { CStr::from_ptr(ffi::ff_provider(ff)) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: an open endpoint.
        if unsafe { ffi::ff_atomics_valid(ff) } == 0 {
            return Err(format!(
                "the libfabric provider {provider} lacks fetching atomics or compare-and-swap on \
                 4- and 8-byte words; choose another with FI_PROVIDER"
            ));
        }
        // SAFETY: an open endpoint.
        let (key, virt, limit, data, auto) = unsafe {
            (
                ffi::ff_key(ff),
                ffi::ff_virt_addr(ff) != 0,
                ffi::ff_iov_limit(ff).max(1),
                ffi::ff_cq_data_size(ff),
                ffi::ff_auto_progress(ff) != 0,
            )
        };
        let mut card = Vec::with_capacity(32 + 2 * NAME);
        for w in [len as u64, key, seg as u64, clen as u64] {
            card.extend_from_slice(&w.to_ne_bytes());
        }
        card.extend_from_slice(&name);
        card.extend_from_slice(&cname);
        let cards = boot::exchange(&card, n)?;
        let word = |c: &[u8], k: usize| {
            u64::from_ne_bytes(c[8 * k..8 * k + 8].try_into().expect("8 bytes"))
        };
        let mut names = Vec::with_capacity(n * len);
        for c in &cards {
            if word(c, 0) as usize != len {
                return Err(
                    "the images' libfabric endpoint names differ in length (different providers?)"
                        .into(),
                );
            }
            names.extend_from_slice(&c[32..32 + len]);
        }
        // Counted puts need every image's counting endpoint (all run the same provider and
        // settings, so all have one or none); its names follow the main endpoints'.
        let counting = clen > 0 && cards.iter().all(|c| word(c, 3) as usize == clen);
        if counting {
            for c in &cards {
                names.extend_from_slice(&c[32 + NAME..32 + NAME + clen]);
            }
        }
        let k = if counting { 2 * n } else { n };
        let path = match path {
            NotifyPath::Counting if counting => NotifyPath::Counting,
            NotifyPath::Counting | NotifyPath::Immediate if data >= 8 => NotifyPath::Immediate,
            _ => NotifyPath::Emulated,
        };
        // SAFETY: `names` holds k names of `len` bytes (a counting endpoint's name has the
        // main endpoint's length: same provider), in image order.
        let rc = unsafe { ffi::ff_insert(ff, names.as_ptr().cast(), len, n, k) };
        regions::know_peers(&names, len);
        if rc < 0 {
            return Err(format!("fi_av_insert failed: {}", ffi::strerror(rc)));
        }
        boot::fence(false)?;
        crate::sys::proc::tight_timer_slack();
        if n > 1 {
            // No image maps another's segment: accessors run on their owners (`calls.rs`).
            super::owner::set_serving();
        }
        Ok(Fabric {
            ep: Mutex::new(Ep {
                ff,
                arrived: VecDeque::new(),
                calls: Calls::default(),
            }),
            me,
            n,
            seg,
            homes: cards.iter().map(|c| word(c, 2) as usize).collect(),
            keys: cards.iter().map(|c| word(c, 1)).collect(),
            virt,
            limit,
            path,
            count: Counting::new(path == NotifyPath::Counting),
            auto,
            provider,
            pump: OnceLock::new(),
            finished: Once::new(),
        })
    }

    /// The provider in use (`tcp;ofi_rxm`, `shm`, ...).
    pub fn provider(&self) -> &str {
        &self.provider
    }

    /// How notified puts travel.
    pub fn notify_path(&self) -> NotifyPath {
        self.path
    }

    /// Starts the progress thread (`pump`) if the provider's data progress is manual.
    pub fn start_progress(&'static self) {
        if self.auto {
            return;
        }
        self.pump.get_or_init(|| {
            Pump::start(move || {
                if let Ok(mut ep) = self.ep.try_lock() {
                    self.collect(&mut ep);
                }
            })
        });
    }

    /// The endpoint, locked.
    pub(super) fn lock(&self) -> MutexGuard<'_, Ep> {
        self.ep.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The remote address of byte `offset` of `image`'s segment.
    fn addr(&self, image: usize, offset: usize) -> u64 {
        if self.virt {
            (self.homes[image] + offset) as u64
        } else {
            offset as u64
        }
    }

    /// Drives the provider and moves every arrival from the completion queue: notifications
    /// (messages, immediate data of notified puts) to `ep.arrived`, the pieces of owner-side
    /// calls to `ep.calls`.
    fn collect(&self, ep: &mut Ep) {
        if self.count.on() {
            // Reading the counter progresses the counting endpoint (puts into this image).
            // SAFETY: an open endpoint.
            unsafe { ffi::ff_counted(ep.ff) };
        }
        let mut msg = [0u64; SLOT / 8];
        loop {
            let (mut len, mut data) = (0usize, 0u64);
            // SAFETY: an open endpoint; `msg` holds the SLOT bytes a message may fill.
            let rc =
                unsafe { ffi::ff_receive(ep.ff, msg.as_mut_ptr().cast(), &mut len, &mut data) };
            match check(rc, "fi_cq_read") {
                0 => return,
                1 if calls::is_piece(&msg, len) => ep.calls.take(&msg, len),
                1 => {
                    let cell = msg[..WORDS].try_into().expect("a cell's words");
                    ep.arrived.push_back(decode(cell));
                }
                _ => ep.arrived.push_back(imm::decode(data)),
            }
        }
    }

    /// Sends notification `n` to another image and waits until it is delivered.
    fn send(&self, ep: &mut Ep, image: usize, n: &Notification) {
        let cell = encode(n);
        // SAFETY: an open endpoint; `cell` stays alive until the send is waited for below.
        check(
            unsafe { ffi::ff_send(ep.ff, image, cell.as_ptr().cast(), size_of_val(&cell)) },
            "fi_sendmsg",
        );
        self.wait(ep);
    }

    /// One fetching atomic or compare-and-swap through the provider.
    fn atomic(&self, image: usize, offset: usize, width: usize, op: Rmw) -> u64 {
        let (addr, key, w) = (self.addr(image, offset), self.keys[image], width as c_int);
        let mut old = 0u64;
        let ep = self.lock();
        // SAFETY: an open endpoint; operands and result are 8-byte words, of which the
        // provider uses the first `width` bytes (little-endian: the low half); the word lies
        // inside `image`'s registered segment.
        let rc = unsafe {
            match op {
                Rmw::Op(k, v) => ffi::ff_fetch(
                    ep.ff,
                    image,
                    addr,
                    key,
                    w,
                    k,
                    (&v as *const u64).cast(),
                    (&mut old as *mut u64).cast(),
                ),
                Rmw::Cas(e, v) => ffi::ff_cswap(
                    ep.ff,
                    image,
                    addr,
                    key,
                    w,
                    (&e as *const u64).cast(),
                    (&v as *const u64).cast(),
                    (&mut old as *mut u64).cast(),
                ),
            }
        };
        check(rc, "fi_fetch_atomic");
        if width == 4 {
            old & 0xffff_ffff
        } else {
            old
        }
    }
}

/// A remote read-modify-write; a fetching operation is an index into the shim's table.
type Rmw = one_sided::Rmw<c_int>;

/// Maps `len` bytes of zeroed memory for the segment.
fn map(len: usize) -> Result<usize, String> {
    // SAFETY: an anonymous private mapping; no existing memory is affected.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(format!(
            "cannot map the {len}-byte segment: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(p as usize)
}

impl Transport for Fabric {
    fn num_images(&self) -> usize {
        self.n
    }

    fn this_image(&self) -> usize {
        self.me
    }

    fn copy(&self, dst: Place, src: Place, plan: &CopyPlan) {
        one_sided::copy(self, dst, src, plan, |put, local, image, offset, plan| {
            self.rma(put, local, image, offset, plan)
        });
    }

    fn fetch_op(&self, image: usize, offset: usize, width: usize, op: AtomicOp, v: u64) -> u64 {
        let k = match op {
            AtomicOp::Add => 0,
            AtomicOp::And => 1,
            AtomicOp::Or => 2,
            AtomicOp::Xor => 3,
            AtomicOp::Swap => 4,
            AtomicOp::Load => 5,
        };
        self.atomic(image, offset, width, Rmw::Op(k, v))
    }

    fn compare_swap(&self, image: usize, offset: usize, width: usize, exp: u64, new: u64) -> u64 {
        self.atomic(image, offset, width, Rmw::Cas(exp, new))
    }

    /// Every put was complete at its target when it returned.
    fn fence(&self) {
        fence(Ordering::SeqCst);
    }

    fn ring(&self, _image: usize) {}

    fn direct(&self, image: usize, offset: usize) -> Option<usize> {
        (image == self.me).then_some(self.seg + offset)
    }

    fn notify(&self, image: usize, n: &Notification) -> Result<(), Full> {
        let mut ep = self.lock();
        if image == self.me {
            ep.arrived.push_back(*n);
        } else {
            self.send(&mut ep, image, n);
        }
        Ok(())
    }

    /// Every notification sent to this image before an image control statement that ordered
    /// it before this drain was delivered (its sender waited for delivery), so it is in the
    /// completion queue or already collected.
    fn drain(&self, f: &mut dyn FnMut(Notification)) {
        let arrived = {
            let mut ep = self.lock();
            self.collect(&mut ep);
            std::mem::take(&mut ep.arrived)
        };
        arrived.into_iter().for_each(f);
    }

    /// One `fi_writedata` carrying `(source, tag)` as immediate data, or with
    /// `FERROCAF_FABRIC_NOTIFY=emulated` a write, its completion, and a notification message.
    fn put_notified(&self, image: usize, offset: usize, src: usize, n: usize, tag: u64) -> bool {
        let Some(data) = imm::encode(self.me as u32, tag) else {
            return false;
        };
        let mut ep = self.lock();
        if image == self.me {
            // SAFETY: `src` is readable for `n` bytes (caller) and the destination lies in
            // this image's segment; `copy` allows overlap.
            unsafe { std::ptr::copy(src as *const u8, (self.seg + offset) as *mut u8, n) };
            ep.arrived.push_back(imm::decode(data));
            return true;
        }
        let l = [Iov { base: src, len: n }];
        let r = [self.piece(image, offset, n)];
        match self.path {
            NotifyPath::Counting | NotifyPath::Immediate => {
                self.post(&mut ep, true, image, &l, &r, Mark::Data(data));
                self.wait(&mut ep);
            }
            NotifyPath::Emulated => {
                self.post(&mut ep, true, image, &l, &r, Mark::Plain);
                self.wait(&mut ep);
                self.send(&mut ep, image, &imm::decode(data));
            }
        }
        true
    }

    fn attach_event(&self, slot: usize) {
        self.count.attach(slot);
    }

    fn counts(&self) -> bool {
        self.count.on()
    }

    /// One `fi_write` to the target's counting endpoint.
    fn put_counted(&self, image: usize, offset: usize, src: usize, n: usize, slot: usize) -> bool {
        self.counted_put(image, offset, src, n, slot)
    }

    fn counted(&self, slot: usize) -> Option<u64> {
        self.count
            .is(slot)
            .then(|| self.count.available(self.arrived_count()))
    }

    fn take_counted(&self, slot: usize, k: u64) {
        if self.count.is(slot) {
            self.count.take(k);
        }
    }

    fn can_wake(&self) -> bool {
        false
    }

    /// Also serves the owner-side calls that have arrived (`calls.rs`).
    fn progress(&self) {
        let asked = {
            let mut ep = self.lock();
            self.collect(&mut ep);
            ep.calls.asked()
        };
        fence(Ordering::SeqCst);
        if asked {
            self.serve_calls();
        }
    }

    fn home(&self, image: usize) -> usize {
        self.homes[image]
    }

    fn collective_exit(&self) -> bool {
        true
    }

    /// Waits (through the launcher) until every image is done with every other's memory,
    /// then closes the endpoint and leaves PMIx.
    fn finish(&self) {
        self.finished.call_once(|| {
            // The progress thread keeps serving the peers' last accesses (their waits for
            // this image's termination) until all have arrived.
            let result = boot::fence(false);
            if let Some(p) = self.pump.get() {
                p.stop();
            }
            let ep = self.lock();
            // SAFETY: every image has passed the fence: nothing uses the endpoint any more.
            unsafe { ffi::ff_close(ep.ff) };
            if let Err(e) = result.and_then(|()| boot::finalize()) {
                panic!("{e}");
            }
        });
    }

    /// Unlinks the job's shm regions (`regions.rs`), then asks the launcher to end the job.
    fn abort_job(&self, code: i32) {
        regions::unlink_job();
        boot::abort(code);
    }

    fn owner_calls(&self) -> Option<&dyn OwnerCalls> {
        Some(self)
    }
}
