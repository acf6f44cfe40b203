! A section of an allocatable coarray read into an allocatable (reallocated) local array: gfortran
! 12 emits get_by_ref with an ARRAY reference on the coarray's own descriptor for this.
! test: images 2 3
! test: stdout PASS
program asec
  implicit none
  real(8), allocatable :: a(:,:)[:]
  real(8), allocatable :: y(:, :)
  integer :: me, n, q, i, j
  me = this_image(); n = num_images(); q = merge(1, me + 1, me == n)
  allocate(a(10, 4)[*])
  do j = 1, 4
    do i = 1, 10
      a(i, j) = 1000*me + 10*i + j
    end do
  end do
  sync all
  y = a(2:4, :)[q]
  do j = 1, 4
    do i = 1, 3
      if (y(i, j) /= 1000*q + 10*(i+1) + j) error stop 1
    end do
  end do
  sync all
  if (me == 1) print *, 'PASS'
end program
