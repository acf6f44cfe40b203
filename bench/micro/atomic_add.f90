! atomic_add: ATOMIC_ADD from every image to one integer on image 1 (maximal contention).
!
! Method (result atomic_add_all_to_one): each image executes n times
! call atomic_add(counter[1], 1); then SYNC ALL. The value is the time per ATOMIC_ADD as seen by
! one image (elapsed time of image 1 / n, every image adding concurrently), in microseconds,
! median of NREP repetitions. Verified: counter on image 1 equals the number of adds made.
program atomic_add_bench
  use bench_util
  use, intrinsic :: iso_fortran_env, only: int64, real64, atomic_int_kind
  implicit none
  integer(atomic_int_kind) :: counter[*]
  integer(int64) :: total
  integer :: iters, rep
  real(real64) :: t0, elapsed, times(NREP)
  integer(atomic_int_kind) :: got

  counter = 0
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
  if (this_image() == 1) then
    call atomic_ref(got, counter)
    call check(int(got, int64) == total * num_images(), 'atomic_add: wrong final count')
  end if
  sync all
  call report('atomic_add_all_to_one', median(times) * 1e6_real64, 'us')

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer :: i
    do i = 1, n
      call atomic_add(counter[1], 1)
    end do
    total = total + n
    sync all
  end subroutine run

end program atomic_add_bench
