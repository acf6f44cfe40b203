! Tests: allocatable coarrays: allocate/deallocate in a loop, rank 1-3 with non-default bounds,
! reallocation with other sizes, allocated(), and remote access to each allocation.
! test: images 2 4
! test: scalable
! test: count {n} PASS
program alloc_coarrays
  implicit none
  integer, allocatable :: a(:)[:]
  real(8), allocatable :: b(:,:)[:]
  integer(8), allocatable :: c(:,:,:)[:]
  integer :: me, n, right, left, it, sz, i, j, k

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)

  if (allocated(a)) call fail('allocated before allocate')
  do it = 1, 50
    sz = 1 + mod(it * 7, 23)             ! a different size every time
    allocate (a(-2:sz - 3)[*])
    if (.not. allocated(a)) call fail('not allocated after allocate')
    if (lbound(a, 1) /= -2 .or. ubound(a, 1) /= sz - 3) call fail('bounds')
    a = -1
    sync all
    a(:)[right] = [(1000 * me + it + i, i = -2, sz - 3)]
    sync all
    if (any(a /= [(1000 * left + it + i, i = -2, sz - 3)])) call fail('put into allocation')
    if (a(sz - 3)[right] /= 1000 * me + it + sz - 3) call fail('get from allocation')
    sync all
    deallocate (a)
    if (allocated(a)) call fail('allocated after deallocate')
  end do

  ! rank 2 and rank 3 with non-default bounds, reallocated with another shape
  do it = 1, 3
    allocate (b(0:it, -1:2*it)[*], c(2, -it:0, 5:6)[*])
    do j = -1, 2 * it
      do i = 0, it
        b(i, j) = me * 100 + i + 0.5d0 * j
      end do
    end do
    c = 0
    sync all
    if (any(b(:, :)[right] /= reshape([((right * 100 + i + 0.5d0 * j, i = 0, it), j = -1, 2 * it)], &
                                      shape(b)))) call fail('rank 2 get')
    c(:, :, :)[right] = reshape([(int(me, 8) * 10_8**10 + k, k = 1, size(c))], shape(c))
    sync all
    if (any(c /= reshape([(int(left, 8) * 10_8**10 + k, k = 1, size(c))], shape(c)))) &
      call fail('rank 3 put')
    if (lbound(c, 2) /= -it .or. ubound(c, 3) /= 6) call fail('rank 3 bounds')
    sync all
    deallocate (b, c)
  end do

  ! two coarrays alive at once must not overlap
  allocate (a(10)[*], b(10, 1)[*])
  a = me
  b = -me
  sync all
  if (any(a(:)[right] /= right) .or. any(b(:, 1)[right] /= -right)) call fail('two live allocations')
  sync all
  deallocate (a, b)

  print '(a,i0)', 'PASS ', me

contains

  subroutine fail(what)
    character(*), intent(in) :: what
    print '(a,i0,2a)', 'FAIL on image ', this_image(), ': ', what
    error stop 1
  end subroutine fail

end program alloc_coarrays
