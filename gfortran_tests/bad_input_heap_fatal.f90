! Tests: an ALLOCATE larger than the symmetric heap without STAT= ends the program with one line
! naming FERROCAF_HEAP_SIZE and a non-zero status (no panic, no hang).
! test: images 1 2
! test: env FERROCAF_HEAP_SIZE=16M
! test: exit nonzero
! test: stderr raise FERROCAF_HEAP_SIZE
! test: forbid got past
! test: timeout 20
program bad_input_heap_fatal
  implicit none
  real, allocatable :: z(:)[:]
  allocate (z(100000000)[*])
  print *, 'got past'
end program bad_input_heap_fatal
