! Tests: ALLOCATE of a coarray without STAT= after another image stopped is error termination
! whose message names ALLOCATE, the statement the program wrote (gfortran 12 follows ALLOCATE
! with a SYNC ALL of its own, which the message must not name).
! test: images 2 3
! test: exit nonzero
! test: stderr has stopped (ALLOCATE)
! test: forbid SYNC ALL
! test: forbid FAIL
! test: timeout 30
program allocate_stopped_image_fatal
  use iso_fortran_env, only: stat_stopped_image
  implicit none
  integer, allocatable :: a(:)[:]
  integer :: n
  n = num_images()
  if (this_image() == n) stop
  do while (image_status(n) /= stat_stopped_image)
  end do
  allocate(a(4)[*])
  print '(a)', 'FAIL: ALLOCATE returned'
end program allocate_stopped_image_fatal
