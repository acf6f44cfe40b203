! Tests: STAT=/ERRMSG= on gfortran 16's team statements: an error fills ERRMSG= and returns
! instead of ending the program (gfortran 16.2 passes a copy of the STAT= variable, so the
! program sees only ERRMSG=). FORM TEAM with a team number that is not positive on one image
! (every image reports it, none waits for it), with NEW_INDEX= values that are not 1 to n, and
! SYNC TEAM of a team variable FORM TEAM never defined; afterwards FORM/CHANGE/SYNC/END TEAM
! with STAT= and ERRMSG= succeed and leave ERRMSG= untouched.
! test: images 2 3
! test: gfortran >= 16
! test: count {n} PASS
! test: forbid FAIL on
program teams_gcc16_errmsg
  use iso_fortran_env, only: team_type
  implicit none
  type(team_type) :: t, never
  integer :: me, n, number, s
  character(len=120) :: msg

  me = this_image()
  n = num_images()

  number = merge(0, 1, me == n)
  msg = ''
  form team (number, t, stat=s, errmsg=msg)
  call check(index(msg, 'not positive') > 0, 'FORM TEAM with team number 0: ' // msg)

  msg = ''
  form team (1, t, new_index=n + 1, stat=s, errmsg=msg)
  call check(index(msg, 'NEW_INDEX') > 0, 'FORM TEAM with NEW_INDEX= out of range: ' // msg)

  msg = ''
  sync team (never, stat=s, errmsg=msg)
  call check(index(msg, 'undefined') > 0, 'SYNC TEAM of an undefined team: ' // msg)

  msg = 'untouched'
  form team (1, t, new_index=me, stat=s, errmsg=msg)
  change team (t, stat=s, errmsg=msg)
    sync team (t, stat=s, errmsg=msg)
    call check(this_image() == me .and. num_images() == n, 'the team formed after the errors')
  end team (stat=s, errmsg=msg)
  call check(msg == 'untouched', 'ERRMSG= changed by a team statement that succeeded: ' // msg)
  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program teams_gcc16_errmsg
