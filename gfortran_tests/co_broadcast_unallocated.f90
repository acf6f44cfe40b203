! Tests: CO_BROADCAST of a derived type whose allocatable components are unallocated on every
! image is a no-op for those components (Fortran 2018 16.9.46: as if by intrinsic assignment,
! which leaves them unallocated), at any image count and from any source image. Where
! intrinsic assignment would have to allocate or deallocate a receiver's argument (gfortran 12
! passes copies of the components' descriptors, so the runtime cannot), or the shapes differ,
! that image gets an error through STAT= and the others none, for values inline in the first
! round (3 elements) and in a second round (100 elements); later collectives still match.
! (gfortran 12 drops STAT= of CO_BROADCAST on a derived type, so only arrays test STAT=.)
! test: images 1 2 4
! test: count {n} PASS
program co_broadcast_unallocated
  implicit none
  type :: box
    integer :: id
    integer, allocatable :: c(:)
    real, allocatable :: s
  end type box
  type(box) :: obj
  integer, allocatable :: v(:)
  integer :: me, n, src, st, k, j

  me = this_image(); n = num_images()
  src = n
  obj%id = me
  call co_broadcast(obj, src)
  call check(obj%id == src, 'id not broadcast')
  call check(.not. allocated(obj%c) .and. .not. allocated(obj%s), 'components allocated')
  obj%id = me
  call co_broadcast(obj, 1)
  call check(obj%id == 1 .and. .not. allocated(obj%c), 'second broadcast of the object')
  call co_broadcast(v, src, stat=st)
  call check(st == 0 .and. .not. allocated(v), 'unallocated everywhere: stat')

  do k = 3, 100, 97
    if (me == src) v = [(i_val(j), j = 1, k)]
    call co_broadcast(v, src, stat=st)
    call check((st == 0) .eqv. (me == src), 'allocated on the source only: stat')
    if (me == src) call check(all(v == [(i_val(j), j = 1, k)]), 'source changed')
    if (allocated(v)) deallocate(v)

    if (me /= src) allocate(v(k))
    call co_broadcast(v, src, stat=st)
    call check((st == 0) .eqv. (me == src), 'allocated on receivers only: stat')
    if (allocated(v)) deallocate(v)

    allocate(v(k + merge(0, 1, me == src)))
    v = me
    call co_broadcast(v, src, stat=st)
    call check((st == 0) .eqv. (me == src), 'shapes differ: stat')
    deallocate(v)

    allocate(v(k))
    v = me
    call co_broadcast(v, src, stat=st)
    call check(st == 0 .and. all(v == src), 'allocated everywhere')
    deallocate(v)
  end do
  obj%id = me
  call co_broadcast(obj, 1)
  call check(obj%id == 1, 'the next collective still matches')
  print '(a)', 'PASS'

contains

  pure integer function i_val(j)
    integer, intent(in) :: j
    i_val = 7 * j - 3
  end function i_val

  include 'check.inc'

end program co_broadcast_unallocated
