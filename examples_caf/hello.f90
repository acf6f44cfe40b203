! hello.f90 - every image says hello; then image 1 reads one value from every image with
! coindexed reads and checks their sum.
!
!   ferrocaf run -n 4 examples_caf/hello.f90
program hello
  use, intrinsic :: iso_fortran_env, only: output_unit, int64
  implicit none
  ! 64-bit: n*(n+1)*(2n+1) overflows 32 bits from 1024 images on, the sum itself from 1861
  integer(int64) :: square[*]   ! one integer on every image
  integer(int64) :: total, expected
  integer :: me, n, i

  me = this_image()
  n = num_images()
  write (*, '(a, i0, a, i0)') 'Hello from image ', me, ' of ', n
  flush (output_unit)           ! so that every greeting is out before the result line

  square = int(me, int64)**2
  sync all                      ! every image has stored its square

  if (me == 1) then
    total = 0
    do i = 1, n
      total = total + square[i] ! coindexed read from image i
    end do
    expected = int(n, int64) * (n + 1) * (2 * n + 1) / 6
    if (total /= expected) then
      write (*, '(a, i0, a, i0)') 'FAILED: sum of squares read from all images is ', total, &
                                  ', expected ', expected
      error stop 1
    end if
    write (*, '(a, i0, a, i0, a)') 'Success: image 1 read ', n, &
      ' values with coindexed reads; their sum ', total, ' is correct'
  end if
  sync all                      ! image 1 has finished reading before any image ends
end program hello
