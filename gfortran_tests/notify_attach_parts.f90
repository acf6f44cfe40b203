! Notified access into objects attached in parts: each event is posted when the put writes some
! of its bytes, whatever the value written (also the value already there), and never when the
! put writes elsewhere. Elements of an array of a derived type with an allocatable component,
! each attached on its own: a put into an element's component posts that element's event; a
! put into the allocatable component's data (which lies outside the element's bytes) posts
! none, and works (gfortran 15+ find the written bytes by running the receiver on copies of
! the object, which must keep the descriptor it follows). Columns of a 1 MiB array attached
! to two events (its copies are prepared page by page as the receiver touches them, and whole
! after many pages): puts into a column, beside them, and over the whole array. One event
! attached to two parts of an array: a put into both posts it once.
! test: images 2 3
! test: vary FERROCAF_EVENTS=atomic,p2p,notified
! test: stdout PASS
! test: timeout 60
program notify_attach_parts
  use, intrinsic :: iso_fortran_env, only: event_type
  use ferrocaf_ext
  implicit none
  type :: holder
    real(8) :: s
    real(8), allocatable :: a(:)
    integer :: k
  end type
  ! The events, by what they are attached to: the halves of z, the elements of o, the columns
  ! of big, two parts of t.
  integer, parameter :: lo = 1, hi = 2, e1 = 3, e2 = 4, ca = 5, cb = 6, tw = 7
  type(event_type) :: ev(7)[*]
  real(8) :: z(64)[*], v(64), big(256, 512)[*], w(256, 512), t(32)[*]
  type(holder) :: o(2)[*]
  integer :: me, n, right, k
  me = this_image(); n = num_images()
  right = merge(1, me + 1, me == n)
  z = 0; v = [(real(me * 100 + k, 8), k = 1, 64)]
  o(1)%s = 0; o(2)%s = 0; o(1)%k = 0; o(2)%k = 0
  allocate (o(1)%a(10), o(2)%a(4))
  o(1)%a = 0; o(2)%a = 0

  call event_attach(ev(lo), z(1:32))
  call event_attach(ev(hi), z(33:64))
  call event_attach(ev(e1), o(1))
  call event_attach(ev(e2), o(2))
  big = 0
  w = me
  call event_attach(ev(ca), big(:, 1))
  call event_attach(ev(cb), big(:, 512))
  t = 0
  call event_attach(ev(tw), t(1:8))
  call event_attach(ev(tw), t(17:24))
  sync all

  ! The value already there is written too.
  z(5)[right] = 0
  call expect(lo, 1, 'put of the value already there: its half')
  call expect(hi, 0, 'put of the value already there: not the other half')
  z(40:41)[right] = [0d0, 0d0]
  call expect(lo, 0, 'section put of the values already there: not the other half')
  call expect(hi, 1, 'section put of the values already there: its half')
  z(6)[right] = v(6)
  call expect(lo, 1, 'put of a new value')
  z(6)[right] = v(6)
  call expect(lo, 1, 'put of the same value again')
  call expect(hi, 0, 'puts into the first half: not the second')
  call check(z(6) == v(6) - 100 * (me - prev()), 'scalar put landed')

  ! Elements of a derived type with an allocatable component, each attached on its own.
  o(1)[right]%s = me
  call expect(e1, 1, 'put into the first element''s component')
  call expect(e2, 0, 'put into the first element: not the second''s event')
  o(2)[right]%k = 0
  call expect(e1, 0, 'put of the value already there into the second element: not the first''s')
  call expect(e2, 1, 'put of the value already there into the second element')
  o(1)[right]%a(3) = me
  call expect(e1, 0, 'put into the allocatable component''s data (outside the element)')
  o(2)[right]%a(:) = v(1:4)
  call expect(e2, 0, 'put into the whole allocatable component''s data (outside the element)')
  o(2)[right]%s = me
  call expect(e1, 0, 'put into the second element: not the first''s event')
  call expect(e2, 1, 'put into the second element''s component')
  call check(o(1)%s == prev() .and. o(2)%s == prev() .and. o(1)%a(3) == prev() .and. &
             all(o(2)%a == v(1:4) - 100 * (me - prev())), 'component puts landed')
  call check(o(1)%a(1) == 0 .and. size(o(1)%a) == 10 .and. size(o(2)%a) == 4, &
             'the descriptors are untouched')

  ! Columns of a large array.
  big(3, 1)[right] = me
  call expect(ca, 1, 'put into the first attached column')
  call expect(cb, 0, 'put into the first attached column: not the last''s event')
  big(3, 1)[right] = me
  call expect(ca, 1, 'put of the value already there into the first attached column')
  big(1:64, 512)[right] = v(1:64)
  call expect(ca, 0, 'put into part of the last column: not the first''s event')
  call expect(cb, 1, 'put into part of the last column')
  big(7, 300)[right] = me
  big(1:256:5, 2:511:3)[right] = me
  call expect(ca, 0, 'puts between the attached columns: not the first''s event')
  call expect(cb, 0, 'puts between the attached columns: not the last''s event')
  call check(big(3, 1) == prev() .and. big(7, 300) == prev() .and. big(6, 5) == prev() .and. &
             all(big(1:64, 512) == v(1:64) - 100 * (me - prev())), 'large puts landed')
  sync all
  big(:, :)[right] = w
  call expect(ca, 1, 'put into the whole array: the first column''s event')
  call expect(cb, 1, 'put into the whole array: the last column''s event')
  call check(all(big == prev()), 'the whole-array put landed')

  ! One event attached to two parts of t.
  t(:)[right] = v(1:32)
  call expect(tw, 1, 'put into both parts of one event: posted once')
  t(9:16)[right] = v(9:16)
  call expect(tw, 0, 'put between the two parts: not posted')
  t(8:17)[right] = -v(8:17)
  call expect(tw, 1, 'put into the end of one part and the start of the other: posted once')
  call check(all(t(1:7) == v(1:7) - 100 * (me - prev())) .and. &
             all(t(8:17) == -(v(8:17) - 100 * (me - prev()))), 'the puts into t landed')

  call event_detach(ev(ca), big(:, 1))
  call event_detach(ev(cb), big(:, 512))
  call event_detach(ev(tw), t(1:8))
  call event_detach(ev(tw), t(17:24))
  call event_detach(ev(lo), z(1:32))
  call event_detach(ev(hi), z(33:64))
  call event_detach(ev(e1), o(1))
  call event_detach(ev(e2), o(2))
  sync all
  if (me == 1) print '(a)', 'PASS'
contains
  !> The image whose puts land here.
  integer function prev()
    prev = merge(n, me - 1, me == 1)
  end function

  !> After every image's put: event `which` (one of lo .. tw) was posted `count` times here;
  !> then consumes the posts.
  subroutine expect(which, count, what)
    integer, intent(in) :: which, count
    character(*), intent(in) :: what
    integer :: c
    sync all
    call event_query(ev(which), c)
    if (c > 0) event wait (ev(which), until_count=c)
    call check(c == count, what)
    sync all
  end subroutine

  include 'check.inc'
end program
