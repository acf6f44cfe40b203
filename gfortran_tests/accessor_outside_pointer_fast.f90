! Tests: the scalar-read fast path (abi/accessor/fast.rs) checks the result pointer as the
! general path does. After a first coindexed read (which goes the general way and installs the
! fault guard) the reads below take the fast path: x[2]%p hands back image 2's private address;
! with STAT= that is a non-zero status, without it the one-line error naming image 2, never a
! silent read of whatever this image has at that address.
! test: images 2
! test: gfortran >= 15
! test: exit nonzero
! test: stdout STAT NONZERO
! test: stderr leads outside image 2's coarray memory
! test: forbid got past
! test: forbid panicked
! test: timeout 20
program accessor_outside_pointer_fast
  implicit none
  type :: box
    integer, pointer :: p => null()
    integer :: n = 0
  end type box
  type(box) :: x[*]
  integer, target, save :: mine
  integer :: got, k, st, s
  mine = 40 + this_image()
  x%p => mine
  x%n = this_image()
  sync all
  if (this_image() == 1) then
    s = 0
    do k = 1, 3
      s = s + x[2]%n
    end do
    if (s /= 6) error stop 'plain reads'
    st = 0
    got = x[2, stat=st]%p
    if (st /= 0) print '(a)', 'STAT NONZERO'
    got = x[2]%p
    print *, 'got past the read of private memory', got
  end if
  sync all
end program accessor_outside_pointer_fast
