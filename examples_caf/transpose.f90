! transpose.f90 - PRK-style distributed matrix transpose with coarrays.
!
! ORDER x ORDER matrices A and B are split into column blocks of NB = ORDER / np columns, one
! per image (a(1:ORDER, 1:NB) holds global columns (me-1)*NB+1 .. me*NB). Each iteration computes
!     B = B + transpose(A),   then   A = A + 1.
! B's column block on image me needs rows (me-1)*NB+1 .. me*NB of every image's A: in phase
! p = 0..np-1 image me reads from image q = me+p (cyclically) the NB x NB block
!     work = a((me-1)*NB+1 : me*NB, 1:NB)[q]       (one strided coindexed get)
! and adds its transpose into b((q-1)*NB+1 : q*NB, :). SYNC ALL before the gets (every A is
! up to date) and after them (nobody reads A while it is incremented).
!
! Check: A starts as A(i,j) = ORDER*(j-1) + (i-1), so after ITERATIONS iterations
!     B(i,j) = ITERATIONS * A0(j,i) + ITERATIONS*(ITERATIONS-1)/2
! exactly (integers in REAL(8)); every element is compared.
!
!   ferrocaf run -n 4 examples_caf/transpose.f90 [ITERATIONS]     (default 20)
! Prints "Success: ..." and "RESULT transpose <images> <us per iteration> us".
program transpose_caf
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none
  integer, parameter :: ORDER_WANTED = 1024
  ! A static coarray big enough for one image; only a(1:order, 1:nb) is used.
  real(real64) :: a(ORDER_WANTED, ORDER_WANTED)[*]
  real(real64), allocatable :: b(:, :), work(:, :)
  integer :: me, np, nb, order, iters, it, phase, q, i, j, ok
  integer(int64) :: t0, t1, rate
  character(len=32) :: arg

  me = this_image(); np = num_images()
  iters = 20
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) iters
  end if
  nb = ORDER_WANTED / np                      ! the order is rounded down to a multiple of np
  order = nb * np
  allocate (b(order, nb), work(nb, nb))
  do j = 1, nb
    do i = 1, order
      a(i, j) = real(order, real64) * ((me - 1) * nb + j - 1) + (i - 1)
    end do
  end do
  b = 0
  sync all

  call system_clock(t0, rate)
  do it = 1, iters
    do phase = 0, np - 1
      q = mod(me - 1 + phase, np) + 1
      work(:, :) = a((me - 1) * nb + 1:me * nb, 1:nb)[q]
      b((q - 1) * nb + 1:q * nb, :) = b((q - 1) * nb + 1:q * nb, :) + transpose(work)
    end do
    sync all                                   ! every image has read this A
    a(1:order, 1:nb) = a(1:order, 1:nb) + 1
    sync all                                   ! every A is incremented
  end do
  call system_clock(t1)

  ok = merge(1, 0, verified())
  call co_min(ok)
  if (ok /= 1) error stop 1
  if (me == 1) then
    write (*, '(a, i0, a, i0, a, i0, a)') 'Success: transpose of a ', order, '^2 matrix on ', &
      np, ' images, ', iters, ' iterations, every element checked'
    write (*, '(a, i0, es14.6, a)') 'RESULT transpose ', np, &
      1e6_real64 * real(t1 - t0, real64) / real(rate, real64) / iters, ' us'
  end if

contains

  !> Whether this image's block of B holds exactly the expected values.
  logical function verified()
    integer :: i, j, gj
    real(real64) :: want
    verified = .true.
    do j = 1, nb
      gj = (me - 1) * nb + j
      do i = 1, order
        want = iters * (real(order, real64) * (i - 1) + (gj - 1)) &
               + 0.5_real64 * iters * (iters - 1)
        if (b(i, j) /= want) then
          write (*, '(a, i0, a, i0, a, 2es16.8)') 'FAILED: B(', i, ',', gj, ') = ', b(i, j), want
          verified = .false.
          return
        end if
      end do
    end do
  end function verified

end program transpose_caf
