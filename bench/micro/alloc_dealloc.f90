! alloc_dealloc: ALLOCATE + DEALLOCATE of a coarray real(8) :: x(:)[:] of 1000 elements.
!
! Both statements are collective (they imply synchronisation of all images), so every image
! runs the loop; the value is microseconds per allocate/deallocate pair on image 1, median of
! NREP repetitions. Verification (untimed): after the timing one more allocation is filled with
! this_image(), and each image checks x(1000)[right neighbour] and the size of x.
program alloc_dealloc
  use bench_util
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  real(real64), allocatable :: x(:)[:]
  integer :: iters, rep, right
  real(real64) :: t0, elapsed, times(NREP)

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

  allocate (x(1000)[*])
  x = this_image()
  sync all
  right = merge(1, this_image() + 1, this_image() == num_images())
  call check(size(x) == 1000, 'alloc_dealloc: wrong size')
  call check(x(1000)[right] == right, 'alloc_dealloc: wrong data in neighbour allocation')
  sync all
  deallocate (x)
  call report('alloc_dealloc_1000', median(times) * 1e6_real64, 'us')

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer :: i
    do i = 1, n
      allocate (x(1000)[*])
      deallocate (x)
    end do
  end subroutine run

end program alloc_dealloc
