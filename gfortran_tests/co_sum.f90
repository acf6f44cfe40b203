! Tests: CO_SUM on integer, real(8) and complex scalars and on rank-1 and rank-2 arrays, with
! the result on all images and with RESULT_IMAGE= (other images' arguments become undefined, so
! only the result image is checked), and with STAT=/ERRMSG=.
! test: images 1 3 4 6
! test: scalable
! test: vary FERROCAF_CPUS=1,64
! test: count {n} PASS
program co_sum_test
  implicit none
  integer :: i, v(5), m(2, 3), me, n, st, k
  real(8) :: x
  complex(8) :: z
  character(len=80) :: msg

  me = this_image()
  n = num_images()

  i = me
  call co_sum(i)
  call check(i == n * (n + 1) / 2, 'integer scalar')

  x = me / 4d0
  call co_sum(x)
  call check(x == n * (n + 1) / 8d0, 'real(8) scalar')

  z = cmplx(me, -2 * me, 8)
  call co_sum(z)
  call check(z == cmplx(n * (n + 1) / 2, -n * (n + 1), 8), 'complex(8) scalar')

  v = [(me * k, k = 1, 5)]
  call co_sum(v)
  call check(all(v == [(k * n * (n + 1) / 2, k = 1, 5)]), 'integer rank 1')

  m = reshape([(me + k, k = 1, 6)], [2, 3])
  call co_sum(m)
  call check(all(m == reshape([(n * (n + 1) / 2 + n * k, k = 1, 6)], [2, 3])), 'integer rank 2')

  v = me
  call co_sum(v, result_image=n)
  if (me == n) call check(all(v == n * (n + 1) / 2), 'result_image=')

  i = 1
  msg = 'untouched'
  call co_sum(i, stat=st, errmsg=msg)
  call check(st == 0 .and. i == n, 'stat= on success')
  call check(msg == 'untouched', 'errmsg changed on success')

  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program co_sum_test
