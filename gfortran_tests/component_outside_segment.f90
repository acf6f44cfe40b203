! Tests: an allocatable component whose memory is not coarray memory (MOVE_ALLOC from an
! ordinary allocatable gives it the image's private heap) cannot be reached from another image:
! the read is an error naming the image, checked before any access (the pointer is the target's
! own address, never dereferenced here), not a wild read. Where the accessor runs on the owner
! (MPI without a mapping of image 2's memory) the read is valid there and returns image 2's
! values, as the standard asks, so the check needs image 2 mapped: the shared window, on one
! node.
! test: images 2
! test: requires mapped-peers
! test: exit nonzero
! test: stderr leads outside image 2's coarray memory
! test: forbid got past
! test: forbid panicked
! test: timeout 20
program component_outside_segment
  implicit none
  type :: box
    real, allocatable :: v(:)
  end type box
  type(box) :: x[*]
  real, allocatable :: private(:)
  real :: got(3)
  allocate (private(10))
  private = this_image()
  call move_alloc(private, x%v)
  sync all
  if (this_image() == 1) then
    got = x[2]%v(1:3)
    print *, 'got past the read of private memory', got
  end if
  sync all
end program component_outside_segment
