! gfortran 12 allocates an unallocated allocatable component on intrinsic assignment
! (x%b = [...]) with a COLLECTIVE register call, on one image only. The runtime must serve it
! from that image's local heap, or later coarray allocations land at different offsets on
! different images (checked by a coindexed exchange).
! test: images 2 3
! test: stdout PASS
program rc
  implicit none
  type t
    integer, allocatable :: b(:)
  end type
  type(t) :: x[*]
  real(8), allocatable :: z(:)[:]
  integer :: me
  me = this_image()
  ! image 1 alone allocates a component by assignment; then every image allocates a coarray,
  ! which must get the same offset everywhere (checked by a coindexed exchange).
  if (me == 1) x%b = [1, 2, 3]
  allocate(z(10)[*])
  z = me
  sync all
  if (z(3)[merge(1, me + 1, me == num_images())] /= merge(1, me + 1, me == num_images())) error stop 1
  if (me == 1) then
    if (any(x%b /= [1,2,3])) error stop 2
  end if
  sync all
  if (me == 1) print *, 'PASS'
end program
