! Tests: vector subscripts on coindexed objects (Fortran 2018 9.5.3.3.3) in reads, writes and
! coindexed copies: index vectors of integer kinds 1, 2, 4 and 8, repeated indices on the read
! side, 2-D arrays with one vector dimension and one triplet, non-default lower bounds, an
! allocatable coarray, and kind conversion through a vector-subscripted read.
! test: images 2 3
! test: scalable
! test: count {n} PASS
program vector_subscripts
  implicit none
  integer :: a(10)[*], m(0:5, -1:3)[*], b(10)[*]
  real(8), allocatable :: r(:)[:]
  integer :: me, n, right, left, i, j, got(6), g2(3, 2)
  integer(1) :: v1(3)
  integer(2) :: v2(4)
  integer(4) :: v4(5)
  integer(8) :: v8(2)
  real(4) :: rg(3)
  integer, parameter :: rows(3) = [5, 0, 2], cols(2) = [-1, 3]
  ! Vector subscripts of coindexed references are variables: an array constructor there
  ! crashes gfortran 15 and 16 (docs/ARCHITECTURE.md, ABI limits).
  integer :: c3(3) = [3, -1, 1], r3(3) = [4, -3, 0], w3(3) = [10, 1, 5], d3(3) = [2, 4, 6]
  integer :: s3(3) = [7, 7, 1], r2(2) = [1, 3]

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)
  a = [(100 * me + i, i = 1, 10)]
  do j = -1, 3
    do i = 0, 5
      m(i, j) = 1000 * me + 10 * i + j
    end do
  end do
  allocate (r(-3:4)[*])
  r = [(me + i / 8d0, i = -3, 4)]
  b = 0
  sync all

  ! reads with every index kind, repeated indices allowed
  v1 = [int(10, 1), 1_1, 10_1]
  v2 = [3_2, 3_2, 7_2, 2_2]
  v4 = [5, 4, 3, 2, 1]
  v8 = [9_8, 9_8]
  got(1:3) = a(v1)[right]
  call check(all(got(1:3) == 100 * right + [10, 1, 10]), 'kind 1 read')
  got(1:4) = a(v2)[right]
  call check(all(got(1:4) == 100 * right + [3, 3, 7, 2]), 'kind 2 read')
  got(1:5) = a(v4)[right]
  call check(all(got(1:5) == 100 * right + [5, 4, 3, 2, 1]), 'kind 4 read')
  got(1:2) = a(v8)[right]
  call check(all(got(1:2) == 100 * right + 9), 'kind 8 read')

  ! 2-D: vector in the first dimension, triplet in the second, odd lower bounds
  g2 = m(rows, -1:3:4)[right]
  do j = 1, 2
    do i = 1, 3
      call check(g2(i, j) == 1000 * right + 10 * rows(i) + cols(j), '2-D vector read')
    end do
  end do
  ! vector in the second dimension, single index in the first
  got(1:3) = m(4, c3)[right]
  call check(all(got(1:3) == 1000 * right + 40 + [3, -1, 1]), 'vector in dimension 2')

  ! an allocatable coarray with lower bound -3, converted to real(4)
  rg = r(r3)[right]
  call check(all(rg == real(right + [4, -3, 0] / 8d0, 4)), 'allocatable vector read with conversion')
  sync all

  ! writes: each image scatters into its right neighbour
  b(w3)[right] = [me, 2 * me, 3 * me]
  sync all
  call check(b(10) == left .and. b(1) == 2 * left .and. b(5) == 3 * left, 'vector write')
  call check(count(b /= 0) == 3, 'vector write touched other elements')
  sync all
  b = 0
  sync all
  ! coindexed copy with vectors on both sides: b(v)[right] = a(w)[left]
  b(d3)[right] = a(s3)[left]
  sync all
  ! b on me was written by left, reading from left's left
  i = merge(n, left - 1, left == 1)
  call check(all(b([2, 4, 6]) == 100 * i + [7, 7, 1]), 'vector sendget')
  call check(count(b /= 0) == 3, 'vector sendget touched other elements')
  sync all
  ! 2-D write: vector rows, triplet columns
  m(r2, 0:2:2)[right] = reshape([-1, -2, -3, -4], [2, 2])
  sync all
  call check(m(1, 0) == -1 .and. m(3, 0) == -2 .and. m(1, 2) == -3 .and. m(3, 2) == -4, &
             '2-D vector write')
  call check(m(2, 0) == 1000 * me + 20, '2-D vector write touched a neighbour')

  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program vector_subscripts
