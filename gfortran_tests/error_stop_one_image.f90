! Tests: ERROR STOP 7 on one image while the others wait in SYNC ALL ends all images promptly
! with exit status 7 and `ERROR STOP 7` on stderr (the waiters never get past the barrier).
! test: images 2 4
! test: exit 7
! test: stderr ERROR STOP 7
! test: forbid got past
! test: timeout 20
program error_stop_one_image
  implicit none
  if (this_image() == num_images()) then
    error stop 7
  end if
  sync all
  print *, 'got past the barrier'
end program error_stop_one_image
