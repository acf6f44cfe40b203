! ferrocaf_ext: ferrocaf's notified-access extension for Fortran programs.
!
!   use ferrocaf_ext
!   call event_attach(ev, x)            ! every put into x on image j now posts ev on image j
!   event wait (ev, until_count=k)      ! returns once k such puts have landed and are visible
!   call event_detach(ev, x)
!
!   call notify_put(x(1:n), j, buf, tag)           ! x(1:n)[j] = buf, then notify image j
!   req = notify_init(FERROCAF_ANY_SOURCE, tag, count)
!   call notify_start(req); call notify_wait(req, source, tag_seen); call notify_free(req)
!
! When x is a whole coarray (or a whole derived-type coarray), every put statement into it posts
! ev once, even one that writes no element (an empty section) or writes an allocatable
! component's data; when only part of a coarray is attached, a put posts ev if it writes some
! byte of that part.
! Event and attached arguments are passed as assumed-type dummies: gfortran 12 accepts an
! EVENT_TYPE actual argument only there. Every image must attach and detach alike.
! The module has interfaces and constants only: no object file to link.
module ferrocaf_ext
  use, intrinsic :: iso_c_binding, only: c_int, c_bool
  implicit none
  private

  !> Wildcard source image for notify_init.
  integer(c_int), parameter, public :: FERROCAF_ANY_SOURCE = -1
  !> Wildcard tag for notify_init.
  integer(c_int), parameter, public :: FERROCAF_ANY_TAG = -1
  !> event_attach mode: notify on puts only (the default).
  integer(c_int), parameter, public :: FERROCAF_ATTACH_PUTS = 0
  !> event_attach mode: notify on puts and on gets (the buffer may be overwritten).
  integer(c_int), parameter, public :: FERROCAF_ATTACH_PUTS_AND_GETS = 1

  public :: event_attach, event_detach, notify_put, notify_get
  public :: notify_init, notify_start, notify_test, notify_wait, notify_free

  interface
    !> Attach event ev to coarray (section) x on every image.
    subroutine event_attach(ev, x, stat, mode) bind(C, name="ferrocaf_event_attach")
      import :: c_int
      type(*) :: ev
      type(*), dimension(..) :: x
      integer(c_int), optional, intent(out) :: stat
      integer(c_int), optional, intent(in) :: mode
    end subroutine

    !> Undo one event_attach(ev, x).
    subroutine event_detach(ev, x, stat) bind(C, name="ferrocaf_event_detach")
      import :: c_int
      type(*) :: ev
      type(*), dimension(..) :: x
      integer(c_int), optional, intent(out) :: stat
    end subroutine

    !> x(...)[image] = src, then notify image with tag (tag >= 0).
    subroutine notify_put(x, image, src, tag, stat) bind(C, name="ferrocaf_notify_put")
      import :: c_int
      type(*), dimension(..) :: x
      integer(c_int), value :: image
      type(*), dimension(..), intent(in) :: src
      integer(c_int), value :: tag
      integer(c_int), optional, intent(out) :: stat
    end subroutine

    !> dst = x(...)[image], then tell image (with tag) that its buffer was read.
    subroutine notify_get(dst, x, image, tag, stat) bind(C, name="ferrocaf_notify_get")
      import :: c_int
      type(*), dimension(..) :: dst
      type(*), dimension(..), intent(in) :: x
      integer(c_int), value :: image
      integer(c_int), value :: tag
      integer(c_int), optional, intent(out) :: stat
    end subroutine

    !> A persistent request for count notifications matching source and tag (or wildcards).
    function notify_init(source, tag, count, stat) result(req) bind(C, name="ferrocaf_notify_init")
      import :: c_int
      integer(c_int), value :: source, tag, count
      integer(c_int), optional, intent(out) :: stat
      integer(c_int) :: req
    end function

    !> Arm a request.
    subroutine notify_start(req, stat) bind(C, name="ferrocaf_notify_start")
      import :: c_int
      integer(c_int), value :: req
      integer(c_int), optional, intent(out) :: stat
    end subroutine

    !> flag = whether the request completed; source/tag of the last match.
    subroutine notify_test(req, flag, source, tag, stat) bind(C, name="ferrocaf_notify_test")
      import :: c_int, c_bool
      integer(c_int), value :: req
      logical(c_bool), intent(out) :: flag
      integer(c_int), optional, intent(out) :: source, tag, stat
    end subroutine

    !> Wait (sleeping) until the request completes.
    subroutine notify_wait(req, source, tag, stat) bind(C, name="ferrocaf_notify_wait")
      import :: c_int
      integer(c_int), value :: req
      integer(c_int), optional, intent(out) :: source, tag, stat
    end subroutine

    !> Delete a request.
    subroutine notify_free(req, stat) bind(C, name="ferrocaf_notify_free")
      import :: c_int
      integer(c_int), value :: req
      integer(c_int), optional, intent(out) :: stat
    end subroutine
  end interface
end module ferrocaf_ext
