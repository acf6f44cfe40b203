! attach_parts: what a put costs its sender when it lands in an object attached in parts
! (ferrocaf's event_attach of sections, two events per object), and beside it, in the same run,
! the same put into an object nothing is attached to, followed by EVENT POST.
! Needs `use ferrocaf_ext`: ferrocaf only (compare.py skips OpenCoarrays for it).
!
! Method: image 2 holds REAL(8) coarrays attached in halves, each half to its own event; image 1
! puts into them, a new value every put (the count of puts so far), in a loop; image 2 waits
! for the end. Results, in microseconds per put, median of NREP repetitions:
!   attach_parts_8KiB      zs(7)[2] = v, zs(1024) attached as zs(1:512) and zs(513:1024)
!   attach_parts_8MiB      zl(7)[2] = v, zl(1048576) attached as its two halves
!   attach_parts_row_8MiB  zr(7, :)[2] = row, zr(1024, 1024) attached in column halves,
!                          zr(:, 1:512) and zr(:, 513:1024): one page per element, both events
! With gfortran 15 and 16 the runtime finds the attachments a put writes by running its receiver
! on shadows of the object (bench/NOTES.md, "event_attach into large objects attached in
! parts"); gfortran 12 names the bytes. Twins parts_post_<case>: the same put into an array of
! the same shape that nothing is attached to, then EVENT POST of a third event on image 2, its
! repetitions taking turns with the attached ones (which of the two goes first alternates),
! with the same iteration count, so that compare.py compares the two run by run. Image 1 counts
! the posts it expects of each event; after each case image 2 consumes them (EVENT WAIT with
! UNTIL_COUNT, which would hang if a put had not posted), checks that no event holds more and
! that the last values arrived where they should and nowhere else. Images 3..N take no part.
program attach_parts
  use bench_util
  use, intrinsic :: iso_fortran_env, only: int64, real64, event_type
  use ferrocaf_ext, only: event_attach, event_detach
  implicit none
  integer, parameter :: N = 1024, HALF = N / 2, NL = N * N
  ! The cases, and the events by what they count: the two attached halves, EVENT POST.
  integer, parameter :: SMALL = 1, LARGE = 2, ROWS = 3
  integer, parameter :: E_LO = 1, E_HI = 2, E_POST = 3
  character(len=*), parameter :: NAMES(3) = [character(len=8) :: '8KiB', '8MiB', 'row_8MiB']
  real(real64) :: zs(N)[*], ys(N)[*], zl(NL)[*], yl(NL)[*], zr(N, N)[*], yr(N, N)[*]
  type(event_type) :: ev(3)[*]
  real(real64) :: row(N), t0, elapsed, times(NREP), posted(NREP)
  integer(int64) :: posts(3)
  integer :: iters, rep, me, kase, turn

  me = this_image()
  call check(num_images() >= 2, 'attach_parts needs at least 2 images')
  zs = 0; ys = 0; zl = 0; yl = 0; zr = 0; yr = 0
  do kase = SMALL, ROWS
    posts = 0
    call attach(.true.)
    sync all
    iters = 0
    elapsed = 0
    do while (warming(iters, elapsed))
      t0 = wtime()
      call run(iters, .true.)
      elapsed = wtime() - t0
    end do
    call run(iters, .false.)
    do rep = 1, NREP
      do turn = 0, 1
        t0 = wtime()
        if (mod(rep + turn, 2) == 0) then
          call run(iters, .true.)
          times(rep) = (wtime() - t0) / iters
        else
          call run(iters, .false.)
          posted(rep) = (wtime() - t0) / iters
        end if
      end do
    end do
    call co_broadcast(posts, 1)
    if (me == 2) call consume()
    sync all
    call attach(.false.)
    call report('attach_parts_' // trim(NAMES(kase)), median(times) * 1e6_real64, 'us')
    call report('parts_post_' // trim(NAMES(kase)), median(posted) * 1e6_real64, 'us')
  end do

contains

  !> Attaches (or detaches) the halves of this case's object to ev(E_LO) and ev(E_HI).
  subroutine attach(on)
    logical, intent(in) :: on
    select case (kase)
    case (SMALL)
      if (on) then
        call event_attach(ev(E_LO), zs(1:HALF))
        call event_attach(ev(E_HI), zs(HALF + 1:N))
      else
        call event_detach(ev(E_LO), zs(1:HALF))
        call event_detach(ev(E_HI), zs(HALF + 1:N))
      end if
    case (LARGE)
      if (on) then
        call event_attach(ev(E_LO), zl(1:NL / 2))
        call event_attach(ev(E_HI), zl(NL / 2 + 1:NL))
      else
        call event_detach(ev(E_LO), zl(1:NL / 2))
        call event_detach(ev(E_HI), zl(NL / 2 + 1:NL))
      end if
    case (ROWS)
      if (on) then
        call event_attach(ev(E_LO), zr(:, 1:HALF))
        call event_attach(ev(E_HI), zr(:, HALF + 1:N))
      else
        call event_detach(ev(E_LO), zr(:, 1:HALF))
        call event_detach(ev(E_HI), zr(:, HALF + 1:N))
      end if
    end select
  end subroutine attach

  !> n puts into image 2's attached object, or (not `attached`) into its unattached twin, each
  !> then followed by EVENT POST (image 1 only).
  subroutine run(n, attached)
    integer, intent(in) :: n
    logical, intent(in) :: attached
    integer :: i, e
    real(real64) :: v
    if (me /= 1) return
    e = merge(E_LO, E_POST, attached)
    do i = 1, n
      posts(e) = posts(e) + 1
      v = real(posts(e), real64)
      select case (kase)
      case (SMALL)
        if (attached) then
          zs(7)[2] = v
        else
          ys(7)[2] = v
        end if
      case (LARGE)
        if (attached) then
          zl(7)[2] = v
        else
          yl(7)[2] = v
        end if
      case (ROWS)
        row = v
        if (attached) then
          zr(7, :)[2] = row
          posts(E_HI) = posts(E_HI) + 1
        else
          yr(7, :)[2] = row
        end if
      end select
      if (.not. attached) event post (ev(E_POST)[2])
    end do
  end subroutine run

  !> Image 2: waits for every post image 1 counted, in chunks an EVENT WAIT's UNTIL_COUNT can
  !> name; checks that none is left over and where the last values landed.
  subroutine consume()
    integer(int64) :: left
    integer :: e, step, extra
    real(real64) :: a, b
    do e = E_LO, E_POST
      left = posts(e)
      do while (left > 0)
        step = int(min(left, int(huge(step), int64)))
        event wait (ev(e), until_count=step)
        left = left - step
      end do
      call event_query(ev(e), extra)
      call check(extra == 0, 'attach_parts: an event was posted more often than expected')
    end do
    a = real(posts(E_LO), real64)
    b = real(posts(E_POST), real64)
    select case (kase)
    case (SMALL)
      call check(zs(7) == a .and. ys(7) == b .and. zs(6) == 0 .and. ys(8) == 0, &
                 'attach_parts: the 8 KiB puts did not land')
    case (LARGE)
      call check(zl(7) == a .and. yl(7) == b .and. zl(6) == 0 .and. yl(8) == 0, &
                 'attach_parts: the 8 MiB puts did not land')
    case (ROWS)
      call check(all(zr(7, :) == a) .and. all(yr(7, :) == b) .and. all(zr(6, :) == 0) .and. &
                 all(yr(8, :) == 0), 'attach_parts: the row puts did not land')
    end select
  end subroutine consume

end program attach_parts
