! ft_transpose.f90 - the all-to-all transpose of a 3-D FFT with z slabs (the communication of
! NPB FT's 1-D layout), written with coarrays: put-based and get-based, each either as FT does it
! (contiguous blocks, then a local reordering) or straight into place (strided sections).
!
! A complex(8) N1 x N2 x N3 grid is split into z slabs: image me holds x(N1, N2, KZ),
! KZ = N3 / np, global z = (me-1)*KZ + k. The transpose gives every image all of z for a slab
! of y instead: y(N3, N1, MY), MY = N2 / np, global y = (me-1)*MY + j. In three steps:
!   1. local transpose  s(k, i, j) = x(i, j, k)          s(KZ, N1, N2): z first
!   2. all-to-all       block q of s (the y slab of image q, KZ*N1*MY contiguous elements) goes
!                       to image q, landing as r(:, :, :, me) there      r(KZ, N1, MY, np)
!   3. finish           y((q-1)*KZ + k, i, j) = r(k, i, j, q)
! Step 2 puts (r(:, :, :, me)[q] = block q of s) or gets (r(:, :, :, q) = block me of s[q]),
! np contiguous transfers of KZ*N1*MY*16 bytes per image (1 MiB at 4 images), between two
! SYNC ALLs: the first keeps a transfer from overwriting what its target still reads (r, or s
! in the get variant), the second completes the exchange. The strided variants skip r and
! step 3: y((me-1)*KZ+1:me*KZ, :, :)[q] = block q of s, or y((q-1)*KZ+1:q*KZ, :, :) = block
! me of s[q]: N1*MY runs of KZ elements (256 bytes at 4 images) N3 elements apart.
!
! Check: before every transpose x(i, j, k) = (i + N1*(j-1) + it, -(z + 7*it)) with the
! iteration it, so a stale or misplaced block gives a wrong value; every element of y is
! compared, exactly, after every transpose (outside the timing).
!
!   ferrocaf run -n 4 examples_caf/ft_transpose.f90 [ITERATIONS]     (default 10; np divides 64)
! Prints "Success: ..." and "RESULT ft_transpose_<variant> <images> <us per transpose> us" for
! the variants put, get, put_strided and get_strided.
program ft_transpose
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none
  integer, parameter :: N1 = 128, N2 = 128, N3 = 64
  integer, parameter :: VARIANTS = 4
  complex(real64), allocatable :: x(:, :, :)
  complex(real64), allocatable :: s(:, :, :)[:], r(:, :, :, :)[:], y(:, :, :)[:]
  integer :: me, np, kz, my, iters, it, variant, ok
  integer(int64) :: spent(VARIANTS)
  character(len=11), parameter :: names(VARIANTS) = [character(len=11) :: 'put', 'get', &
                                                       'put_strided', 'get_strided']
  character(len=32) :: arg

  me = this_image(); np = num_images()
  iters = 10
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) iters
  end if
  if (mod(N3, np) /= 0 .or. mod(N2, np) /= 0) error stop 'ft_transpose: the image count must divide 64'
  kz = N3 / np
  my = N2 / np
  allocate (x(N1, N2, kz))
  allocate (s(kz, N1, N2)[*], r(kz, N1, my, np)[*], y(N3, N1, my)[*])

  ok = 1
  do variant = 1, VARIANTS
    spent(variant) = 0
    do it = 0, iters                           ! iteration 0 warms up (first touch), untimed
      call fill(it)
      call transpose(variant, spent(variant), it > 0)
      if (.not. verified(it)) ok = 0
    end do
  end do
  call co_min(ok)
  if (ok /= 1) error stop 1
  call co_max(spent)
  if (me == 1) then
    write (*, '(a, i0, a, i0, a)') 'Success: ', iters, ' transposes of each of 4 kinds of a '// &
      '128x128x64 complex grid on ', np, ' images, every element checked'
    do variant = 1, VARIANTS
      write (*, '(a, a, 1x, i0, es14.6, a)') 'RESULT ft_transpose_', trim(names(variant)), np, &
        1e6_real64 * real(spent(variant), real64) / real(rate(), real64) / iters, ' us'
    end do
  end if

contains

  !> The clock rate of system_clock for int64 counts.
  integer(int64) function rate()
    integer(int64) :: c
    call system_clock(c, rate)
  end function rate

  !> Sets x to the values of iteration `it`.
  subroutine fill(it)
    integer, intent(in) :: it
    integer :: i, j, k
    do k = 1, kz
      do j = 1, N2
        do i = 1, N1
          x(i, j, k) = cmplx(i + N1 * (j - 1) + it, -((me - 1) * kz + k + 7 * it), real64)
        end do
      end do
    end do
  end subroutine fill

  !> One transpose of x into y by block puts (variant 1), block gets (2), strided puts (3) or
  !> strided gets (4); its time is added to `spent` if `timed`.
  subroutine transpose(variant, spent, timed)
    integer, intent(in) :: variant
    integer(int64), intent(inout) :: spent
    logical, intent(in) :: timed
    integer :: i, j, p, q
    integer(int64) :: t0, t1
    call system_clock(t0)
    do j = 1, N2
      do i = 1, N1
        s(:, i, j) = x(i, j, :)
      end do
    end do
    sync all
    do p = 1, np                               ! start at the next image: no hot spot
      q = mod(me - 1 + p, np) + 1
      select case (variant)
      case (1)
        r(:, :, :, me)[q] = s(:, :, (q - 1) * my + 1:q * my)
      case (2)
        r(:, :, :, q) = s(:, :, (me - 1) * my + 1:me * my)[q]
      case (3)
        y((me - 1) * kz + 1:me * kz, :, :)[q] = s(:, :, (q - 1) * my + 1:q * my)
      case (4)
        y((q - 1) * kz + 1:q * kz, :, :) = s(:, :, (me - 1) * my + 1:me * my)[q]
      end select
    end do
    sync all
    if (variant <= 2) call finish()
    call system_clock(t1)
    if (timed) spent = spent + (t1 - t0)
  end subroutine transpose

  !> Step 3 of the block variants: y from the blocks in r.
  subroutine finish()
    integer :: i, j, k, q
    do q = 1, np
      do j = 1, my
        do i = 1, N1
          do k = 1, kz
            y((q - 1) * kz + k, i, j) = r(k, i, j, q)
          end do
        end do
      end do
    end do
  end subroutine finish

  !> Whether every element of y holds the value x had at global (i, y, z) in iteration `it`.
  logical function verified(it)
    integer, intent(in) :: it
    integer :: i, j, z, gj
    complex(real64) :: want
    verified = .true.
    do j = 1, my
      gj = (me - 1) * my + j
      do i = 1, N1
        do z = 1, N3
          want = cmplx(i + N1 * (gj - 1) + it, -(z + 7 * it), real64)
          if (y(z, i, j) /= want) then
            write (*, '(a, i0, a, 3(i0, a), 4es14.6)') 'FAILED on image ', me, ': y(', z, ',', i, &
              ',', j, ') = ', y(z, i, j), want
            verified = .false.
            return
          end if
        end do
      end do
    end do
  end function verified

end program ft_transpose
