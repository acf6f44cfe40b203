! Tests: CO_REDUCE with every operator form gfortran 12 emits (opr_flags 0, 1, 3, 4, 5):
! arguments by reference and VALUE, INTEGER(1/2/4/8/16), LOGICAL, REAL(4/8/10/16), COMPLEX(4/8/
! 10/16), CHARACTER (hidden lengths, LEN=1 VALUE, BIND(C), kind 4), a derived type of 24 bytes;
! strided rank-2 sections; RESULT_IMAGE=; STAT= and ERRMSG= for derived types of 16 bytes or less,
! which the runtime cannot call (their result registers depend on the components). A procedure
! pointer component as OPERATION is not tested: gfortran 12 passes a code byte instead of the
! pointer at -O0 and crashes (ICE in tree-ssa-sccvn) at -O1.
! test: images 1 2 3 4
! test: scalable
! test: vary FERROCAF_CPUS=1,64
! test: count {n} PASS
module ops
  use iso_c_binding, only: c_char
  implicit none
  type :: big
    integer :: a
    real(8) :: b, c
  end type big
  type :: small
    integer :: a
    real(8) :: b
  end type small
contains
  pure integer function add4(x, y)
    integer, intent(in) :: x, y
    add4 = x + y
  end function add4
  pure integer(1) function imax1(x, y)
    integer(1), value :: x, y
    imax1 = max(x, y)
  end function imax1
  pure integer(2) function add2(x, y)
    integer(2), intent(in) :: x, y
    add2 = x + y
  end function add2
  pure integer(8) function mul8(x, y)
    integer(8), value :: x, y
    mul8 = x * y
  end function mul8
  pure integer(16) function add16(x, y)
    integer(16), intent(in) :: x, y
    add16 = x + y
  end function add16
  pure integer(16) function add16v(x, y)
    integer(16), value :: x, y
    add16v = x + y
  end function add16v
  pure logical function and4(x, y)
    logical, intent(in) :: x, y
    and4 = x .and. y
  end function and4
  pure real function addr4(x, y)
    real, value :: x, y
    addr4 = x + y
  end function addr4
  pure real(8) function maxr8(x, y)
    real(8), intent(in) :: x, y
    maxr8 = max(x, y)
  end function maxr8
  pure real(10) function addr10(x, y)
    real(10), intent(in) :: x, y
    addr10 = x + y
  end function addr10
  pure real(10) function addr10v(x, y)
    real(10), value :: x, y
    addr10v = x + y
  end function addr10v
  pure real(16) function addr16(x, y)
    real(16), intent(in) :: x, y
    addr16 = x + y
  end function addr16
  pure real(16) function addr16v(x, y)
    real(16), value :: x, y
    addr16v = x + y
  end function addr16v
  pure complex function mulz4(x, y)
    complex, intent(in) :: x, y
    mulz4 = x * y
  end function mulz4
  pure complex(8) function addz8(x, y)
    complex(8), value :: x, y
    addz8 = x + y
  end function addz8
  pure complex(10) function addz10(x, y)
    complex(10), intent(in) :: x, y
    addz10 = x + y
  end function addz10
  pure complex(10) function addz10v(x, y)
    complex(10), value :: x, y
    addz10v = x + y
  end function addz10v
  pure complex(16) function addz16(x, y)
    complex(16), intent(in) :: x, y
    addz16 = x + y
  end function addz16
  pure complex(16) function addz16v(x, y)
    complex(16), value :: x, y
    addz16v = x + y
  end function addz16v
  pure function maxc(x, y) result(z)
    character(len=*), intent(in) :: x, y
    character(len=len(x)) :: z
    z = max(x, y)
  end function maxc
  pure function maxc3(x, y) result(z)
    character(len=3), intent(in) :: x, y
    character(len=3) :: z
    z = max(x, y)
  end function maxc3
  pure function maxc1v(x, y) result(z)
    character(len=1), value :: x, y
    character(len=1) :: z
    z = max(x, y)
  end function maxc1v
  pure function maxcb(x, y) result(z) bind(c)
    character(kind=c_char), intent(in) :: x, y
    character(kind=c_char) :: z
    z = max(x, y)
  end function maxcb
  pure function maxcbv(x, y) result(z) bind(c)
    character(kind=c_char), value :: x, y
    character(kind=c_char) :: z
    z = max(x, y)
  end function maxcbv
  pure function maxk4(x, y) result(z)
    character(kind=4, len=2), intent(in) :: x, y
    character(kind=4, len=2) :: z
    z = x
    if (ichar(y(1:1)) > ichar(x(1:1))) z = y
  end function maxk4
  pure function addbig(x, y) result(z)
    type(big), intent(in) :: x, y
    type(big) :: z
    z = big(x%a + y%a, x%b + y%b, max(x%c, y%c))
  end function addbig
  pure function addsmall(x, y) result(z)
    type(small), intent(in) :: x, y
    type(small) :: z
    z = small(x%a + y%a, x%b + y%b)
  end function addsmall
end module ops

