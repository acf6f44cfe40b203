! Tests: coarrays allocated inside a team. The odd and the even team allocate different sizes
! and numbers of coarrays; one is deallocated explicitly, one is left for END TEAM, which must
! deallocate it (ALLOCATED() is false afterwards). Coarrays allocated afterwards in the initial
! team must land at the same place on every image: every image writes into its right
! neighbour's coarrays and checks what its left neighbour wrote.
! gfortran 16.2 crashes compiling it (deallocate_allocated_coarrays): teams_allocate_gcc16.f90.
! test: images 2 3 4
! test: gfortran != 16
! test: scalable
! test: count {n} PASS
program teams_allocate
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
    if (tn == 1) then
      allocate (b(1000)[*], c(7)[*])
      b = this_image()
      c = 1
      sync all
      call check(b(1000)[num_images()] == num_images(), 'odd team coarray')
      deallocate (c)
    else
      allocate (b(3)[*])
      allocate (e(50, 50)[*])
      b = -this_image()
      sync all
      call check(b(3)[1] == -1, 'even team coarray')
      deallocate (e)
    end if
    ! b is left allocated: END TEAM deallocates it
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

end program teams_allocate
