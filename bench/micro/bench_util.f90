! bench_util: shared helpers for the micro-benchmarks in bench/micro/.
!
! Every benchmark program is compiled together with this file. It provides
!   wtime()          wall-clock seconds from system_clock with an int64 count (ns resolution
!                    with gfortran), portable across runtimes (no MPI_Wtime);
!   warming(n, t)    collective warm-up loop driver: run(n) is called for n = 1, 2, 4, ... until
!                    image 1 spent WARM seconds in one call, then n becomes (on every image) the
!                    count that makes one call last about TARGET seconds on image 1. Both times are
!                    multiplied by the optional first command-line argument (a real, e.g. 0.1
!                    for a smoke run; default 1);
!   median(v)        median of a small array of repetition results;
!   report(...)      the one machine-readable line "RESULT <name> <images> <value> <unit>",
!                    printed by image 1 only;
!   check(ok, what)  verification: prints "VERIFY FAILED <what>" and error-stops when ok is false.
!
! Convention for every benchmark: an internal subroutine run(n) performs n operations (images
! that take no part do nothing in it); the warming loop warms up and picks n; then NREP timed calls
! of run(n), each giving the mean time per operation; the reported value is the MEDIAN over the
! repetitions (bandwidths are computed from that median time). Calibrating by time keeps every
! run near NREP * TARGET seconds whether an operation costs 50 ns or 50 ms.
module bench_util
  use, intrinsic :: iso_fortran_env, only: int64, real64, output_unit
  implicit none
  private
  public :: wtime, warming, median, report, check, NREP

  !> Timed repetitions per benchmark; the median is reported.
  integer, parameter :: NREP = 5
  !> Seconds of one warm-up call that end the warm-up, and of one timed call (before scaling).
  real(real64), parameter :: WARM = 0.03_real64, TARGET = 0.2_real64
  !> Bounds on the chosen operation count per timed call.
  integer, parameter :: MIN_OPS = 1, MAX_OPS = 2000000


contains

  !> Wall-clock time in seconds.
  function wtime() result(t)
    real(real64) :: t
    integer(int64) :: count, rate
    call system_clock(count, rate)
    t = real(count, real64) / real(rate, real64)
  end function wtime

  !> The optional command-line time factor (default 1).
  function factor() result(f)
    real(real64) :: f
    integer :: stat
    character(len=32) :: arg
    f = 1.0_real64
    if (command_argument_count() >= 1) then
      call get_command_argument(1, arg)
      read (arg, *, iostat=stat) f
      if (stat /= 0 .or. f <= 0) f = 1.0_real64
    end if
  end function factor

  !> Collective warm-up and choice of the per-call operation count, used as
  !>     iters = 0; elapsed = 0
  !>     do while (warming(iters, elapsed))
  !>       t0 = wtime(); call run(iters); elapsed = wtime() - t0
  !>     end do
  !> Each call after the first broadcasts image 1's elapsed time (so every image decides the
  !> same) and either doubles iters (warm-up goes on) or sets the final count and returns false.
  function warming(iters, elapsed) result(again)
    integer, intent(inout) :: iters
    real(real64), intent(in) :: elapsed
    logical :: again
    real(real64) :: per_op, shared_time
    integer :: shared_count
    again = .true.
    if (iters == 0) then
      iters = 1
      return
    end if
    ! A collective rather than coindexed stores: gfortran 16 leaves the accessors of coindexed
    ! references in module procedures undefined at link time.
    shared_time = elapsed
    shared_count = iters
    call co_broadcast(shared_time, 1)
    call co_broadcast(shared_count, 1)
    call check(shared_count == iters, 'warming: images disagree on the warm-up count')
    if (shared_time < WARM * factor() .and. iters < MAX_OPS) then
      iters = 2 * iters
      return
    end if
    per_op = max(shared_time, 1e-9_real64) / iters
    iters = int(min(real(MAX_OPS, real64), max(real(MIN_OPS, real64), TARGET * factor() / per_op)))
    again = .false.
  end function warming

  !> Median of v (v is copied and insertion-sorted; it is small).
  function median(v) result(m)
    real(real64), intent(in) :: v(:)
    real(real64) :: m, s(size(v)), x
    integer :: i, j
    s = v
    do i = 2, size(s)
      x = s(i)
      j = i - 1
      do while (j >= 1)
        if (s(j) <= x) exit
        s(j + 1) = s(j)
        j = j - 1
      end do
      s(j + 1) = x
    end do
    if (mod(size(s), 2) == 1) then
      m = s(size(s) / 2 + 1)
    else
      m = 0.5_real64 * (s(size(s) / 2) + s(size(s) / 2 + 1))
    end if
  end function median

  !> Prints the RESULT line from image 1.
  subroutine report(name, value, unit)
    character(len=*), intent(in) :: name, unit
    real(real64), intent(in) :: value
    if (this_image() /= 1) return
    write (output_unit, '(a,1x,a,1x,i0,1x,es14.6,1x,a)') 'RESULT', name, num_images(), value, unit
    flush (output_unit)
  end subroutine report

  !> Stops the whole job with a clear message if a verification failed.
  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    if (.not. ok) then
      write (output_unit, '(a,1x,a,1x,a,i0)') 'VERIFY FAILED', what, 'on image ', this_image()
      flush (output_unit)
      error stop 1
    end if
  end subroutine check

end module bench_util
