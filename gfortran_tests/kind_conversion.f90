! Tests: kind and type conversion in coindexed assignments: real(8) coarray from a default real,
! integer(8) from an integer(4) coarray, real(4) section from an integer(2) array, integer from
! real (truncation), complex from real, logical kinds, and CHARACTER length padding/truncation.
! test: images 2 4
! test: scalable
! test: count {n} PASS
program kind_conversion
  use iso_fortran_env, only: int8, int16, int32, int64, real32, real64
  implicit none
  real(real64) :: x8[*]
  integer(int32) :: i4[*], iv(6)[*]
  integer(int64) :: i8
  integer(int16) :: i2(5)
  real(real32) :: r4(5)[*], rv(6)
  complex(real64) :: zv(3)[*]
  logical(int8) :: l1[*]
  character(len=10) :: c10[*]
  character(len=3) :: c3[*], short
  integer :: me, right, left, k

  me = this_image()
  right = merge(1, me + 1, me == num_images())
  left = merge(num_images(), me - 1, me == 1)
  i4 = 2000000000 + me
  iv = 0
  c3 = 'xyz'
  c10 = 'XXXXXXXXXX'
  l1 = .false.
  sync all

  x8[right] = 1.5                               ! default real -> real(8)
  i2 = [(int(-3 * k * me, int16), k = 1, 5)]
  r4(:)[right] = i2                             ! integer(2) -> real(4)
  iv(1:6:2)[right] = [2.75, -2.75, 1.0e3]       ! real(4) -> integer (truncation)
  zv(:)[right] = [1.25d0, -2.5d0, real(me, real64)]   ! real(8) -> complex(8)
  l1[right] = .true.                            ! default logical -> logical(1)
  c10[right] = 'abc'                            ! padded with blanks
  sync all

  call check(x8 == 1.5d0, 'real(8) = real(4)')
  call check(all(r4 == [(real(-3 * k * left), k = 1, 5)]), 'real(4) section = integer(2)')
  call check(all(iv == [2, 0, -2, 0, 1000, 0]), 'integer section = real(4)')
  call check(all(zv == [(1.25d0, 0d0), (-2.5d0, 0d0), cmplx(left, 0, real64)]), 'complex = real(8)')
  call check(logical(l1), 'logical(1) = logical')
  call check(c10 == 'abc' .and. len_trim(c10) == 3, 'character padding')

  i8 = i4[right]                                ! integer(4) coarray -> integer(8)
  call check(i8 == 2000000000_int64 + right, 'integer(8) = integer(4)[j]')
  rv = iv(:)[left]                              ! integer(4) coarray -> real(4)
  call check(all(rv == [2., 0., -2., 0., 1000., 0.]), 'real(4) = integer(4)[j]')
  short = c10[right]                            ! truncation on get
  call check(short == 'abc', 'character truncation on get')
  sync all
  c3[right] = 'truncated'                       ! truncation on put
  sync all
  call check(c3 == 'tru', 'character truncation on put')

  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program kind_conversion
