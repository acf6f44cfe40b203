! attach_pingpong: ping-pong of notified puts (ferrocaf's event_attach), for 8 B to 1 MiB.
! Needs `use ferrocaf_ext`: ferrocaf only (compare.py skips OpenCoarrays for it).
!
! Method (results attach_pingpong_<size>): every image attaches ev to x (event_attach), so a put
! into x notifies ev on the target. Image 1 puts `size` bytes into x(1:k)[2] (no EVENT POST);
! image 2 waits for ev, checks the first and last element, puts the payload back into
! x(1:k)[1]; image 1 waits and checks. One iteration is a round trip; the value is half of it
! (one notified put + wait), in microseconds, median of NREP repetitions, the same sizes as
! event_pingpong,
! 8 B, 64 B, 512 B, 4 KiB, 32 KiB, 256 KiB and 1 MiB. Optional second argument: the largest
! size in bytes. Images 3..N take no part.
program attach_pingpong
  use bench_util
  use, intrinsic :: iso_fortran_env, only: int64, real64, event_type
  use ferrocaf_ext, only: event_attach, event_detach
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
  call check(num_images() >= 2, 'attach_pingpong needs at least 2 images')
  maxbytes = 8 * MAXK
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg)
    read (arg, *, iostat=stat) maxbytes
  end if
  allocate (src(MAXK))
  src = 0
  x = 0
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
    do rep = 1, NREP
      t0 = wtime()
      call run(iters)
      times(rep) = (wtime() - t0) / (2.0_real64 * iters)
    end do
    sync all
    call check(ok, 'attach_pingpong: wrong value received')
    call report('attach_pingpong_' // trim(NAMES(s)), median(times) * 1e6_real64, 'us')
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

end program attach_pingpong
