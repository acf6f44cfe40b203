! lock_unlock: LOCK/UNLOCK of one lock on image 1 by every image (maximal contention).
!
! Method (result lock_unlock_contended): each image executes n times
!     lock (lk[1]); count[1] = count[1] + 1; unlock (lk[1])
! then SYNC ALL. The value is the time per critical section as seen by one image (elapsed time
! of image 1 / n, every image competing), in microseconds, median of NREP repetitions. Verified:
! the count equals the number of critical sections (no lost update, so mutual exclusion held).
program lock_unlock_bench
  use bench_util
  use, intrinsic :: iso_fortran_env, only: int64, real64, lock_type
  implicit none
  type(lock_type) :: lk[*]
  integer(int64) :: count[*], total
  integer :: iters, rep
  real(real64) :: t0, elapsed, times(NREP)

  count = 0
  total = 0
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
  if (this_image() == 1) call check(count == total * num_images(), 'lock_unlock: lost update')
  sync all
  call report('lock_unlock_contended', median(times) * 1e6_real64, 'us')

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer :: i
    do i = 1, n
      lock (lk[1])
      count[1] = count[1] + 1
      unlock (lk[1])
    end do
    total = total + n
    sync all
  end subroutine run

end program lock_unlock_bench
