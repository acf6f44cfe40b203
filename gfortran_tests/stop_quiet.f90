! Tests: STOP 5, QUIET=.TRUE. gives exit status 5 and prints nothing at all (Fortran 2018).
! test: requires supervisor
! test: images 2 3
! test: exit 5
! test: forbid STOP
! test: forbid 5
program stop_quiet
  implicit none
  sync all
  stop 5, quiet=.true.
end program stop_quiet
