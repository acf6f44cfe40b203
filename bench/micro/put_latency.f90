! put_latency: latency of an 8-byte put made complete and visible by SYNC IMAGES.
!
! Method (named in the result: put_latency_syncimages): ping-pong between images 1 and 2.
! Image 1 puts k into x[2] and executes SYNC IMAGES(2); image 2 executes SYNC IMAGES(1), checks
! that x == k, puts -k into x[1] and executes SYNC IMAGES(1); image 1 executes SYNC IMAGES(2) and
! checks x == -k. One iteration is a full round trip; the value is half of it (one put plus one
! SYNC IMAGES pair), in microseconds, median of NREP repetitions. Images 3..N take no part and
! wait in SYNC ALL, so at 8 images this measures the pair under oversubscription.
program put_latency
  use bench_util
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none
  integer(int64) :: x[*]
  integer :: iters, rep, me
  real(real64) :: t0, elapsed, times(NREP)
  logical :: ok

  me = this_image()
  call check(num_images() >= 2, 'put_latency needs at least 2 images')
  x = 0
  ok = .true.
  sync all
  iters = 0
  elapsed = 0
  do while (warming(iters, elapsed))
    t0 = wtime()
    call run(iters)
    elapsed = wtime() - t0
  end do
  do rep = 1, NREP
    t0 = wtime()
    call run(iters)
    times(rep) = (wtime() - t0) / (2.0_real64 * iters)
  end do
  sync all
  call check(ok, 'put_latency: wrong value received')
  call report('put_latency_syncimages', median(times) * 1e6_real64, 'us')

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer(int64) :: k, v
    do k = 1, n
      if (me == 1) then
        x[2] = k
        sync images (2)
        sync images (2)
        ok = ok .and. x == -k
      else if (me == 2) then
        sync images (1)
        ok = ok .and. x == k
        ! Through a temporary: gfortran 16 compiles `x[1] = -x` in a contained procedure to
        ! code that faults (docs/ARCHITECTURE.md, "ABI limits").
        v = -x
        x[1] = v
        sync images (1)
      end if
    end do
  end subroutine run

end program put_latency
