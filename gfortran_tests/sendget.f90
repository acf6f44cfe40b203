! Tests: coindexed assignments with a coindexed right-hand side (sendget): copying between two
! images that are both not this image, strided on both sides, and overlapping sections of the
! same coarray on one image (a(2:10)[me] = a(1:9)[me] must behave as if through a temporary).
! test: images 3 4
! test: scalable
! test: count {n} PASS
program sendget
  implicit none
  integer :: a(10)[*], b(10)[*]
  integer :: me, n, i, src, dst, expect(10)

  me = this_image()
  n = num_images()
  a = [(me * 100 + i, i = 1, 10)]
  b = 0
  sync all

  ! image 1 copies b(:)[3] = a(:)[2]: neither side is image 1
  if (me == 1) b(:)[3] = a(:)[2]
  sync all
  if (me == 3) call check(all(b == [(200 + i, i = 1, 10)]), 'third-party whole copy')
  sync all

  ! every image copies from image src to image dst, both different from itself, strided
  src = 1 + mod(me, n)
  dst = 1 + mod(me + 1, n)
  b(10:1:-2)[dst] = a(1:9:2)[src]
  sync all
  ! the image that wrote into me is the one with dst == me, i.e. me - 2 (cyclic); its src is me - 1
  src = 1 + mod(me - 2 + n, n)
  expect = 0
  expect(10:1:-2) = [(src * 100 + i, i = 1, 9, 2)]
  call check(all(b(10:1:-2) == expect(10:1:-2)), 'third-party strided copy')
  sync all

  ! overlapping sections on this image, both directions
  a = [(i, i = 1, 10)]
  a(2:10)[me] = a(1:9)[me]
  call check(all(a == [1, (i, i = 1, 9)]), 'overlap shifting right')
  a = [(i, i = 1, 10)]
  a(1:9)[me] = a(2:10)[me]
  call check(all(a == [(i, i = 2, 10), 10]), 'overlap shifting left')
  a = [(i, i = 1, 10)]
  a(10:1:-1)[me] = a(1:10)[me]
  call check(all(a == [(i, i = 10, 1, -1)]), 'overlap reversing')
  sync all

  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program sendget
