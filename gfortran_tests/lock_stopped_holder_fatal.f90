! Tests: LOCK without STAT= of a lock whose holder stopped is error termination with a clear
! message, not a hang, also when the waiter is the last running image (2 images).
! test: images 2 3
! test: exit nonzero
! test: stderr the lock is held by image
! test: stderr which has stopped
! test: forbid FAIL
! test: timeout 30
program lock_stopped_holder_fatal
  use iso_fortran_env, only: lock_type
  implicit none
  type(lock_type) :: lk[*]
  integer :: me, n

  me = this_image(); n = num_images()
  if (me == n) lock(lk[1])
  sync all
  if (me == n) stop
  lock(lk[1])
  print '(a,i0,a)', 'FAIL on image ', me, ': LOCK returned'
end program lock_stopped_holder_fatal