program co_reduce_test
  use ops
  implicit none
  integer :: me, n, i, k, st, v(6), m(4, 3), s
  integer(1) :: i1
  integer(2) :: i2
  integer(8) :: i8
  integer(16) :: j16, j16v
  logical :: l
  real :: r4
  real(8) :: r8
  real(10) :: r10, r10v
  real(16) :: r16, r16v
  complex :: z4
  complex(8) :: z8
  complex(10) :: z10, z10v
  complex(16) :: z16, z16v
  character(len=3) :: c3, c3b
  character(len=1) :: c1v, cb, cbv
  character(kind=4, len=2) :: ck4
  type(big) :: b
  type(small) :: sm
  character(len=:), allocatable :: msg

  me = this_image()
  n = num_images()
  s = n * (n + 1) / 2

  k = me
  call co_reduce(k, add4)
  call check(k == s, 'integer(4) by reference')
  i1 = int(me, 1)
  call co_reduce(i1, imax1)
  call check(i1 == n, 'integer(1) VALUE')
  i2 = int(me, 2)
  call co_reduce(i2, add2)
  call check(i2 == s, 'integer(2)')
  i8 = me
  call co_reduce(i8, mul8)
  call check(i8 == product([(int(i, 8), i = 1, n)]), 'integer(8) VALUE')
  j16 = me * 2_16**70
  j16v = j16
  call co_reduce(j16, add16)
  call co_reduce(j16v, add16v)
  call check(j16 == s * 2_16**70 .and. j16v == j16, 'integer(16)')
  l = me /= 2
  call co_reduce(l, and4)
  call check(l .eqv. n < 2, 'logical')
  r4 = me
  call co_reduce(r4, addr4)
  call check(r4 == s, 'real(4) VALUE')
  r8 = -me
  call co_reduce(r8, maxr8)
  call check(r8 == -1d0, 'real(8)')
  r10 = me / 4.0_10
  r10v = r10
  call co_reduce(r10, addr10)
  call co_reduce(r10v, addr10v)
  call check(r10 == s / 4.0_10 .and. r10v == r10, 'real(10)')
  r16 = me / 4.0_16
  r16v = r16
  call co_reduce(r16, addr16)
  call co_reduce(r16v, addr16v)
  call check(r16 == s / 4.0_16 .and. r16v == r16, 'real(16)')
  z4 = (0.0, 1.0)
  call co_reduce(z4, mulz4)
  call check(z4 == (0.0, 1.0)**n, 'complex(4)')
  z8 = cmplx(me, -me, 8)
  call co_reduce(z8, addz8)
  call check(z8 == cmplx(s, -s, 8), 'complex(8) VALUE')
  z10 = cmplx(me, 2 * me, 10)
  z10v = z10
  call co_reduce(z10, addz10)
  call co_reduce(z10v, addz10v)
  call check(z10 == cmplx(s, 2 * s, 10) .and. z10v == z10, 'complex(10)')
  z16 = cmplx(me, 3 * me, 16)
  z16v = z16
  call co_reduce(z16, addz16)
  call co_reduce(z16v, addz16v)
  call check(z16 == cmplx(s, 3 * s, 16) .and. z16v == z16, 'complex(16)')

  c3 = achar(64 + me) // 'x' // achar(64 + me)
  c3b = c3
  call co_reduce(c3, maxc)
  call co_reduce(c3b, maxc3)
  call check(c3 == achar(64 + n) // 'x' // achar(64 + n), 'character(len=*)')
  call check(c3b == c3, 'character(len=3)')
  c1v = achar(96 + me)
  cb = c1v
  cbv = c1v
  call co_reduce(c1v, maxc1v)
  call co_reduce(cb, maxcb)
  call co_reduce(cbv, maxcbv)
  call check(c1v == achar(96 + n) .and. cb == c1v .and. cbv == c1v, 'character(len=1)')
  ck4 = char(1000 + me, 4) // char(7, 4)
  call co_reduce(ck4, maxk4)
  call check(ck4 == char(1000 + n, 4) // char(7, 4), 'character(kind=4)')

  b = big(me, me / 2d0, -me)
  call co_reduce(b, addbig)
  call check(b%a == s .and. b%b == s / 2d0 .and. b%c == -1d0, 'derived type of 24 bytes')
  allocate(character(len=200) :: msg)   ! a fixed-length ERRMSG= variable is passed by value
  sm = small(me, 1d0)
  call co_reduce(sm, addsmall, stat=st, errmsg=msg)
  call check(st /= 0 .and. index(msg, 'CO_REDUCE') > 0, 'derived type of 16 bytes: stat')

  v = [(me * 10 + i, i = 1, 6)]
  call co_reduce(v(2:6:2), add4, result_image=n)
  if (me == n) call check(all(v(2:6:2) == [(s * 10 + n * i, i = 2, 6, 2)]), 'section result_image')
  call check(all(v(1:5:2) == [(me * 10 + i, i = 1, 5, 2)]), 'section: untouched elements')
  m = reshape([(me * 100 + i, i = 1, 12)], [4, 3])
  call co_reduce(m(1:4:3, 2:3), add4, stat=st)
  call check(st == 0, 'stat= on success')
  call check(m(1, 2) == s * 100 + n * 5 .and. m(4, 3) == s * 100 + n * 12 &
             .and. m(2, 2) == me * 100 + 6, 'rank 2 strided section')

  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program co_reduce_test
