! Tests: a vector subscript outside the coarray's bounds is an error, not a wild access:
! the program ends with a message naming the bad subscript.
! test: images 2
! test: gfortran <= 14
! test: exit nonzero
! test: stderr out of bounds
! test: forbid got past
! test: timeout 20
program vector_subscript_out_of_range
  implicit none
  integer :: a(4, 3)[*], got(2), idx(2)
  a = 1
  idx = [2, 5]
  sync all
  got = a(idx, 1)[2]
  print *, 'got past the bad read', got
end program vector_subscript_out_of_range
