! Tests: GCC 16's team entry points. FORM TEAM with NEW_INDEX= (a variable giving the reverse of
! the default order; and a constant, which gfortran 16.2 passes through one more indirection),
! THIS_IMAGE(team) and NUM_IMAGES(team) before and inside CHANGE TEAM, NUM_IMAGES(TEAM_NUMBER)
! of the initial team (-1), of the own and of the sibling team, GET_TEAM() and GET_TEAM with
! INITIAL_TEAM, PARENT_TEAM and CURRENT_TEAM, TEAM_NUMBER of each (the initial team's is -1),
! IMAGE_STATUS/FAILED_IMAGES/STOPPED_IMAGES with TEAM=, SYNC TEAM of the current and of an
! ancestor team, CO_SUM inside, and the initial team restored after END TEAM.
! No coarrays: the program links without the remote-accessor entry points.
! test: images 2 3 4 8
! test: gfortran >= 16
! test: count {n} PASS
! test: forbid FAIL on
program teams_gcc16
  use iso_fortran_env, only: team_type, initial_team, parent_team, current_team
  implicit none
  type(team_type) :: parity, single, initial, parent, current
  integer :: me, n, p, k, tsize, total

  me = this_image()
  n = num_images()
  p = mod(me - 1, 2) + 1              ! team 1: odd images, team 2: even images
  tsize = (n + 2 - p) / 2             ! images in this image's team
  k = tsize - (me - p) / 2            ! NEW_INDEX=: the reverse of the default order

  form team (p, parity, new_index=k)
  call check(this_image(parity) == k, 'THIS_IMAGE(team) is not NEW_INDEX= before CHANGE TEAM')
  call check(num_images(parity) == tsize, 'NUM_IMAGES(team) before CHANGE TEAM')
  call check(team_number(parity) == p, 'TEAM_NUMBER(team)')
  call check(team_number() == -1, 'TEAM_NUMBER() of the initial team is not -1')
  initial = get_team(initial_team)
  call check(team_number(initial) == -1, 'TEAM_NUMBER(GET_TEAM(INITIAL_TEAM)) is not -1')
  call check(num_images(-1) == n, 'NUM_IMAGES(-1) in the initial team')
  parent = get_team(parent_team)
  call check(team_number(parent) == -1, 'GET_TEAM(PARENT_TEAM) of the initial team')

  change team (parity)
    call check(this_image() == k, 'THIS_IMAGE() inside is not NEW_INDEX=')
    call check(num_images() == tsize, 'NUM_IMAGES() inside')
    call check(team_number() == p, 'TEAM_NUMBER() inside')
    current = get_team()
    call check(team_number(current) == p .and. this_image(current) == k, 'GET_TEAM()')
    current = get_team(current_team)
    call check(team_number(current) == p .and. num_images(current) == tsize, &
               'GET_TEAM(CURRENT_TEAM)')
    parent = get_team(parent_team)
    call check(team_number(parent) == -1 .and. this_image(parent) == me &
               .and. num_images(parent) == n, 'GET_TEAM(PARENT_TEAM)')
    initial = get_team(initial_team)
    call check(num_images(initial) == n .and. this_image(initial) == me, &
               'GET_TEAM(INITIAL_TEAM) inside')
    call check(num_images(-1) == n, 'NUM_IMAGES(-1) inside')
    call check(num_images(p) == tsize, 'NUM_IMAGES(own team number)')
    call check(num_images(3 - p) == (n + 2 - (3 - p)) / 2, 'NUM_IMAGES(sibling team number)')
    call check(image_status(k, team=parity) == 0, 'IMAGE_STATUS(TEAM=team)')
    call check(image_status(n, team=initial) == 0, 'IMAGE_STATUS(TEAM=initial team)')
    call check(size(failed_images(parity)) == 0, 'FAILED_IMAGES(team)')
    call check(size(stopped_images(initial)) == 0, 'STOPPED_IMAGES(initial team)')
    sync team (parity)
    sync team (initial)
    total = k
    call co_sum(total)
    call check(total == tsize * (tsize + 1) / 2, 'CO_SUM over the team')

    form team (k, single, new_index=1)
    change team (single)
      call check(this_image() == 1 .and. num_images() == 1 .and. team_number() == k, &
                 'a team of one image formed with the constant NEW_INDEX=1')
      parent = get_team(parent_team)
      call check(team_number(parent) == p .and. this_image(parent) == k, &
                 'GET_TEAM(PARENT_TEAM) two levels down')
      initial = get_team(initial_team)
      call check(team_number(initial) == -1 .and. this_image(initial) == me, &
                 'GET_TEAM(INITIAL_TEAM) two levels down')
    end team
    call check(team_number() == p .and. this_image() == k, 'after the inner END TEAM')
  end team

  call check(team_number() == -1 .and. this_image() == me .and. num_images() == n, &
             'the initial team after END TEAM')
  sync all
  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program teams_gcc16
