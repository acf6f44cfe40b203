! Tests: ERROR STOP 4, QUIET=.TRUE. on image 1 gives exit status 4 and no ERROR STOP message.
! test: images 2
! test: exit 4
! test: forbid ERROR STOP
! test: timeout 20
program error_stop_quiet
  implicit none
  if (this_image() == 1) error stop 4, quiet=.true.
  sync all
end program error_stop_quiet
