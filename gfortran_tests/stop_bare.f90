! Tests: a bare STOP after work ends with exit status 0 and prints no STOP message.
! test: images 2 4
! test: count {n} before stop
! test: forbid STOP
program stop_bare
  implicit none
  print '(a,i0)', 'before stop ', this_image()
  sync all
  stop
  print *, 'after stop'   ! never reached
end program stop_bare
