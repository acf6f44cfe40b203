! Tests: STOP 3 on every image ends the program with exit status 3 and `STOP 3` on stderr.
! test: images 1 3
! test: exit 3
! test: stderr STOP 3
! test: forbid ERROR STOP
program stop_code_all
  implicit none
  sync all
  stop 3
end program stop_code_all
