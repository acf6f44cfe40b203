! Tests: strided coindexed sections: strides 2 and 3, negative strides, 2-D and 3-D subarrays,
! sections of different shape (same size) on both sides, scalar broadcast into a section, and
! strided gets.
! test: images 2 4
! test: scalable
! test: count {n} PASS
program strided_sections
  implicit none
  integer :: a(20)[*], m(6, 5)[*], c(4, 4, 4)[*]
  integer :: exp_a(20), exp_m(6, 5), exp_c(4, 4, 4), got(10), got2(3, 2)
  integer :: me, left, right, i

  me = this_image()
  right = merge(1, me + 1, me == num_images())
  left = merge(num_images(), me - 1, me == 1)

  ! stride 2 and 3 on the remote side
  a = 0
  sync all
  a(1:20:2)[right] = [(me * 100 + i, i = 1, 10)]
  a(2:20:3)[right] = -me            ! scalar broadcast; overwrites some odd positions too
  sync all
  exp_a = 0
  exp_a(1:20:2) = [(left * 100 + i, i = 1, 10)]
  exp_a(2:20:3) = -left
  call check(all(a == exp_a), 'put with stride 2 and 3')

  ! negative stride: reversed put and reversed get
  sync all
  a(10:1:-1)[right] = [(me * 100 + i, i = 1, 10)]
  sync all
  call check(all(a(1:10) == [(left * 100 + i, i = 10, 1, -1)]), 'put with stride -1')
  got = a(20:2:-2)[right]
  call check(all(got == exp_at(right, [(i, i = 20, 2, -2)])), 'get with stride -2')

  ! a section on both sides with different shapes but the same size
  sync all
  m = 0
  sync all
  m(1:6:2, 2:5:3)[right] = reshape([(me * 10 + i, i = 1, 6)], [3, 2])
  sync all
  exp_m = 0
  exp_m(1:6:2, 2:5:3) = reshape([(left * 10 + i, i = 1, 6)], [3, 2])
  call check(all(m == exp_m), '2-D strided put')
  got2 = m(5:1:-2, 5:2:-3)[right]
  call check(all(got2 == exp_m_of(right)), '2-D strided get with negative strides')
  ! rank 1 remote section from a rank 2 local section (same size, different shape)
  sync all
  a(3:8)[right] = reshape(got2, [6])
  sync all
  call check(all(a(3:8) == reshape(exp_m_of(me), [6])), 'rank 2 section into rank 1 section')

  ! strided sections on both sides: different strides and memory layouts, same shape
  sync all
  c = reshape([(me * 1000 + i, i = 1, 64)], [4, 4, 4])
  m = 0
  sync all
  m(1:6:3, 3)[right] = c(4:1:-2, 2, 1)            ! 2 elements: stride 3 <- stride -2
  m(2:6:2, 1:5:2)[right] = c(1:3, 4, 4:2:-1)       ! 3x3 subarray <- 3x3 with reversed 2nd dim
  sync all
  exp_c = reshape([(left * 1000 + i, i = 1, 64)], [4, 4, 4])
  exp_m = 0
  exp_m(1:6:3, 3) = exp_c(4:1:-2, 2, 1)
  exp_m(2:6:2, 1:5:2) = exp_c(1:3, 4, 4:2:-1)
  call check(all(m == exp_m), 'strided sections on both sides')

  ! 3-D subarray
  sync all
  c = 0
  sync all
  c(2:3, 1:4:3, 4:1:-2)[right] = reshape([(me * 1000 + i, i = 1, 8)], [2, 2, 2])
  sync all
  exp_c = 0
  exp_c(2:3, 1:4:3, 4:1:-2) = reshape([(left * 1000 + i, i = 1, 8)], [2, 2, 2])
  call check(all(c == exp_c), '3-D strided put')
  call check(all(c(2:3, 1:4:3, 4:1:-2)[left] == reshape([((left - 1 + merge(num_images(), 0, &
    left == 1)) * 1000 + i, i = 1, 8)], [2, 2, 2])), '3-D strided get')
  sync all

  print '(a,i0)', 'PASS ', me

contains

  !> What a(idx) holds on image img after the negative-stride put phase.
  function exp_at(img, idx) result(v)
    integer, intent(in) :: img, idx(:)
    integer :: v(size(idx)), full(20), src
    src = merge(num_images(), img - 1, img == 1)
    full = 0
    full(1:20:2) = [(src * 100 + i, i = 1, 10)]
    full(2:20:3) = -src
    full(1:10) = [(src * 100 + i, i = 10, 1, -1)]
    v = full(idx)
  end function exp_at

  !> m(5:1:-2, 5:2:-3) as held by image img after the 2-D put.
  function exp_m_of(img) result(v)
    integer, intent(in) :: img
    integer :: v(3, 2), full(6, 5), src
    src = merge(num_images(), img - 1, img == 1)
    full = 0
    full(1:6:2, 2:5:3) = reshape([(src * 10 + i, i = 1, 6)], [3, 2])
    v = full(5:1:-2, 5:2:-3)
  end function exp_m_of

  include 'check.inc'

end program strided_sections
