! Tests: two coindexed references whose accessors have the same hash. gfortran 15+ names each
! accessor by the SDBM hash (modulo 10^8) of "<program>__caf_accessor_main_<variable>_<n>";
! the variable names below were found by brute force so that the accessors of da0a[2] (n = 1)
! and edj[2] (n = 2) collide (hash 18203711). GCC's runtimes would silently call one accessor
! for the other; ferrocaf refuses with a one-line error naming the hash.
! test: images 2
! test: gfortran >= 15
! test: exit nonzero
! test: stderr same accessor hash 18203711
! test: forbid got past
! test: forbid panicked
! test: timeout 20
program accessor_collision
  implicit none
  integer :: da0a[*], edj[*], got
  da0a = 1
  edj = 2
  sync all
  if (this_image() == 1) then
    got = da0a[2]
    got = got + edj[2]
    print *, 'got past the colliding reads', got
  end if
  sync all
end program accessor_collision
