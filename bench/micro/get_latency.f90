! get_latency: time of one 8-byte coindexed read (x[2] on image 1) in a tight loop.
!
! No synchronisation per read: every image sets x before the first SYNC ALL, then image 1 reads
! x[2] n times per call, summing the values (which also keeps the reads from being optimised
! away). Images other than 1 take no part. The value is microseconds per get, median of NREP
! repetitions. Verification: every call's sum equals n * x[2].
program get_latency
  use bench_util
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none
  integer(int64) :: x[*]
  integer :: iters, rep
  real(real64) :: t0, elapsed, times(NREP)
  logical :: ok

  call check(num_images() >= 2, 'get_latency needs at least 2 images')
  x = 1000_int64 * this_image() + 7
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
    times(rep) = (wtime() - t0) / iters
  end do
  sync all
  call check(ok, 'get_latency: wrong sum of remote values')
  call report('get_latency', median(times) * 1e6_real64, 'us')

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer(int64) :: s
    integer :: k
    if (this_image() /= 1) return
    s = 0
    do k = 1, n
      s = s + x[2]
    end do
    ok = ok .and. s == int(n, int64) * 2007_int64
  end subroutine run

end program get_latency
