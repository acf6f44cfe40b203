! Tests: ERROR STOP with a character code on one image: exit status 1 (as a serial gfortran
! program), the message on stderr, and the other images (waiting in SYNC ALL) are ended.
! test: images 2 3
! test: exit 1
! test: stderr ERROR STOP bad input on the last image
! test: timeout 20
program error_stop_string
  implicit none
  if (this_image() == num_images()) error stop 'bad input on the last image'
  sync all
  print *, 'got past the barrier'
end program error_stop_string
