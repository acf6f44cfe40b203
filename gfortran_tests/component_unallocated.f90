! Tests: reading an allocatable component that is not allocated on the target image is an
! error with a clear message, not a crash or a read through a null pointer.
! test: images 2
! test: exit nonzero
! test: stderr not allocated on image 2
! test: forbid got past
! test: forbid panicked
! test: timeout 20
program component_unallocated
  implicit none
  type :: box
    integer, allocatable :: v(:)
  end type box
  type(box) :: x[*]
  integer :: got(3)
  if (this_image() == 1) allocate (x%v(3))
  sync all
  if (this_image() == 1) then
    got = x[2]%v(1:3)
    print *, 'got past the read of an unallocated component', got
  end if
  sync all
end program component_unallocated
