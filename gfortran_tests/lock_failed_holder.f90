! Tests: a lock whose holder fails (FAIL IMAGE) does not hang its waiters. Exactly one LOCK
! (the next in line) reports STAT_FAILED_IMAGE (gfortran 12's iso_fortran_env has no
! STAT_UNLOCKED_FAILED_IMAGE) and leaves the lock unlocked; every waiter then acquires it in
! turn. LOCK with ACQUIRED_LOCK= on a lock held by a failed image does the same.
! test: images 3 4
! test: count 1 DONE PASS
! test: forbid FAIL on
program lock_failed_holder
  use iso_fortran_env, only: lock_type, stat_failed_image, atomic_int_kind
  implicit none
  type(lock_type) :: lk[*], lk2[*]
  integer(atomic_int_kind) :: failures[*], count[*]
  integer :: me, n, st, i
  integer(atomic_int_kind) :: f, c
  logical :: got

  me = this_image(); n = num_images()
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
    call check(st == stat_failed_image .and. i == 1, 'LOCK: unexpected stat')
    call atomic_add(failures[1], 1)
  end do
  call atomic_add(count[1], 1)
  unlock(lk[1])

  if (me == 1) then
    lock(lk2[1], acquired_lock=got, stat=st)
    call check(st == stat_failed_image, 'ACQUIRED_LOCK: stat is not STAT_FAILED_IMAGE')
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

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (ok) return
    print '(a,i0,2a)', 'FAIL on image ', this_image(), ': ', what
    error stop 1
  end subroutine check

end program lock_failed_holder
