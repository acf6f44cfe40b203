! sync_all: time per SYNC ALL, every image taking part.
!
! run(n) is n back-to-back SYNC ALLs on every image; image 1 reports the median over NREP
! repetitions of its time per barrier, in microseconds. Verification (after timing, untimed):
! 50 rounds of "x = round; SYNC ALL; x[right neighbour] must equal round; SYNC ALL" — a
! barrier that lets an image through early fails this.
program sync_all_bench
  use bench_util
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none
  integer(int64) :: x[*]
  integer :: iters, rep, k, right
  real(real64) :: t0, elapsed, times(NREP)
  logical :: ok

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

  right = merge(1, this_image() + 1, this_image() == num_images())
  ok = .true.
  do k = 1, 50
    x = k
    sync all
    ok = ok .and. x[right] == k
    sync all
  end do
  call check(ok, 'sync_all: a neighbour was not at the same barrier')
  call report('sync_all', median(times) * 1e6_real64, 'us')

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer :: i
    do i = 1, n
      sync all
    end do
  end subroutine run

end program sync_all_bench
