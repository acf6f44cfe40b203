//! Registering and freeing coarray memory (what ALLOCATE and DEALLOCATE of coarrays mean).

use super::registry::{HeapKind, RegKind, Token};
use super::Runtime;
use crate::error::{CafError, CafResult};

use crate::engine::{event, lock::SLOT as LOCK_SLOT};

/// gfortran's `caf_register_t`, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Register {
    /// 0: a static coarray of `size` bytes (collective).
    Static,
    /// 1: an allocatable coarray of `size` bytes (collective); its descriptor is recorded.
    Coarray,
    /// 2, 3 and 4: `size` locks (collective).
    Lock,
    /// 5 and 6: `size` events (collective).
    Event,
    /// 7: a token for an allocatable component, no memory.
    TokenOnly,
    /// 8: memory for a token registered earlier with `TokenOnly` (this image only).
    MemoryOnly,
    /// 9 (gfortran 16): a new token for part of an existing token's memory (an ASSOCIATE or
    /// CHANGE TEAM name associated with a coarray), see [`Runtime::map_existing`].
    MapExisting,
}

impl Register {
    /// Decodes gfortran's register type.
    pub fn from_code(t: i32) -> CafResult<Register> {
        Ok(match t {
            0 => Register::Static,
            1 => Register::Coarray,
            2..=4 => Register::Lock,
            5 | 6 => Register::Event,
            7 => Register::TokenOnly,
            8 => Register::MemoryOnly,
            9 => Register::MapExisting,
            _ => {
                return Err(CafError::InvalidArgument(format!(
                    "unknown coarray register type {t}"
                )))
            }
        })
    }
}

impl Runtime {
    /// Registers coarray memory. `token` is the existing token for `MemoryOnly`, else ignored.
    /// `desc` is the address of the coarray's descriptor, whose base address END TEAM clears when
    /// it deallocates the coarray (0 if none); `plain`: its type is intrinsic (`Token::plain`).
    /// Returns the token address and the local address of this image's memory.
    ///
    /// # Safety
    /// `token` is null or a token created by this runtime and not yet freed; `desc` is 0 or
    /// stays valid while the coarray is allocated (for `Coarray`: it is the allocatable coarray
    /// variable itself).
    pub unsafe fn register(
        &self,
        size: usize,
        how: Register,
        token: *mut Token,
        desc: usize,
        plain: bool,
    ) -> CafResult<(*mut Token, usize)> {
        // gfortran 12 registers with COARRAY_ALLOC (collective!) when intrinsic assignment
        // allocates an unallocated allocatable component (`x%b = [...]`) on one image; the slot
        // then holds that component's token. Serving it from the symmetric heap would make the
        // images' heaps diverge, so it is a component allocation.
        if how == Register::Coarray && self.registry.is_component(token as usize) {
            // SAFETY: forwarded from the caller.
            return unsafe { self.allocate_component(size, token) };
        }
        let (bytes, kind) = match how {
            Register::Static | Register::Coarray => (size, RegKind::Coarray),
            Register::Lock => (size.saturating_mul(LOCK_SLOT), RegKind::Lock),
            Register::Event => (event::bytes(size), RegKind::Event),
            Register::TokenOnly => {
                return Ok((self.component_token(), 0));
            }
            // SAFETY: forwarded from the caller.
            Register::MemoryOnly => return unsafe { self.allocate_component(size, token) },
            Register::MapExisting => {
                return Err(CafError::InvalidArgument(
                    "register type 9 needs the associated data's address (map_existing)".into(),
                ))
            }
        };
        let off = Runtime::heap(&self.sym).alloc(bytes)?;
        let addr = self.local_addr(off);
        if kind != RegKind::Coarray {
            // SAFETY: the block [off, off+bytes) was just allocated in this image's segment.
            unsafe { std::ptr::write_bytes(addr as *mut u8, 0, bytes) };
        }
        let t = Box::into_raw(Box::new(Token {
            offset: off,
            size: bytes,
            kind,
            heap: HeapKind::Symmetric,
            desc: if how == Register::Coarray { desc } else { 0 },
            plain,
        }));
        self.registry.insert(off, bytes, t as usize);
        self.team.track(t as usize, desc);
        Ok((t, addr))
    }

