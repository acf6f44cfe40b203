! Tests: DEALLOCATE of an unallocated coarray is caught by gfortran's own generated code before
! the runtime is called: with STAT= a non-zero stat, without it libgfortran's message; the job
! then ends with a non-zero status (the supervisor reports the image that ended).
! test: images 2
! test: exit nonzero
! test: stderr Attempt to DEALLOCATE unallocated
! test: forbid got past
! test: timeout 20
program bad_input_dealloc_fatal
  implicit none
  real, allocatable :: z(:)[:]
  integer :: st
  deallocate (z, stat=st)
  if (st == 0) error stop 'DEALLOCATE of an unallocated coarray gave stat 0'
  deallocate (z)
  print *, 'got past'
end program bad_input_dealloc_fatal
