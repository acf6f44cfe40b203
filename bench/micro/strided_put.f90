! strided_put: a(1:200000:2)[2] = b, i.e. 100000 doubles with stride 2, from image 1.
!
! One call of run(n) is n strided puts and one SYNC IMAGES pair; the value is microseconds per
! put (median of NREP repetitions; the closing pair is amortised over n). After the timing
! (untimed) image 1 puts a fresh pattern once more and image 2 verifies the odd elements and
! that every even element was left untouched. Images 3..N take no part.
program strided_put
  use bench_util
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  integer, parameter :: n_elems = 100000
  real(real64), allocatable :: a(:)[:]
  real(real64) :: b(n_elems), t0, elapsed, times(NREP)
  integer :: iters, rep, k, me

  me = this_image()
  call check(num_images() >= 2, 'strided_put needs at least 2 images')
  allocate (a(2 * n_elems)[*])
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

  b = [(real(5 * k + 2, real64), k = 1, n_elems)]
  call run(1)
  if (me == 2) then
    call check(all(a(1:2 * n_elems:2) == [(real(5 * k + 2, real64), k = 1, n_elems)]), &
               'strided_put: wrong data in the odd elements on image 2')
    call check(all(a(2:2 * n_elems:2) == -1), 'strided_put: even elements overwritten on image 2')
  end if
  sync all
  call report('strided_put_100k', median(times) * 1e6_real64, 'us')

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer :: i
    if (me == 1) then
      do i = 1, n
        a(1:2 * n_elems:2)[2] = b
      end do
      sync images (2)
    else if (me == 2) then
      sync images (1)
    end if
  end subroutine run

end program strided_put
