! Tests: CO_BROADCAST and allocatable components. Broadcasting the whole object is miscompiled
! by gfortran 12 (it broadcasts component by component through descriptors whose span it leaves
! uninitialised, re-broadcasts nested structures raw, and crashes on two such calls in one
! program unit; see docs/ARCHITECTURE.md, "ABI limits"), so this tests the reliable way: the
! program broadcasts the components itself, into memory each image allocated with the source's
! shape. A component that is not allocated on a receiver gives an error through STAT=, not a
! crash, and the collective stays matched on every image.
! test: images 1 2 4
! test: count {n} PASS
program co_broadcast_alloc_comp
  implicit none
  type :: outer
    integer :: id
    integer, allocatable :: v(:)
    real(8), allocatable :: m(:, :)
  end type outer
  type(outer) :: x, y
  integer :: me, n, src, st

  me = this_image()
  n = num_images()
  src = n

  x%id = me
  allocate(x%v(3), x%m(2, 2))
  x%v = me * [1, 2, 3]
  x%m = reshape([me, -me, 2 * me, 0], [2, 2])
  call co_broadcast(x%id, src)
  call co_broadcast(x%v, src)
  call co_broadcast(x%m, src)
  call check(x%id == src .and. all(x%v == src * [1, 2, 3]), 'allocatable rank-1 component')
  call check(all(x%m == reshape([src, -src, 2 * src, 0], [2, 2])), 'allocatable rank-2 component')
  deallocate(x%v, x%m)

  if (me == 1) then
    allocate(y%v(2))
    y%v = [7, 8]
  end if
  call co_broadcast(y%v, 1, stat=st)
  if (me == 1) call check(st == 0 .and. all(y%v == [7, 8]), 'source keeps its data')
  if (me /= 1) call check(st /= 0, 'unallocated component on a receiver: stat')
  y%id = me
  call co_broadcast(y%id, 1)
  call check(y%id == 1, 'the next collective still matches')

  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program co_broadcast_alloc_comp
