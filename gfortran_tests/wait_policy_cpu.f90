! Tests: FERROCAF_WAIT decides what a long wait costs. Image 2 waits about 1 s in EVENT WAIT
! while image 1 spins on the clock, then posts; both measure their CPU share over that second.
! passive sleeps at once: under 10% of the wait on the CPU; active polls throughout: over 10%,
! or over a quarter of the share the spinning image 1 got beside it (the reference for what a
! busy process gets under the machine's load at the time: tests run side by side on 2 shared
! cores, and other jobs may load them, so a spinner may get well under a tenth of a core; a
! napping wait gets about 1%); auto is printed, not checked.
! test: images 2
! test: vary FERROCAF_WAIT=auto,passive,active
! test: count 1 PASS
! test: forbid FAIL
! test: timeout 30
program wait_policy_cpu
  use iso_fortran_env, only: event_type, int64
  implicit none
  type(event_type) :: ev[*]
  real :: spinner[*]
  character(len=16) :: policy
  integer(int64) :: c0, c1, rate
  real :: t0, t1, share

  call get_environment_variable('FERROCAF_WAIT', policy)
  sync all
  call system_clock(c0, rate)
  call cpu_time(t0)
  if (this_image() == 1) then
    do
      call system_clock(c1)
      if (c1 - c0 >= rate) exit
    end do
    call cpu_time(t1)
    spinner[2] = (t1 - t0) / (real(c1 - c0) / real(rate))
    event post (ev[2])
  else
    event wait (ev)
    call cpu_time(t1)
    call system_clock(c1)
    share = (t1 - t0) / (real(c1 - c0) / real(rate))
    write (*, '(a, a, a, f6.3, a, f6.3, a, f6.3)') 'policy ', trim(policy), ': ', t1 - t0, &
      ' s CPU over ', real(c1 - c0) / real(rate), ' s of wait; the spinner''s share ', spinner
    select case (policy)
    case ('passive')
      if (share >= 0.10) print *, 'FAIL passive wait used the CPU: ', share
    case ('active')
      if (share <= min(0.10, spinner / 4)) print *, 'FAIL active wait did not poll: ', share, spinner
    end select
    if (real(c1 - c0) / real(rate) < 0.5) print *, 'FAIL the wait was too short'
    print *, 'PASS'
  end if
end program wait_policy_cpu
