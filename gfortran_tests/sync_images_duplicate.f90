! Tests: SYNC IMAGES([2, 2]) without STAT= names an image twice (Fortran 2018 11.6.4: an image
! shall not appear more than once), so the program ends with an error message.
! test: images 2 3
! test: exit nonzero
! test: stderr more than once
! test: forbid got past
! test: timeout 20
program sync_images_duplicate
  implicit none
  if (this_image() == 1) then
    sync images ([2, 2])
  end if
  sync all
  print *, 'got past'
end program sync_images_duplicate
