! Tests: coarrays allocated inside a team, in the forms gfortran 16 compiles (it crashes on
! teams_allocate.f90) and with the deallocations it adds itself: at END TEAM gfortran 16
! deregisters every coarray allocated in the construct that is still allocated, then calls
! end_team. The odd and the even team allocate different sizes; one team allocates and frees
! another coarray; b is left for END TEAM. Coarrays allocated afterwards in the initial team
! land at the same place on every image: every image writes into its right neighbour's
! coarrays and checks what its left neighbour wrote.
! test: images 2 3 4
! test: gfortran >= 16
! test: scalable
! test: count {n} PASS
! test: forbid FAIL on
program teams_allocate_gcc16
  use iso_fortran_env, only: team_type
  implicit none
  type(team_type) :: parity
  integer :: me, n, tn, left, right, i
  integer, allocatable :: a(:)[:], b(:)[:], c(:)[:], d(:)[:]
  real(8), allocatable :: e(:,:)[:]

  me = this_image()
  n = num_images()
  tn = 2 - mod(me, 2)
  allocate (a(10)[*])                     ! allocated before the team, lives through it
  a = me
  form team (tn, parity)
  change team (parity)
    allocate (b(merge(1000, 3, tn == 1))[*])
    b = this_image()
    if (tn == 2) then
      allocate (e(50, 50)[*])
      e = 1
      deallocate (e)
    end if
    sync all
    call check(b(size(b))[num_images()] == num_images(), 'team coarray')
  end team
  call check(.not. allocated(b), 'END TEAM did not deallocate b')
  call check(allocated(a), 'END TEAM deallocated a coarray of the initial team')

  allocate (d(20)[*], c(5)[*])
  right = mod(me, n) + 1
  left = mod(me - 2 + n, n) + 1
  d(:)[right] = [(100 * me + i, i = 1, 20)]
  c(:)[right] = -me
  a(3)[right] = 7 * me
  sync all
  call check(all(d == [(100 * left + i, i = 1, 20)]), 'd written by the left neighbour')
  call check(all(c == -left), 'c written by the left neighbour')
  call check(a(3) == 7 * left .and. a(1) == me .and. a(10) == me, 'a after the team')
  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program teams_allocate_gcc16
