! Tests: an image STOPs inside a team. Its teammates see STAT_STOPPED_IMAGE from SYNC ALL and
! CO_SUM inside the team and then stop; the other team is unaffected (its SYNC ALL, CO_SUM and
! END TEAM succeed) and, back in the initial team, sees STAT_STOPPED_IMAGE from SYNC ALL.
! test: images 4 8
! test: count {n} DONE
! test: forbid FAIL on
program teams_stopped
  use iso_fortran_env, only: team_type, stat_stopped_image
  implicit none
  type(team_type) :: parity
  integer :: me, n, tn, st, s, i

  me = this_image()
  n = num_images()
  tn = 2 - mod(me, 2)
  form team (tn, parity)
  change team (parity)
    if (tn == 1) then
      if (this_image() == num_images()) then
        print '(a,i0)', 'DONE (stopping in the odd team) ', me
        stop
      end if
      sync all (stat=st)
      call check(st == stat_stopped_image, 'odd team: sync all')
      s = 1
      call co_sum(s, stat=st)
      call check(st == stat_stopped_image, 'odd team: co_sum')
      print '(a,i0)', 'DONE odd team ', me
      stop
    end if
    do i = 1, 20
      sync all (stat=st)
      call check(st == 0, 'even team: sync all disturbed by the odd team')
      s = 1
      call co_sum(s, stat=st)
      call check(st == 0 .and. s == num_images(), 'even team: co_sum')
    end do
  end team
  sync all (stat=st)
  call check(st == stat_stopped_image, 'initial team: sync all after END TEAM')
  print '(a,i0)', 'DONE even team ', me

contains

  include 'check.inc'

end program teams_stopped
