! Tests: names associated with coarrays by ASSOCIATE and by CHANGE TEAM's coarray association,
! which gfortran 16 registers as new tokens over the existing memory (register type 9,
! MAP_EXISTING). Atomic subroutines on a coindexed associate name reach the right element of
! the right image: a section starting inside a static coarray, a strided section, a section of
! an allocatable coarray, inside a team with team image indices; a loop associates the same
! memory many times. END TEAM frees none of the associated coarrays.
! test: images 2 3 4
! test: gfortran >= 16
! test: count {n} PASS
! test: forbid FAIL on
program map_existing_gcc16
  use iso_fortran_env, only: atomic_int_kind, team_type
  implicit none
  integer(atomic_int_kind), save :: a(10)[*]
  integer(atomic_int_kind), allocatable :: b(:)[:]
  integer(atomic_int_kind) :: v
  type(team_type) :: parity
  integer :: me, n, nxt, prv, i, p, tn, tk

  me = this_image()
  n = num_images()
  nxt = mod(me, n) + 1
  prv = mod(me + n - 2, n) + 1
  a = 0
  allocate(b(6)[*])
  b = 0
  sync all

  associate (w => a(3:6))
    call atomic_define(w(2)[nxt], int(me, atomic_int_kind))
  end associate
  associate (w => a(1:9:2))
    call atomic_define(w(3)[nxt], int(10 * me, atomic_int_kind))
  end associate
  associate (w => b(2:5))
    call atomic_define(w(4)[nxt], int(100 * me, atomic_int_kind))
  end associate
  do i = 1, 200
    associate (w => a(7:))
      call atomic_add(w(1)[nxt], 1_atomic_int_kind)
    end associate
  end do
  sync all
  call check(a(4) == prv, 'ASSOCIATE with a section: a(4)')
  call check(a(5) == 10 * prv, 'ASSOCIATE with a strided section: a(5)')
  call check(b(5) == 100 * prv, 'ASSOCIATE with a section of an allocatable coarray: b(5)')
  call check(a(7) == 200, 'ASSOCIATE in a loop: a(7)')
  call check(all(a([1, 2, 3, 6, 8, 9, 10]) == 0), 'ASSOCIATE wrote outside its element')
  call atomic_ref(v, a(4)[nxt])
  call check(v == me, 'the coindexed element read back through the coarray')

  p = mod(me - 1, 2) + 1
  form team (p, parity)
  change team (parity, x => a(8:10), y => b(1:2))
    tn = num_images()
    tk = this_image()
    call atomic_define(x(2)[mod(tk, tn) + 1], int(1000 + tk, atomic_int_kind))
    call atomic_define(y(1)[mod(tk, tn) + 1], int(2000 + tk, atomic_int_kind))
    sync all
    call check(a(9) == 1000 + mod(tk + tn - 2, tn) + 1, 'CHANGE TEAM association: team image index')
    call check(b(1) == 2000 + mod(tk + tn - 2, tn) + 1, 'CHANGE TEAM association of b')
  end team
  sync all
  b(6) = 7                  ! b's memory survived END TEAM (the association is no allocation)
  deallocate(b)
  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program map_existing_gcc16
