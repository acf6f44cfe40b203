! co_sum: latency of CO_SUM of one REAL(8) over all images (result on every image).
!
! Method (result co_sum_8B): n calls of co_sum(x) with x = this_image(); the value is the time
! per call on image 1, in microseconds, median of NREP repetitions. Every result is checked
! against num_images()*(num_images()+1)/2.
program co_sum_bench
  use bench_util
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  integer :: iters, rep
  real(real64) :: t0, elapsed, times(NREP), want
  logical :: ok

  want = 0.5_real64 * num_images() * (num_images() + 1)
  ok = .true.
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
  call check(ok, 'co_sum: wrong sum')
  call report('co_sum_8B', median(times) * 1e6_real64, 'us')

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer :: i
    real(real64) :: x
    do i = 1, n
      x = this_image()
      call co_sum(x)
      ok = ok .and. x == want
    end do
  end subroutine run

end program co_sum_bench
