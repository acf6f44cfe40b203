! Tests: CO_MIN and CO_MAX on integer, real and character scalars and on integer arrays (rank 1
! and 2), with and without RESULT_IMAGE=, and with STAT=.
! test: images 1 3 4
! test: scalable
! test: vary FERROCAF_CPUS=1,64
! test: count {n} PASS
program co_min_max
  implicit none
  integer :: i, v(4), m(2, 2), me, n, st, k, j
  real :: r
  character(len=4) :: c
  character(len=4) :: words(4) = ['pear', 'fig ', 'kiwi', 'date']

  me = this_image()
  n = num_images()

  i = 10 - me
  call co_min(i)
  call check(i == 10 - n, 'co_min integer')
  i = 10 - me
  call co_max(i)
  call check(i == 9, 'co_max integer')

  r = -1.5 * me
  call co_min(r)
  call check(r == -1.5 * n, 'co_min real')
  r = -1.5 * me
  call co_max(r, stat=st)
  call check(st == 0 .and. r == -1.5, 'co_max real with stat=')

  ! element-wise: element k is largest on a different image
  v = [(mod(me + k, n + 1), k = 1, 4)]
  call co_max(v)
  call check(all(v == [(maxval([(mod(j + k, n + 1), j = 1, n)]), k = 1, 4)]), 'co_max rank 1')
  m = reshape([(me * (-1)**k, k = 1, 4)], [2, 2])
  call co_min(m)
  call check(all(m == reshape([(merge(-n, 1, mod(k, 2) == 1), k = 1, 4)], [2, 2])), 'co_min rank 2')

  c = words(1 + mod(me - 1, 4))
  call co_max(c)
  call check(c == maxval_word(min(n, 4)), 'co_max character')
  c = words(1 + mod(me - 1, 4))
  call co_min(c, result_image=1)
  if (me == 1) call check(c == minval_word(min(n, 4)), 'co_min character, result_image=1')

  print '(a,i0)', 'PASS ', me

contains

  character(len=4) function maxval_word(k)
    integer, intent(in) :: k
    integer :: j
    maxval_word = words(1)
    do j = 2, k
      if (words(j) > maxval_word) maxval_word = words(j)
    end do
  end function maxval_word

  character(len=4) function minval_word(k)
    integer, intent(in) :: k
    integer :: j
    minval_word = words(1)
    do j = 2, k
      if (words(j) < minval_word) minval_word = words(j)
    end do
  end function minval_word

  include 'check.inc'

end program co_min_max
