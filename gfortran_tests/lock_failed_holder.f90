! Tests: a lock whose holder fails (FAIL IMAGE) does not hang its waiters. Exactly one LOCK
! (the next in line) reports STAT_UNLOCKED_FAILED_IMAGE and leaves the lock unlocked; every
! waiter then acquires it in turn. LOCK with ACQUIRED_LOCK= on a lock held by a failed image
! does the same. No gfortran up to 16 has that constant in iso_fortran_env: programs of
! gfortran 16 get 6002 (GCC 16's libcaf.h), older ones STAT_FAILED_IMAGE.
! test: images 3 4
! test: count 1 DONE PASS
! test: forbid FAIL on
program lock_failed_holder
  use iso_fortran_env, only: lock_type, stat_failed_image, atomic_int_kind, compiler_version
  implicit none
  type(lock_type) :: lk[*], lk2[*]
  integer(atomic_int_kind) :: failures[*], count[*]
  integer :: me, n, st, i, unlocked_failed
  integer(atomic_int_kind) :: f, c
  logical :: got

  me = this_image(); n = num_images()
  unlocked_failed = merge(6002, stat_failed_image, gcc_major() >= 16)
  if (me == 1) then
    failures = 0; count = 0
  end if
  if (me == n) then
    lock(lk[1])
    lock(lk2[1])
  end if
  sync all
  if (me == n) fail image

  do i = 1, 2
    lock(lk[1], stat=st)
    if (st == 0) exit
    call check(st == unlocked_failed .and. i == 1, 'LOCK: unexpected stat')
    call atomic_add(failures[1], 1)
  end do
  call atomic_add(count[1], 1)
  unlock(lk[1])

  if (me == 1) then
    lock(lk2[1], acquired_lock=got, stat=st)
    call check(st == unlocked_failed, 'ACQUIRED_LOCK: stat is not STAT_UNLOCKED_FAILED_IMAGE')
    lock(lk2[1], acquired_lock=got, stat=st)
    call check(st == 0 .and. got, 'ACQUIRED_LOCK: not acquired after the failed holder')
    unlock(lk2[1])
  end if
  sync images ([(i, i = 1, me - 1), (i, i = me + 1, n - 1)])
  if (me == 1) then
    call atomic_ref(f, failures)
    call atomic_ref(c, count)
    call check(f == 1, 'not exactly one LOCK reported the failed holder')
    call check(c == n - 1, 'not every surviving image acquired the lock')
    print '(a)', 'DONE PASS'
  end if

contains

  ! The major version of the gfortran that compiled this program ("GCC version 16.2.0").
  integer function gcc_major()
    character(len=:), allocatable :: v
    integer :: at, dot
    v = compiler_version()
    at = index(v, 'version ') + len('version ')
    dot = index(v(at:), '.')
    read (v(at:at + dot - 2), *) gcc_major
  end function gcc_major

  include 'check.inc'

end program lock_failed_holder
