! Tests: LOCK/UNLOCK (Fortran 2018 11.6.10) and CRITICAL: ACQUIRED_LOCK=, STAT_LOCKED,
! STAT_UNLOCKED (0 in gfortran, so told from success by ERRMSG=), STAT_LOCKED_OTHER_IMAGE,
! lock arrays, an allocatable lock coarray, and a counter on image 1 updated under contention
! from every image, guarded by a lock and by a CRITICAL construct (exact totals).
! test: images 1 2 3 4
! test: scalable
! test: count {n} PASS
program locks_test
  use iso_fortran_env, only: lock_type, stat_locked, stat_unlocked, stat_locked_other_image
  implicit none
  integer, parameter :: k = 300
  type(lock_type) :: l[*], la(3)[*]
  type(lock_type), allocatable :: ld(:)[:]
  integer :: counter[*], crit[*]
  integer :: me, n, right, st, i, tmp
  logical :: got
  character(len=80) :: msg

  me = this_image()
  n = num_images()
  right = mod(me, n) + 1
  counter = 0
  crit = 0

  ! Own lock: STAT_LOCKED on a second LOCK, STAT_UNLOCKED on a second UNLOCK.
  lock(l, stat=st)
  call check(st == 0, 'lock')
  msg = 'untouched'
  lock(l, stat=st, errmsg=msg)
  call check(st == stat_locked .and. msg /= 'untouched', 'STAT_LOCKED')
  unlock(l, stat=st)
  call check(st == 0, 'unlock')
  msg = 'untouched'
  unlock(l, stat=st, errmsg=msg)
  call check(st == stat_unlocked .and. msg /= 'untouched', 'STAT_UNLOCKED (errmsg set)')
  lock(l, acquired_lock=got)
  call check(got, 'acquired_lock of a free lock')
  unlock(l)
  sync all

  ! Image 1 holds the lock of image n; the others see it taken.
  if (me == 1) lock(l[n])
  sync all
  if (me /= 1) then
    lock(l[n], acquired_lock=got, stat=st)
    call check(st == 0 .and. .not. got, 'acquired_lock of a lock held by image 1')
    unlock(l[n], stat=st)
    call check(st == stat_locked_other_image, 'STAT_LOCKED_OTHER_IMAGE')
  end if
  sync all
  if (me == 1) unlock(l[n])
  sync all
  if (me == n) then
    lock(l[n], acquired_lock=got)
    call check(got, 'acquired_lock after the holder released it')
    unlock(l[n])
  end if

  ! Lock arrays: la(2) of the right neighbour, la(3) of image 1.
  lock(la(2)[right])
  unlock(la(2)[right], stat=st)
  call check(st == 0, 'lock array element')
  do i = 1, 3
    lock(la(3)[1])
    ! (through a temporary: gfortran 15 reads a coindexed reference on the right of an assignment
    ! to a coindexed variable from this image instead; docs/ARCHITECTURE.md, ABI limits)
    tmp = counter[1]
    counter[1] = tmp + 1
    unlock(la(3)[1])
  end do

  ! An allocatable lock coarray.
  allocate(ld(2)[*])
  lock(ld(2)[right], stat=st)
  call check(st == 0, 'allocatable lock')
  lock(ld(2)[right], stat=st)
  call check(st == stat_locked, 'allocatable lock: STAT_LOCKED')
  unlock(ld(2)[right])
  sync all
  deallocate(ld)

  ! Contention: a plain remote counter guarded by a lock, and by CRITICAL.
  do i = 1, k
    lock(l[1])
    tmp = counter[1]
    counter[1] = tmp + 1
    unlock(l[1])
    critical
      tmp = crit[1]
      crit[1] = tmp + 1
    end critical
  end do
  sync all
  if (me == 1) then
    call check(counter == n * (k + 3), 'counter guarded by a lock')
    call check(crit == n * k, 'counter guarded by critical')
  end if

  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program locks_test
