! Tests: DEALLOCATE of a coarray without STAT= after another image stopped is error termination
! whose message names DEALLOCATE, the statement the program wrote (gfortran 12 follows ALLOCATE
! with a SYNC ALL of its own, which the message must not name).
! test: images 2 3
! test: exit nonzero
! test: stderr has stopped (DEALLOCATE)
! test: forbid SYNC ALL
! test: forbid FAIL
! test: timeout 30
program deallocate_stopped_image_fatal
  use iso_fortran_env, only: stat_stopped_image
  implicit none
  integer, allocatable :: a(:)[:]
  integer :: n
  n = num_images()
  allocate(a(4)[*])
  if (this_image() == n) stop
  do while (image_status(n) /= stat_stopped_image)
  end do
  deallocate(a)
  print '(a)', 'FAIL: DEALLOCATE returned'
end program deallocate_stopped_image_fatal
