! Tests: over the MPI transport without the shared window (FERROCAF_MPI_SHM=0), no image maps
! another's memory, and the accessor gfortran 15+ compiles x[2] into cannot run here (it would
! follow image 2's pointers): a one-line error naming the image and what to use instead, not a
! wild read, a panic or a hang.
! test: images 2
! test: gfortran >= 15
! test: requires rma-only
! test: exit nonzero
! test: stderr coindexed access to image 2, whose memory is not mapped in this process
! test: forbid got past
! test: forbid panicked
! test: timeout 20
program accessor_unmapped
  implicit none
  integer :: x[*], got
  x = 40 + this_image()
  sync all
  if (this_image() == 1) then
    got = x[2]
    print *, 'got past the read of unmapped memory', got
  end if
  sync all
end program accessor_unmapped
