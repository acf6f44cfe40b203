! put_bandwidth: bandwidth of a 1 MiB contiguous put, a(:)[2] = b(:) from image 1.
!
! One call of run(n) is n puts followed by one SYNC IMAGES pair, so the data are complete and
! visible on image 2 inside the timed region. The value is bytes moved / time in GB/s
! (1e9 bytes/s), from the median time per put of NREP repetitions. After the timing (untimed)
! image 1 puts a fresh pattern once more and image 2 verifies all of it. Images 3..N take no part.
program put_bandwidth
  use bench_util
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  integer, parameter :: n_elems = 131072 ! 1 MiB of real(8)
  real(real64), allocatable :: a(:)[:]
  real(real64) :: b(n_elems), t0, elapsed, times(NREP)
  integer :: iters, rep, k, me

  me = this_image()
  call check(num_images() >= 2, 'put_bandwidth needs at least 2 images')
  allocate (a(n_elems)[*])
  a = -1
  b = [(real(k, real64), k = 1, n_elems)]
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

  b = [(real(3 * k + 1, real64), k = 1, n_elems)]
  call run(1)
  if (me == 2) call check(all(a == [(real(3 * k + 1, real64), k = 1, n_elems)]), &
                          'put_bandwidth: wrong data on image 2')
  sync all
  call report('put_bandwidth_1MiB', 8.0_real64 * n_elems / median(times) / 1e9_real64, 'GB/s')

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer :: i
    if (me == 1) then
      do i = 1, n
        a(:)[2] = b
      end do
      sync images (2)
    else if (me == 2) then
      sync images (1)
    end if
  end subroutine run

end program put_bandwidth
