! event_pingpong: ping-pong of a put plus EVENT POST, for payloads of 8 B to 1 MiB.
!
! Method (results event_pingpong_<size>): image 1 puts `size` bytes into x(1:k)[2] and executes
! EVENT POST (ev[2]); image 2 waits for ev, checks the first and last element, puts the payload
! back into x(1:k)[1] and posts ev[1]; image 1 waits and checks. One iteration is a round trip;
! the value is half of it (one put + post + wait), in microseconds, median of NREP repetitions,
! for sizes 8 B, 64 B, 512 B, 4 KiB, 32 KiB, 256 KiB and 1 MiB (8 B and 256 KiB are compared with
! bench/raw/pingpong.c). Optional second argument: the largest size in bytes (e.g. 8 to measure
! only 8 B, as compare.py does for each FERROCAF_EVENTS strategy). Images 3..N take no part.
program event_pingpong
  use bench_util
  use, intrinsic :: iso_fortran_env, only: int64, real64, event_type
  implicit none
  integer, parameter :: MAXK = 131072                       ! 1 MiB of REAL(8)
  integer, parameter :: SIZES(7) = [1, 8, 64, 512, 4096, 32768, 131072]
  character(len=*), parameter :: NAMES(7) = [character(len=6) :: '8B', '64B', '512B', '4KiB', &
                                              '32KiB', '256KiB', '1MiB']
  real(real64) :: x(MAXK)[*]
  type(event_type) :: ev[*]
  real(real64), allocatable :: src(:)
  integer :: iters, rep, me, s, k, maxbytes, stat
  real(real64) :: t0, elapsed, times(NREP)
  logical :: ok
  character(len=32) :: arg

  me = this_image()
  call check(num_images() >= 2, 'event_pingpong needs at least 2 images')
  maxbytes = 8 * MAXK
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *, iostat=stat) maxbytes
  end if
  allocate (src(MAXK))
  src = 0
  x = 0
  ok = .true.
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
    do rep = 1, NREP
      t0 = wtime()
      call run(iters)
      times(rep) = (wtime() - t0) / (2.0_real64 * iters)
    end do
    sync all
    call check(ok, 'event_pingpong: wrong value received')
    call report('event_pingpong_' // trim(NAMES(s)), median(times) * 1e6_real64, 'us')
  end do

contains

  subroutine run(n)
    integer, intent(in) :: n
    integer :: i
    do i = 1, n
      if (me == 1) then
        src(1) = i; src(k) = i
        x(1:k)[2] = src(1:k)
        event post (ev[2])
        event wait (ev)
        ok = ok .and. x(1) == i .and. x(k) == i
      else if (me == 2) then
        event wait (ev)
        ok = ok .and. x(1) == i .and. x(k) == i
        x(1:k)[1] = x(1:k)
        event post (ev[1])
      end if
    end do
  end subroutine run

end program event_pingpong
