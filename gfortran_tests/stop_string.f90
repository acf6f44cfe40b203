! Tests: STOP 'done' ends with exit status 0 and prints `STOP done`.
! test: images 2
! test: stderr STOP done
program stop_string
  implicit none
  sync all
  stop 'done'
end program stop_string
