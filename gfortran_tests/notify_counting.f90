! Counted puts (over libfabric with FI_RMA_EVENT: puts into memory attached to the first
! attached event increment the target's counter): counts that must come out exact when posts
! arrive as counted puts, as notified puts and as EVENT POSTs together. Two sections attached to
! the counted event, a second event (not counted), partial waits, a put into the own image, a
! strided put, detach of one section and of all.
! test: images 2 3 4
! test: vary FERROCAF_EVENTS=atomic,p2p,notified
! test: stdout PASS
! test: timeout 90
program notify_counting
  use, intrinsic :: iso_fortran_env, only: event_type
  use ferrocaf_ext
  implicit none
  integer, parameter :: k = 20
  type(event_type) :: ev[*], ev2[*]
  real(8) :: a(16)[*], b(8)[*], c(8)[*], v(10)
  integer :: me, n, i, right, cnt
  me = this_image(); n = num_images()
  right = merge(1, me + 1, me == n)
  a = 0; b = 0; c = 0

  call event_attach(ev, a(1:10))
  call event_attach(ev, b)
  call event_attach(ev2, c)
  sync all

  ! k puts into each attached section of the right neighbour; k into the second event's
  ! (contiguous array to contiguous array: the puts that travel as counted or notified puts).
  do i = 1, k
    v = i
    a(1:10)[right] = v
    v = -i
    b(:)[right] = v(1:8)
    v = 2 * i
    c(:)[right] = v(1:8)
  end do
  event wait (ev, until_count=2*k)
  call check(all(a(1:10) == k) .and. all(b == -k), 'counted puts landed before their count')
  call event_query(ev, cnt)
  call check(cnt == 0, 'every put into the counted event counted once')
  sync all
  call event_query(ev2, cnt)
  call check(cnt == k, 'puts into the second event counted there only')
  event wait (ev2, until_count=k)
  call check(all(c == 2 * k), 'second event puts landed')
  sync all

  ! Counted puts and EVENT POSTs add up; waits take part of them.
  a(1)[right] = 1
  event post (ev[right])
  a(2)[right] = 2
  event post (ev[right])
  a(3)[right] = 3
  sync all
  call event_query(ev, cnt)
  call check(cnt == 5, 'three counted puts and two posts make five')
  event wait (ev)
  call event_query(ev, cnt)
  call check(cnt == 4, 'a wait takes one')
  event wait (ev, until_count=3)
  call event_query(ev, cnt)
  call check(cnt == 1, 'a wait takes three')
  event wait (ev)
  call event_query(ev, cnt)
  call check(cnt == 0, 'all taken')
  sync all

  ! A put into the own image's attached memory, and a strided put, count too.
  a(5)[me] = 7
  a(1:10:3)[right] = 9
  sync all
  call event_query(ev, cnt)
  call check(cnt == 2, 'own-image put and strided put counted')
  call check(a(5) == 7 .and. a(4) == 9, 'own-image and strided data')
  event wait (ev, until_count=2)
  sync all

  ! Detaching one section: puts into it stop counting, the other section still counts.
  call event_detach(ev, b)
  sync all
  b(1)[right] = 1
  a(1)[right] = 1
  sync all
  call event_query(ev, cnt)
  call check(cnt == 1, 'only the still-attached section counts')
  event wait (ev)
  call event_detach(ev, a(1:10))
  call event_detach(ev2, c)
  sync all
  a(1)[right] = 2
  c(1)[right] = 2
  sync all
  call event_query(ev, cnt)
  call check(cnt == 0, 'detached puts do not count')
  call event_query(ev2, cnt)
  call check(cnt == 0, 'detached puts do not notify the second event')
  call check(a(1) == 2 .and. c(1) == 2, 'detached puts landed')
  sync all
  if (me == 1) print '(a)', 'PASS'
contains
  include 'check.inc'
end program