    /// MAP_EXISTING (register type 9, gfortran 16): a token for the memory of `token` from
    /// local address `addr` on, which compiled code uses for a name associated with (part of)
    /// that coarray by ASSOCIATE or CHANGE TEAM (Fortran 2018 11.1.3, 11.1.5): coindexed
    /// accesses through the name address the same bytes on the target image. Not collective
    /// and never freed (gfortran 16 emits no deregistration for it); every association of the
    /// same memory gets the same token back. The alias has the memory's heap kind, so that it
    /// is used as the coarray's own token is; the registry knows it is not the owner.
    /// Returns the token address and `addr`.
    ///
    /// # Safety
    /// `token` is null or a token created by this runtime and not yet freed.
    pub unsafe fn map_existing(
        &self,
        token: *mut Token,
        addr: usize,
    ) -> CafResult<(*mut Token, usize)> {
        // SAFETY: guaranteed by the caller.
        let Some(base) = (unsafe { token.as_ref() }) else {
            return Err(CafError::InvalidArgument(
                "associating a coarray that has no token".into(),
            ));
        };
        let start = self.local_addr(base.offset);
        let delta = addr.wrapping_sub(start);
        if base.heap == HeapKind::None || addr < start || delta > base.size {
            return Err(CafError::InvalidArgument(format!(
                "associating address {addr:#x}, which is not in the coarray's memory \
                 ({start:#x}, {} bytes)",
                base.size
            )));
        }
        let fresh = || Token {
            offset: base.offset + delta,
            size: base.size - delta,
            kind: base.kind,
            heap: base.heap,
            desc: 0,
            plain: base.plain,
        };
        let alias = self.registry.alias((token as usize, delta), || {
            Box::into_raw(Box::new(fresh())) as usize
        }) as *mut Token;
        // SAFETY: alias tokens are leaked Boxes that only this function writes; the refresh
        // matters only if `token`'s memory was reallocated since the alias was made.
        unsafe { *alias = fresh() };
        Ok((alias, addr))
    }

    /// Allocates this image's memory for an allocatable component's token.
    ///
    /// # Safety
    /// As for [`Runtime::register`].
    unsafe fn allocate_component(
        &self,
        size: usize,
        token: *mut Token,
    ) -> CafResult<(*mut Token, usize)> {
        let token = if self.registry.is_component(token as usize) {
            token
        } else {
            self.component_token()
        };
        let off = Runtime::heap(&self.local).alloc(size)?;
        // SAFETY: `token` is a live component token of this runtime (checked above).
        let t = unsafe { &mut *token };
        t.offset = off;
        t.size = size;
        t.heap = HeapKind::Local;
        Ok((token, self.local_addr(off)))
    }

    /// A new component token without memory (register type 7).
    fn component_token(&self) -> *mut Token {
        let t = Box::into_raw(Box::new(Token {
            offset: 0,
            size: 0,
            kind: RegKind::Component,
            heap: HeapKind::None,
            desc: 0,
            plain: false,
        }));
        self.registry.add_component(t as usize);
        t
    }

    /// Frees a registration. `keep_token` is gfortran's DEALLOCATE_ONLY (components). Symmetric
    /// memory is freed only after every image has arrived (DEALLOCATE synchronises all images).
    ///
    /// # Safety
    /// As for [`Runtime::register`]; after a full deregistration the token is freed.
    pub unsafe fn deregister(&self, token: *mut Token, keep_token: bool) -> CafResult<()> {
        if token.is_null() {
            return Err(CafError::InvalidArgument(
                "deallocating a coarray that is not allocated".into(),
            ));
        }
        if self.registry.is_alias(token as usize) {
            // Shared by every association of the same memory, which it does not own (see
            // map_existing).
            return Ok(());
        }
        // SAFETY: non-null tokens passed back by compiled code are ones this runtime created.
        let t = unsafe { &mut *token };
        match t.heap {
            HeapKind::Symmetric => {
                self.team.untrack(token as usize)?;
                self.barrier.sync(self.tp, &self.waiter, &self.team)?;
                Runtime::heap(&self.sym).free(t.offset);
                self.registry.remove(t.offset);
            }
            HeapKind::Local => {
                Runtime::heap(&self.local).free(t.offset);
            }
            HeapKind::None if keep_token => {
                return Err(CafError::InvalidArgument(
                    "deallocating a component that is not allocated".into(),
                ));
            }
            HeapKind::None => {}
            HeapKind::Caller | HeapKind::CallerOn(_) => {
                return Err(CafError::InvalidArgument(
                    "deallocating through an accessor's add_data token".into(),
                ))
            }
        }
        t.heap = HeapKind::None;
        t.size = 0;
        if !keep_token {
            self.registry.remove_component(token as usize);
            // SAFETY: the token was created by Box::into_raw in `register` and compiled code
            // forgets it after this call (gfortran nulls its token variable).
            drop(unsafe { Box::from_raw(token) });
        }
        Ok(())
    }
}
