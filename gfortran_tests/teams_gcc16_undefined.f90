! Tests: SYNC TEAM without STAT= of a team variable FORM TEAM never defined ends the program
! with one line naming the problem (gfortran 16 passes team values; this one is checked against
! the teams the runtime made before it is used).
! test: images 2
! test: gfortran >= 16
! test: exit nonzero
! test: stderr the team variable is undefined: no FORM TEAM or GET_TEAM defined it (SYNC TEAM)
! test: forbid panicked
! test: forbid reached
program teams_gcc16_undefined
  use iso_fortran_env, only: team_type
  implicit none
  type(team_type) :: never
  sync team (never)
  print '(a)', 'reached'
end program teams_gcc16_undefined
