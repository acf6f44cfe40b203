! Tests: eight images hammering image 1: ATOMIC_ADD on one counter, a LOCK-guarded and a
! CRITICAL-guarded plain counter, ATOMIC_CAS as a spin lock, and EVENT POSTs to one event;
! every total must be exact. Also runs with more images than CPUs (waiters must sleep).
! test: images 8
! test: count {n} PASS
! test: timeout 120
program contention_test
  use iso_fortran_env, only: atomic_int_kind, lock_type, event_type
  implicit none
  integer, parameter :: k = 500
  integer(atomic_int_kind) :: cnt[*], spin[*], old
  type(lock_type) :: l[*]
  type(event_type) :: ev[*]
  integer :: locked[*], crit[*], spun[*]
  integer :: me, n, i, tmp

  me = this_image()
  n = num_images()
  cnt = 0
  spin = 0
  locked = 0
  crit = 0
  spun = 0
  sync all

  do i = 1, k
    call atomic_add(cnt[1], 1)
    lock(l[1])
    ! (through a temporary: gfortran 15 reads a coindexed reference on the right of an assignment
    ! to a coindexed variable from this image instead; docs/ARCHITECTURE.md, ABI limits)
    tmp = locked[1]
    locked[1] = tmp + 1
    unlock(l[1])
    critical
      tmp = crit[1]
      crit[1] = tmp + 1
    end critical
    do
      call atomic_cas(spin[1], old, 0, me)
      if (old == 0) exit
    end do
    tmp = spun[1]
    spun[1] = tmp + 1
    call atomic_define(spin[1], 0)
    event post(ev[1])
  end do
  if (me == 1) then
    event wait(ev, until_count=n * k)
  end if
  sync all
  if (me == 1) then
    call atomic_ref(old, cnt)
    call check(old == n * k, 'atomic_add total')
    call check(locked == n * k, 'lock-guarded total')
    call check(crit == n * k, 'critical-guarded total')
    call check(spun == n * k, 'atomic_cas spin-lock-guarded total')
  end if

  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program contention_test
