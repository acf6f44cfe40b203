! attach_pingpong: ping-pong of notified puts (ferrocaf's event_attach), for 8 B to 1 MiB, and
! beside it, in the same run, the same ping-pong with put + EVENT POST.
! Needs `use ferrocaf_ext`: ferrocaf only (compare.py skips OpenCoarrays for it).
!
! Method (results attach_pingpong_<size>): every image attaches ev to x (event_attach), so a put
! into x notifies ev on the target. Image 1 puts `size` bytes into x(1:k)[2] (no EVENT POST);
! image 2 waits for ev, checks the first and last element, puts the payload back into
! x(1:k)[1]; image 1 waits and checks. One iteration is a round trip; the value is half of it
! (one notified put + wait), in microseconds, median of NREP repetitions, the same sizes as
! event_pingpong, 8 B, 64 B, 512 B, 4 KiB, 32 KiB, 256 KiB and 1 MiB. Results
! attach_post_<size>: event_pingpong's loop (put into y, which nothing is attached to, then
! EVENT POST of a second event), its repetitions taking turns with the attached ones (which of
! the two goes first alternates), with the same iteration count, so that compare.py compares
! the two run by run. Optional second argument: the largest size in bytes. Images 3..N take no
! part.
program attach_pingpong
  use bench_util
  use, intrinsic :: iso_fortran_env, only: int64, real64, event_type
  use ferrocaf_ext, only: event_attach, event_detach
  implicit none
  integer, parameter :: MAXK = 131072                       ! 1 MiB of REAL(8)
  integer, parameter :: SIZES(7) = [1, 8, 64, 512, 4096, 32768, 131072]
  character(len=*), parameter :: NAMES(7) = [character(len=6) :: '8B', '64B', '512B', '4KiB', &
                                              '32KiB', '256KiB', '1MiB']
  real(real64) :: x(MAXK)[*], y(MAXK)[*]
  type(event_type) :: ev[*], ev2[*]
  real(real64), allocatable :: src(:)
  integer :: iters, rep, me, s, k, maxbytes, stat, turn
  real(real64) :: t0, elapsed, times(NREP), posted(NREP)
  logical :: ok
  character(len=32) :: arg

  me = this_image()
  call check(num_images() >= 2, 'attach_pingpong needs at least 2 images')
  maxbytes = 8 * MAXK
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *, iostat=stat) maxbytes
  end if
  allocate (src(MAXK))
  src = 0
  x = 0
  y = 0
  ok = .true.
  call event_attach(ev, x)
  do s = 1, size(SIZES)
    k = SIZES(s)
    if (8 * k > maxbytes) exit
    sync all
    iters = 0
    elapsed = 0
    do while (warming(iters, elapsed))
      t0 = wtime()
      call run(iters)
      elapsed = wtime() - t0
    end do
    call run_post(iters)
    do rep = 1, NREP
      do turn = 0, 1
        t0 = wtime()
        if (mod(rep + turn, 2) == 0) then
          call run(iters)
          times(rep) = (wtime() - t0) / (2.0_real64 * iters)
        else
          call run_post(iters)
          posted(rep) = (wtime() - t0) / (2.0_real64 * iters)
        end if
      end do
    end do
    sync all
    call check(ok, 'attach_pingpong: wrong value received')
    call report('attach_pingpong_' // trim(NAMES(s)), median(times) * 1e6_real64, 'us')
    call report('attach_post_' // trim(NAMES(s)), median(posted) * 1e6_real64, 'us')
  end do
  call event_detach(ev, x)

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer :: i
    do i = 1, n
      if (me == 1) then
        src(1) = i; src(k) = i
        x(1:k)[2] = src(1:k)
        event wait (ev)
        ok = ok .and. x(1) == i .and. x(k) == i
      else if (me == 2) then
        event wait (ev)
        ok = ok .and. x(1) == i .and. x(k) == i
        x(1:k)[1] = x(1:k)
      end if
    end do
  end subroutine run

  subroutine run_post(n)
    integer, intent(in) :: n
    integer :: i
    do i = 1, n
      if (me == 1) then
        src(1) = i; src(k) = i
        y(1:k)[2] = src(1:k)
        event post (ev2[2])
        event wait (ev2)
        ok = ok .and. y(1) == i .and. y(k) == i
      else if (me == 2) then
        event wait (ev2)
        ok = ok .and. y(1) == i .and. y(k) == i
        y(1:k)[1] = y(1:k)
        event post (ev2[1])
      end if
    end do
  end subroutine run_post

end program attach_pingpong
