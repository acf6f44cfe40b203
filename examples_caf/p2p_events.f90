! p2p_events.f90 - PRK Synch_p2p: a pipelined wavefront, synchronised with events.
!
! The grid A(1:M, 1:N) starts with A(i,1) = i-1 and A(1,j) = j-1 and is swept with
!     A(i,j) = A(i-1,j) + A(i,j-1) - A(i-1,j-1)      for i = 2..M, j = 2..N.
! Rows are split into contiguous blocks, one per image; each keeps its block in a plain array
! a(0:rows, N) whose row 0 is the halo row. Image k-1 delivers the row above column by column:
! ghost(j)[k] = a(rows, j), then EVENT POST (arrived[k]); image k waits with EVENT WAIT
! (arrived) before it computes column j. Unlike SYNC IMAGES, a post does not wait for the
! receiver, so the sender runs ahead. Every column has its own ghost cell, and a sweep cannot
! start before the previous one ended on every image (image 1 waits for the corner), so no
! value is overwritten before it is read. After each sweep the last image sends -A(M,N) to
! image 1 (corner[1], EVENT POST (fed[1])), which makes it the new A(1,1).
!
! Check: the recurrence gives A(i,j) = A(i,1) + A(1,j) - A(1,1), so the corner after sweep t
! is (M-1) + (N-1) + corner of sweep t-1, i.e. exactly ITERATIONS * (M+N-2) at the end.
!
!   ferrocaf run -n 4 examples_caf/p2p_events.f90 [ITERATIONS]     (default 20)
! Prints "Success: ..." and "RESULT p2p_events <images> <us per sweep> us".
program p2p_events
  use, intrinsic :: iso_fortran_env, only: int64, real64, event_type
  implicit none
  integer, parameter :: M = 1000, N = 1000
  real(real64), allocatable :: a(:, :)
  real(real64) :: ghost(N)[*], corner[*]
  type(event_type) :: arrived[*], fed[*]
  integer :: me, np, rows, first, iters, it, i, j, ok
  integer(int64) :: t0, t1, rate
  real(real64) :: expected
  character(len=32) :: arg

  me = this_image(); np = num_images()
  iters = 20
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) iters
  end if
  if (np > M - 1) error stop 'p2p_events: more images than grid rows'
  first = (me - 1) * M / np + 1                ! this image's rows: first..first+rows-1
  rows = me * M / np - first + 1
  allocate (a(0:rows, N))
  a = 0
  a(:, 1) = [(real(first - 1 + i - 1, real64), i = 0, rows)]   ! A(i,1) = i-1, halo included
  if (me == 1) a(1, :) = [(real(j - 1, real64), j = 1, N)]       ! A(1,j) = j-1
  corner = 0
  sync all

  call system_clock(t0, rate)
  do it = 1, iters
    do j = 2, N
      if (me > 1) then
        event wait (arrived)                   ! ghost(j) has arrived from the image above
        a(0, j) = ghost(j)
      end if
      do i = merge(2, 1, me == 1), rows
        a(i, j) = a(i - 1, j) + a(i, j - 1) - a(i - 1, j - 1)
      end do
      if (me < np) then
        ghost(j)[me + 1] = a(rows, j)
        event post (arrived[me + 1])
      end if
    end do
    if (me == np) then                         ! feedback: A(1,1) of the next sweep
      corner[1] = -a(rows, N)
      event post (fed[1])
    end if
    if (me == 1) then
      event wait (fed)
      a(1, 1) = corner
    end if
  end do
  sync all
  call system_clock(t1)

  expected = real(iters, real64) * (M + N - 2)
  ok = 1
  if (me == np .and. a(rows, N) /= expected) then
    write (*, '(a, es16.8, a, es16.8)') 'FAILED: corner ', a(rows, N), ' expected ', expected
    ok = 0
  end if
  call co_min(ok)
  if (ok /= 1) error stop 1
  if (me == 1) then
    write (*, '(a, i0, a, i0, a, i0, a, i0, a)') 'Success: p2p_events ', M, 'x', N, &
      ' grid, ', iters, ' sweeps on ', np, ' images, corner value checked'
    write (*, '(a, i0, es14.6, a)') 'RESULT p2p_events ', np, &
      1e6_real64 * real(t1 - t0, real64) / real(rate, real64) / iters, ' us'
  end if
end program p2p_events
