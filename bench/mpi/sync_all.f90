! SYNC ALL on any number of images, for any coarray runtime (ferrocaf, OpenCoarrays): one
! untimed SYNC ALL, then the timed loop. Image 1 prints microseconds per SYNC ALL. The first
! argument, if any, is the number of iterations (default 20000).
program sync_all_bench
  use iso_fortran_env, only: int64
  implicit none
  integer :: iters, i
  integer(int64) :: t0, t1, rate
  character(len=16) :: arg
  iters = 20000
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) iters
  end if
  sync all
  call system_clock(t0, rate)
  do i = 1, iters
    sync all
  end do
  call system_clock(t1)
  if (this_image() == 1) print '(a, i0, a, f10.2, a)', 'sync all, ', num_images(), &
    ' images', real(t1 - t0) / real(rate) / iters * 1e6, ' us'
end program sync_all_bench
