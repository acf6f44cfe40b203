! Stress: 20000*STRESS_SCALE round trips between images 1 and 2 (2*10^5 with STRESS_SCALE=10),
! each a coindexed write plus EVENT POST one way and back; every value arrives, and resident
! memory does not grow (at most 1 MiB between the first and the last thousand round trips).
! test: images 2
! test: vary FERROCAF_EVENTS=atomic,p2p,notified
! test: requires steady-memory
! test: count 2 PASS
! test: timeout 300
program stress_pingpong
  use iso_fortran_env, only: event_type
  implicit none
  type(event_type) :: ev[*]
  integer :: x[*], trips, k, me, rss0, seen
  real :: t0

  me = this_image()
  trips = 20000 * scale()
  x = 0
  sync all
  t0 = seconds()
  rss0 = 0
  do k = 1, trips
    if (k == 1000) rss0 = rss_kib()
    if (me == 1) then
      x[2] = k
      event post (ev[2])
      event wait (ev)
      seen = x
    else
      event wait (ev)
      seen = x
      x[1] = seen
      event post (ev[1])
    end if
    if (seen /= k) then
      print '(a,i0,a,i0)', 'FAIL round trip ', k, ' saw ', seen
      error stop 1
    end if
  end do
  if (rss_kib() - rss0 > 1024) then
    print '(a,i0,a,i0,a)', 'FAIL resident memory grew from ', rss0, ' to ', rss_kib(), ' KiB'
    error stop 1
  end if
  print '(a,i0,a,f8.3,a)', 'PASS ', trips, ' round trips in ', seconds() - t0, ' s'

contains

  include 'stress_common.inc'

end program stress_pingpong
