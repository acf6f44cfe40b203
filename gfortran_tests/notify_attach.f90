! Notified access: event_attach. Ping-pong through attached puts, counting with until_count,
! attached sections (puts outside the section do not notify), explicit EVENT POST on an attached
! event, gets notify only in the puts-and-gets mode, detach, and misuse errors.
! test: images 2 3
! test: scalable
! test: vary FERROCAF_EVENTS=atomic,p2p,notified
! test: stdout PASS
! test: timeout 60
program notify_attach
  use, intrinsic :: iso_fortran_env, only: event_type
  use ferrocaf_ext
  implicit none
  type(event_type) :: ev[*], other[*], gev[*]
  real(8) :: x(100)[*], g(8)[*], tmp(8)
  integer :: me, n, k, c, st, right, left
  me = this_image(); n = num_images()
  right = merge(1, me + 1, me == n); left = merge(n, me - 1, me == 1)
  x = 0; g = me

  call event_attach(ev, x(1:50))
  sync all
  ! Ping-pong around the ring: each put lands in x(1:10) of the right neighbour.
  do k = 1, 50
    if (me == 1) then
      x(1:10)[right] = real(k, 8)
      event wait (ev)
      call check(all(x(1:10) == real(k, 8)), 'ring value came back')
    else
      event wait (ev)
      call check(all(x(1:10) == real(k, 8)), 'ring value arrived')
      x(1:10)[right] = x(1:10)
    end if
  end do
  sync all

  ! Counting: every image puts once into each other image; wait for n-1 puts at once.
  do k = 1, n
    if (k /= me) x(me)[k] = real(me, 8)
  end do
  event wait (ev, until_count=n-1)
  do k = 1, n
    if (k /= me) call check(x(k) == k, 'counted put landed')
  end do
  sync all

  ! Outside the attached section: no notification. Explicit post still counts.
  x(60)[right] = 1
  sync all
  call event_query(ev, c)
  call check(c == 0, 'put outside the attached section did not notify')
  sync all
  event post (ev[right])
  event wait (ev)
  sync all

  ! Gets notify only in the puts-and-gets mode.
  call event_attach(gev, g, mode=FERROCAF_ATTACH_PUTS_AND_GETS)
  sync all
  tmp = g(:)[right]
  call check(all(tmp == right), 'get value')
  event wait (gev)
  tmp(1) = g(3)[right]
  call check(tmp(1) == right, 'scalar get value')
  event wait (gev)
  sync all
  call event_query(gev, c)
  call check(c == 0, 'each get notified once')
  sync all
  call event_detach(gev, g)

  ! Misuse is reported through stat=.
  call event_attach(other, x(10:20), stat=st)
  call check(st /= 0, 'overlapping attach to another event is an error')
  call event_attach(ev, tmp, stat=st)
  call check(st /= 0, 'attaching non-coarray memory is an error')
  call event_detach(other, x, stat=st)
  call check(st /= 0, 'detaching what was never attached is an error')

  ! After detach, puts no longer notify.
  call event_detach(ev, x(1:50))
  sync all
  x(1)[right] = 5
  sync all
  call event_query(ev, c)
  call check(c == 0, 'detached puts do not notify')
  call check(x(1) == 5, 'detached put landed')
  sync all
  if (me == 1) print '(a)', 'PASS'
contains
  include 'check.inc'
end program
