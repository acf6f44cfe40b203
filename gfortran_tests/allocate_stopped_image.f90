! Tests: ALLOCATE and DEALLOCATE of a coarray with STAT= after another image stopped report
! STAT_STOPPED_IMAGE (Fortran 2018 9.7.4) and the program goes on; ERRMSG= says which image.
! gfortran 12 ends ALLOCATE with a SYNC ALL that has no STAT=: it must not end the program.
! test: images 2 3
! test: stdout PASS
! test: forbid FAIL
! test: forbid SYNC ALL
! test: timeout 30
program allocate_stopped_image
  use iso_fortran_env, only: stat_stopped_image
  implicit none
  integer, allocatable :: a(:)[:], b(:)[:]
  integer :: me, n, st
  character(80) :: msg

  me = this_image(); n = num_images()
  allocate(b(4)[*])
  if (me == n) stop
  do while (image_status(n) /= stat_stopped_image)
  end do

  msg = ''
  allocate(a(10)[*], stat=st, errmsg=msg)
  call check(st == stat_stopped_image, 'ALLOCATE: stat is not STAT_STOPPED_IMAGE')
  call check(index(msg, 'stopped') > 0, 'ALLOCATE: errmsg '//trim(msg))
  call check(.not. allocated(a), 'ALLOCATE: allocated after the error')
  msg = ''
  deallocate(b, stat=st, errmsg=msg)
  call check(st == stat_stopped_image, 'DEALLOCATE: stat is not STAT_STOPPED_IMAGE')
  call check(index(msg, 'stopped') > 0, 'DEALLOCATE: errmsg '//trim(msg))
  print '(a)', 'PASS'

contains

  include 'check.inc'

end program allocate_stopped_image
