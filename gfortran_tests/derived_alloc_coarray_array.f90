! Tests: allocatable derived-type coarray arrays accessed by reference, whose first link is an
! ARRAY reference on the coarray's own descriptor (d(2)[j]%v(1:3) = ..., x = d(1)[j]%v(2),
! allocated(d(2)[j]%v), d(i)[j]%v = e(k)[l]%v), with lower bounds other than 1 and a 2-D
! coarray; also a static derived-type coarray array (STATIC_ARRAY first link).
! test: images 2 3
! test: count {n} PASS
program derived_alloc_coarray_array
  implicit none
  type box
    real, allocatable :: v(:)
  end type
  type(box), allocatable :: d(:)[:], e(:, :)[:]
  type(box) :: s(3)[*]
  integer :: me, n, j, i, k
  real :: x, y(4)
  me = this_image(); n = num_images()
  j = mod(me, n) + 1
  allocate(d(0:2)[*], e(2, -1:0)[*])
  do i = 0, 2
    allocate(d(i)%v(4)); d(i)%v = -1
  end do
  do i = 1, 3
    allocate(s(i)%v(4)); s(i)%v = -1
  end do
  do k = -1, 0
    do i = 1, 2
      if (i == 2 .and. k == 0) cycle
      allocate(e(i, k)%v(3)); e(i, k)%v = 10 * i + k + 100 * me
    end do
  end do
  sync all

  d(2)[j]%v(1:3) = [1., 2., 3.] * me
  d(0)[j]%v(4) = 7. * me
  s(3)[j]%v(2:4) = [4., 5., 6.] * me
  sync all

  i = merge(n, me - 1, me == 1)   ! the image that wrote to me
  if (any(d(2)%v /= [1., 2., 3., -1.] * [real :: i, i, i, 1])) error stop 1
  if (d(0)%v(4) /= 7. * i) error stop 2
  if (any(s(3)%v(2:4) /= [4., 5., 6.] * i)) error stop 3

  x = d(2)[j]%v(2)
  if (x /= 2. * me) error stop 4
  y = d(1)[j]%v
  if (any(y /= -1)) error stop 5
  y(1:3) = e(1, -1)[j]%v
  if (any(y(1:3) /= 10 - 1 + 100 * j)) error stop 6
  x = s(3)[j]%v(4)
  if (x /= 6. * me) error stop 7

  if (.not. allocated(d(2)[j]%v)) error stop 8
  if (allocated(e(2, 0)[j]%v)) error stop 9
  if (.not. allocated(e(2, -1)[j]%v)) error stop 10
  sync all

  ! component to component between two images
  if (me == 1) d(1)[n]%v(1:3) = e(1, 0)[j]%v
  sync all
  if (me == n) then
    if (any(d(1)%v(1:3) /= 10 + 100 * mod(1, n) + 100)) error stop 11
  end if
  print *, 'PASS'
end program
