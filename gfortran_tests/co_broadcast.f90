! Tests: CO_BROADCAST of integer, real(8), complex and character scalars, a rank-1 and a rank-2
! array, a derived type, from different source images, with STAT=.
! test: images 1 3 4
! test: scalable
! test: vary FERROCAF_CPUS=1,64
! test: count {n} PASS
program co_broadcast_test
  implicit none
  type :: pair
    integer :: a
    real(8) :: b
  end type pair
  integer :: i, v(6), m(3, 2), me, n, st, k, src
  real(8) :: x
  complex :: z
  character(len=7) :: c
  type(pair) :: p

  me = this_image()
  n = num_images()
  src = n                                  ! broadcast from the last image

  i = -me
  call co_broadcast(i, source_image=src)
  call check(i == -n, 'integer scalar')
  x = me / 3d0
  call co_broadcast(x, src)
  call check(x == n / 3d0, 'real(8) scalar')
  z = cmplx(me, me + 1)
  call co_broadcast(z, 1)
  call check(z == (1.0, 2.0), 'complex scalar from image 1')
  c = 'image ' // achar(48 + mod(me, 10))
  call co_broadcast(c, src, stat=st)
  call check(st == 0 .and. c == 'image ' // achar(48 + mod(n, 10)), 'character with stat=')
  v = [(me * 10 + k, k = 1, 6)]
  call co_broadcast(v, src)
  call check(all(v == [(n * 10 + k, k = 1, 6)]), 'rank 1')
  m = reshape([(me * 10 + k, k = 1, 6)], [3, 2])
  call co_broadcast(m, 1)
  call check(all(m == reshape([(10 + k, k = 1, 6)], [3, 2])), 'rank 2 from image 1')
  p = pair(me, -me / 7d0)
  call co_broadcast(p, src)
  call check(p%a == n .and. p%b == -n / 7d0, 'derived type')

  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program co_broadcast_test
