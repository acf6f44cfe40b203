! Tests: a pointer component associated with ordinary (non-coarray) memory of its image cannot
! be read from another image. gfortran 15+ compiles x[2]%p into an accessor that this image runs
! against image 2's memory; the pointer it hands back is image 2's private address, which is
! recognised as outside every image's coarray memory: an error naming the image, not a wild
! read of whatever this image has at that address.
! test: images 2
! test: gfortran >= 15
! test: exit nonzero
! test: stderr leads outside image 2's coarray memory
! test: forbid got past
! test: forbid panicked
! test: timeout 20
program accessor_outside_pointer
  implicit none
  type :: box
    integer, pointer :: p => null()
  end type box
  type(box) :: x[*]
  integer, target, save :: mine
  integer :: got
  mine = 40 + this_image()
  x%p => mine
  sync all
  if (this_image() == 1) then
    got = x[2]%p
    print *, 'got past the read of private memory', got
  end if
  sync all
end program accessor_outside_pointer
