! Tests: sections with omitted bounds of an allocatable component of a coindexed object
! (gfortran 12 passes `c(::2)`, `c(::-1)`, `c(3::-2)`, `c(:2:-1)` with the bounds left to the
! runtime; they come from the target's descriptor, on the side the stride says), read and
! written, including empty sections and a component with bounds other than 1; each image's
! component has its own bounds (a component need not match across images).
! test: images 1 2 3
! (gfortran 15 and 16 miscompile obj[j]%c(::-1): the result holds stack garbage with GCC 16's own
! libcaf_shmem as well; docs/ARCHITECTURE.md, ABI limits)
! test: gfortran <= 14
! test: count {n} PASS
program component_omitted_bounds
  implicit none
  type :: holder
    integer, allocatable :: c(:)
  end type holder
  type(holder) :: obj[*]
  integer :: me, n, j, p, k, a(3), r(5), e(0), w(3)
  integer, allocatable :: v(:)

  me = this_image(); n = num_images()
  j = merge(1, me + 1, me == n)
  allocate(obj%c(-1 + me:3 + me))
  obj%c = [(100 * me + k, k = 1, 5)]
  sync all

  a = obj[j]%c(::2)
  call check(all(a == 100 * j + [1, 3, 5]), 'c(::2) read')
  r = obj[j]%c(::-1)
  call check(all(r == 100 * j + [5, 4, 3, 2, 1]), 'c(::-1) read')
  a(1:2) = obj[j]%c(j + 1::-2)
  call check(all(a(1:2) == 100 * j + [3, 1]), 'c(m::-2) read')
  a(1:2) = obj[j]%c(:j + 1:-2)
  call check(all(a(1:2) == 100 * j + [5, 3]), 'c(:m:-2) read')
  e = obj[j]%c(5 + j:j)
  e = obj[j]%c(j - 2::-1)
  call check(size(obj[j]%c(j + 9::2)) == 0, 'empty section size')
  v = obj[j]%c(::3)
  call check(all(v == 100 * j + [1, 4]) .and. lbound(v, 1) == 1, 'c(::3) into an allocatable')
  sync all

  w = -[1, 2, 3] * me
  obj[j]%c(::2) = w
  obj[j]%c(:j + 1:-2) = w(1:2) - 10
  obj[j]%c(j + 9::3) = e
  obj[j]%c(j - 2::-1) = e
  sync all
  p = merge(n, me - 1, me == 1)
  call check(all(obj%c == [-p, 100 * me + 2, -2 * p - 10, 100 * me + 4, -p - 10]), 'writes')
  print '(a)', 'PASS'

contains

  include 'check.inc'

end program component_omitted_bounds
