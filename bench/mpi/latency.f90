! Latency micro-benchmarks over 2 images, for any coarray runtime (ferrocaf, OpenCoarrays):
! put and get of one integer (blocking, round trip of a coindexed access), the same through an
! allocatable component (c[j]%b(1): send_by_ref/get_by_ref, which first read the remote
! descriptor), event ping-pong (post to the other image, wait for its answer) and SYNC ALL.
! Prints microseconds per operation (ping-pong: per one-way trip). The first argument, if any,
! is the number of iterations of each loop (default 20000).
program latency
  use iso_fortran_env, only: event_type, int64
  implicit none
  integer :: iters
  type box
    integer, allocatable :: b(:)
  end type box
  integer :: x[*], y, i, me, peer
  type(box) :: c[*]
  type(event_type) :: ev[*]
  integer(int64) :: t0, t1, rate
  character(len=16) :: arg
  iters = 20000
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) iters
  end if
  me = this_image()
  peer = 3 - me
  x = 0
  allocate (c%b(4))
  c%b = 0
  sync all
  if (me == 1) then
    call system_clock(t0, rate)
    do i = 1, iters
      x[peer] = i
    end do
    call system_clock(t1)
    call report('put', t0, t1, iters)
    call system_clock(t0)
    do i = 1, iters
      y = x[peer]
    end do
    call system_clock(t1)
    call report('get', t0, t1, iters)
    call system_clock(t0)
    do i = 1, iters
      c[peer]%b(1) = i
    end do
    call system_clock(t1)
    call report('put to a component', t0, t1, iters)
    call system_clock(t0)
    do i = 1, iters
      y = c[peer]%b(1)
    end do
    call system_clock(t1)
    call report('get from a component', t0, t1, iters)
  end if
  sync all
  call system_clock(t0, rate)
  do i = 1, iters
    if (me == 1) then
      event post (ev[peer])
      event wait (ev)
    else
      event wait (ev)
      event post (ev[peer])
    end if
  end do
  call system_clock(t1)
  if (me == 1) call report('event ping-pong (one way)', t0, t1, 2 * iters)
  sync all
  call system_clock(t0)
  do i = 1, iters
    sync all
  end do
  call system_clock(t1)
  if (me == 1) call report('sync all', t0, t1, iters)
contains
  subroutine report(what, a, b, n)
    character(*), intent(in) :: what
    integer(int64), intent(in) :: a, b
    integer, intent(in) :: n
    print '(a30, f10.2, a)', what, real(b - a) / real(rate) / n * 1e6, ' us'
  end subroutine
end program latency
