! Tests: this_image(), num_images(), this_image(coarray), this_image(coarray, dim), image_index,
! lcobound and ucobound for a coarray of corank 2 with non-default cobounds.
! test: images 1 3 4
! test: scalable
! test: count {n} PASS
program image_queries
  implicit none
  integer :: grid[0:1, 3:*]      ! corank 2: first codimension 0..1, second from 3
  integer :: me, n, sub(2), lo(2), up(2), expect_up2

  me = this_image()
  n = num_images()
  if (me < 1 .or. me > n) call fail('this_image() outside 1..num_images()')

  lo = lcobound(grid)
  up = ucobound(grid)
  expect_up2 = 3 + (n - 1) / 2        ! images fill the first codimension first
  if (any(lo /= [0, 3])) call fail('lcobound')
  if (any(up /= [1, expect_up2])) call fail('ucobound')
  if (lcobound(grid, dim=2) /= 3 .or. ucobound(grid, dim=1) /= 1) call fail('cobound with dim=')

  sub = this_image(grid)
  if (any(sub /= [mod(me - 1, 2), 3 + (me - 1) / 2])) call fail('this_image(coarray)')
  if (this_image(grid, 1) /= sub(1) .or. this_image(grid, 2) /= sub(2)) &
    call fail('this_image(coarray, dim)')
  if (image_index(grid, sub) /= me) call fail('image_index of own cosubscripts')
  if (image_index(grid, [0, 3]) /= 1) call fail('image_index([0,3])')
  ! cosubscripts that name no image give 0
  if (image_index(grid, [1, expect_up2 + 1]) /= 0) call fail('image_index past the last image')

  print '(a,i0)', 'PASS ', me

contains

  subroutine fail(what)
    character(*), intent(in) :: what
    print '(a,i0,2a)', 'FAIL on image ', this_image(), ': ', what
    error stop 1
  end subroutine fail

end program image_queries
