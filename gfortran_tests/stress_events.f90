! Stress: every image posts 25000*STRESS_SCALE events to one event on image 1 (10^5 in all on 4
! images; 10^6 with STRESS_SCALE=10), which waits for all of them with one UNTIL_COUNT: the
! count is exact (nothing lost, nothing left), for every event strategy.
! test: images 4
! test: vary FERROCAF_EVENTS=atomic,p2p,notified
! test: count 1 PASS
! test: timeout 300
program stress_events
  use iso_fortran_env, only: event_type
  implicit none
  type(event_type) :: ev[*]
  integer :: per, k, cnt
  real :: t0

  per = 25000 * scale()
  sync all
  t0 = seconds()
  do k = 1, per
    event post (ev[1])
  end do
  if (this_image() == 1) then
    event wait (ev, until_count=per * num_images())
    call event_query(ev, cnt)
    if (cnt /= 0) then
      print '(a,i0)', 'FAIL events left over: ', cnt
      error stop 1
    end if
    print '(a,i0,a,f8.3,a)', 'PASS ', per * num_images(), ' posts in ', seconds() - t0, ' s'
  end if
  sync all
  if (this_image() == 1) then
    call event_query(ev, cnt)
    if (cnt /= 0) error stop 'a post arrived after the wait'
  end if

contains

  include 'stress_common.inc'

end program stress_events
