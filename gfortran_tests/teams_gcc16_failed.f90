! Tests: a failed image seen through gfortran 16's TEAM= arguments. The last image fails inside
! its team; its teammates see STAT_FAILED_IMAGE from SYNC ALL, IMAGE_STATUS and FAILED_IMAGES in
! team numbering (no TEAM=, TEAM= the team) and in initial-team numbering (TEAM= the value
! GET_TEAM(INITIAL_TEAM) gave); END TEAM with STAT= still returns them to the initial team,
! where every surviving image sees the failed image by its initial index.
! test: images 4
! test: gfortran >= 16
! test: count 3 PASS
! test: forbid FAIL on
program teams_gcc16_failed
  use iso_fortran_env, only: team_type, initial_team, stat_failed_image
  implicit none
  type(team_type) :: parity, initial
  integer :: me, n, p, s
  integer, allocatable :: f(:)

  me = this_image()
  n = num_images()
  p = mod(me - 1, 2) + 1
  form team (p, parity)
  initial = get_team(initial_team)
  change team (parity)
    if (me == n) fail image
    if (p == 2) then
      sync all (stat=s)
      call check(s == stat_failed_image, 'SYNC ALL in the team of the failed image')
      call check(image_status(2) == stat_failed_image, 'IMAGE_STATUS in team numbering')
      call check(image_status(2, team=parity) == stat_failed_image, 'IMAGE_STATUS(TEAM=team)')
      call check(image_status(n, team=initial) == stat_failed_image, &
                 'IMAGE_STATUS(TEAM=initial team)')
      call check(image_status(1, team=parity) == 0, 'IMAGE_STATUS of a live teammate')
      f = failed_images()
      call check(size(f) == 1, 'FAILED_IMAGES() size')
      call check(f(1) == 2, 'FAILED_IMAGES() is not in team numbering')
      f = failed_images(parity)
      call check(size(f) == 1, 'FAILED_IMAGES(team) size')
      call check(f(1) == 2, 'FAILED_IMAGES(team)')
      f = failed_images(initial)
      call check(size(f) == 1, 'FAILED_IMAGES(initial team) size')
      call check(f(1) == n, 'FAILED_IMAGES(initial team) is not in initial numbering')
      call check(size(stopped_images(parity)) == 0, 'STOPPED_IMAGES(team)')
    end if
  end team (stat=s)
  call check(team_number() == -1 .and. this_image() == me, 'END TEAM with a failed member')
  sync all (stat=s)
  call check(s == stat_failed_image, 'SYNC ALL in the initial team')
  f = failed_images(initial)
  call check(size(f) == 1, 'FAILED_IMAGES(initial team) size after END TEAM')
  call check(f(1) == n, 'FAILED_IMAGES(initial team) after END TEAM')
  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program teams_gcc16_failed
