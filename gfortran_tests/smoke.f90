! Tests: the smallest program runs on every image.
! test: images 1 3
! test: scalable
! test: count {n} hello
program smoke
  implicit none
  print '(a,i0)', 'hello from ', this_image()
end program smoke
