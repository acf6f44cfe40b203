! Tests: image selectors with TEAM= and TEAM_NUMBER= in coindexed references compiled into
! accessors (Fortran 2018 9.6): inside CHANGE TEAM, x[k] is image k of the current team,
! x[k, team=half] image k of an ancestor team, x[k, team_number=-1] image k of the initial
! team and x[k, team_number=t] image k of the sibling team t. Also a copy between two images of
! the current team.
! test: images 4
! test: gfortran >= 15
! test: count {n} PASS
program accessor_teams
  use iso_fortran_env, only: team_type
  implicit none
  type(team_type) :: half, solo
  integer :: x[*], y[*], me, n, k, got
  me = this_image()
  n = num_images()
  x = 100 * me
  y = 0
  form team (1 + mod(me - 1, 2), half)
  sync all
  change team (half)
    ! team 1 holds the odd initial images, team 2 the even ones, in order
    k = 1 + mod(this_image(), num_images())
    got = x[k]
    call check(got == 100 * (2 * (k - 1) + team_number()), 'x[k] in the current team')
    ! TEAM_NUMBER= of the other team formed by the same FORM TEAM (a sibling)
    got = x[2, team_number=3 - team_number()]
    call check(got == 100 * (5 - team_number()), 'x[k, team_number=sibling]')
    if (this_image() == 1) y[2] = x[1]
    sync all
    if (this_image() == 2) call check(y == 100 * team_number(), 'copy within the team')
    form team (this_image(), solo)
    change team (solo)
      ! a team of one image; its parent is half
      got = x[2, team=half]
      call check(got == 100 * (2 + team_number_of_half()), 'x[k, team=ancestor]')
      got = x[n, team_number=-1]
      call check(got == 100 * n, 'x[k, team_number=-1]')
    end team
  end team
  print '(a,i0)', 'PASS ', me

contains

  ! number of the half team this image belongs to (1: odd initial images, 2: even ones)
  integer function team_number_of_half()
    team_number_of_half = 1 + mod(me - 1, 2)
  end function team_number_of_half

  include 'check.inc'

end program accessor_teams
