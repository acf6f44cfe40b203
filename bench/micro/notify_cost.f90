! notify_cost: what a notified put costs its sender, without the cache-line transfers of a
! ping-pong (which on a shared machine drown differences of tens of nanoseconds).
! Needs `use ferrocaf_ext`: ferrocaf only.
!
! Method: every image puts 8 bytes into its own coarray, coindexed (x(1:1)[me]), and posts an
! event on itself, in a loop; nobody waits, so the loop measures the instructions and fences of
! the runtime's path only. Results, in microseconds per operation, median of NREP repetitions
! (the two modes timed in turns):
!   notify_cost_put_post  the put, then EVENT POST (ev[me])
!   notify_cost_attached  the put into memory attached to the event (event_attach): the runtime
!                         posts the event itself
! Optional second argument: a fixed iteration count instead of the time-based calibration (for
! counting instructions per operation under `valgrind --tool=callgrind`, where time says little).
! At the end each image consumes all its posts (EVENT WAIT with UNTIL_COUNT, which would hang if
! an attached put had not posted).
program notify_cost
  use bench_util
  use, intrinsic :: iso_fortran_env, only: int64, real64, event_type
  use ferrocaf_ext, only: event_attach, event_detach
  implicit none
  real(real64) :: x(8)[*], y(8)[*]
  type(event_type) :: ev[*], at[*]
  integer :: iters, rep, me, mode, step, n(2)
  integer(int64) :: posted(2)
  real(real64) :: t0, elapsed, times(NREP, 2)
  integer :: fixed, stat
  character(len=32) :: arg

  me = this_image()
  x = 0
  y = 0
  posted = 0
  fixed = 0
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *, iostat=stat) fixed
  end if
  call event_attach(at, y)
  ! Calibrate each mode, then time them in turns (a machine shared with other work drifts).
  do mode = 1, 2
    sync all
    if (fixed > 0) then
      iters = fixed
    else
      iters = 0
      elapsed = 0
      do while (warming(iters, elapsed))
        t0 = wtime()
        call run(iters)
        elapsed = wtime() - t0
      end do
    end if
    n(mode) = iters
  end do
  do rep = 1, NREP
    do mode = 1, 2
      t0 = wtime()
      call run(n(mode))
      times(rep, mode) = (wtime() - t0) / n(mode)
    end do
  end do
  call report('notify_cost_put_post', median(times(:, 1)) * 1e6_real64, 'us')
  call report('notify_cost_attached', median(times(:, 2)) * 1e6_real64, 'us')
  do while (posted(1) > 0)
    step = int(min(posted(1), int(huge(step), int64)))
    event wait (ev, until_count=step)
    posted(1) = posted(1) - step
  end do
  do while (posted(2) > 0)
    step = int(min(posted(2), int(huge(step), int64)))
    event wait (at, until_count=step)
    posted(2) = posted(2) - step
  end do
  call event_detach(at, y)
  call check(x(1) > 0 .and. y(1) > 0, 'notify_cost: the puts did not arrive')
  sync all

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer :: i
    real(real64) :: v(1)
    do i = 1, n
      v(1) = i
      if (mode == 1) then
        x(1:1)[me] = v
        event post (ev[me])
      else
        y(1:1)[me] = v
      end if
      posted(mode) = posted(mode) + 1
    end do
  end subroutine run

end program notify_cost
