! Tests: a coindexed write to image num_images()+1 without STAT= is an error: the program ends
! with a non-zero status and a message saying the index is out of range (not a crash).
! test: images 1 3
! test: exit nonzero
! test: stderr out of range
! test: forbid got past
! test: timeout 20
program image_out_of_range
  implicit none
  integer :: a[*], bad
  bad = num_images() + 1
  a[bad] = 1
  sync all
  print *, 'got past the bad write'
end program image_out_of_range
