! Tests: a section of a remote allocatable component outside its bounds is an error naming the
! subscript and the bounds (the runtime reads the remote descriptor), not a wild read.
! test: images 2
! test: gfortran <= 14
! test: exit nonzero
! test: stderr subscript 11 is out of bounds (1:10)
! test: forbid got past
! test: forbid panicked
! test: timeout 20
program component_out_of_bounds
  implicit none
  type :: box
    integer, allocatable :: v(:)
  end type box
  type(box) :: x[*]
  integer :: got(3), hi
  allocate (x%v(10))
  x%v = 1
  hi = 12
  sync all
  if (this_image() == 1) then
    got = x[2]%v(hi - 2:hi)
    print *, 'got past the out-of-bounds read', got
  end if
  sync all
end program component_out_of_bounds
