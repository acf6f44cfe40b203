! get_bandwidth: bandwidth of a 1 MiB contiguous get, b(:) = a(:)[2] on image 1.
!
! Every image fills a with its own pattern before the first SYNC ALL; image 1 does n gets per
! call (a get is complete when it returns, so no synchronisation is timed). The value is GB/s
! (1e9 bytes/s) from the median time per get of NREP repetitions. Image 1 verifies every
! element of the last get of every call. Images other than 1 take no part.
program get_bandwidth
  use bench_util
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  integer, parameter :: n_elems = 131072 ! 1 MiB of real(8)
  real(real64), allocatable :: a(:)[:]
  real(real64) :: b(n_elems), t0, elapsed, times(NREP)
  integer :: iters, rep, k
  logical :: ok

  call check(num_images() >= 2, 'get_bandwidth needs at least 2 images')
  allocate (a(n_elems)[*])
  a = [(real(k * this_image(), real64), k = 1, n_elems)]
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
  call check(ok, 'get_bandwidth: wrong data from image 2')
  call report('get_bandwidth_1MiB', 8.0_real64 * n_elems / median(times) / 1e9_real64, 'GB/s')

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer :: i
    if (this_image() /= 1) return
    b = 0
    do i = 1, n
      b = a(:)[2]
    end do
    ok = ok .and. all(b == [(real(2 * k, real64), k = 1, n_elems)])
  end subroutine run

end program get_bandwidth
