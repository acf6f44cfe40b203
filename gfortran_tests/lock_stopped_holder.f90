! Tests: a lock whose holder stops (STOP) stays locked, and nobody waits for it forever: every
! LOCK with STAT= that would wait reports STAT_STOPPED_IMAGE, again on a second try, also on
! the last running image (2 images); LOCK with ACQUIRED_LOCK= does not acquire it; other locks
! keep working.
! test: images 2 3 4
! test: stdout PASS
! test: forbid FAIL
! test: timeout 30
program lock_stopped_holder
  use iso_fortran_env, only: lock_type, stat_stopped_image
  implicit none
  type(lock_type) :: lk[*], other[*]
  integer :: me, n, st, i
  logical :: got

  me = this_image(); n = num_images()
  if (me == n) lock(lk[1])
  sync all
  if (me == n) stop

  do i = 1, 2
    lock(lk[1], stat=st)
    call check(st == stat_stopped_image, 'LOCK: stat is not STAT_STOPPED_IMAGE')
  end do
  lock(lk[1], acquired_lock=got, stat=st)
  call check(.not. got, 'ACQUIRED_LOCK: acquired a lock held by a stopped image')
  lock(other[1], stat=st)
  call check(st == 0, 'another lock: stat')
  unlock(other[1])
  sync images ([(i, i = 1, me - 1), (i, i = me + 1, n - 1)])
  print '(a)', 'PASS'

contains

  include 'check.inc'

end program lock_stopped_holder
