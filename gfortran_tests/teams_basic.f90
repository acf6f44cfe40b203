! Tests: FORM TEAM / CHANGE TEAM / END TEAM with an odd and an even team: THIS_IMAGE and
! NUM_IMAGES use team numbering inside, coindexed reads and writes address team images, SYNC ALL
! and CO_SUM involve only team members, TEAM_NUMBER() inside and outside, SYNC TEAM, a second
! CHANGE TEAM into the same team, and the initial team is restored afterwards.
! test: images 2 3 4 8
! test: scalable
! test: count {n} PASS
program teams_basic
  use iso_fortran_env, only: team_type
  implicit none
  type(team_type) :: parity
  integer :: me, n, tn, tme, tsize, s, k, round
  integer :: x[*]

  me = this_image()
  n = num_images()
  tn = 2 - mod(me, 2)                 ! 1 for odd images, 2 for even images
  call check(team_number() == -1, 'team_number() of the initial team')

  form team (tn, parity)
  call check(team_number(parity) == tn, 'team_number(parity) outside the team')
  x = 0
  sync all

  do round = 1, 2
    change team (parity)
      tme = this_image()
      tsize = num_images()
      ! members in initial order: odd images 1,3,5.. or even images 2,4,..
      call check(tme == (me + 1) / 2, 'this_image() inside the team')
      if (tn == 1) call check(tsize == (n + 1) / 2, 'num_images() of the odd team')
      if (tn == 2) call check(tsize == n / 2, 'num_images() of the even team')
      call check(team_number() == tn, 'team_number() inside the team')

      ! everyone writes its initial image number into its right neighbour (team numbering)
      x[mod(tme, tsize) + 1] = me + 1000 * round
      sync all
      k = mod(tme - 2 + tsize, tsize) + 1           ! left neighbour, team numbering
      call check(x == 2 * k - 2 + tn + 1000 * round, 'value written by the left team neighbour')
      call check(x[k] == 2 * mod(k - 2 + tsize, tsize) + tn + 1000 * round, 'coindexed read')

      s = me
      call co_sum(s)
      ! sum of the team's initial image numbers
      call check(s == sum([(k, k = tn, n, 2)]), 'co_sum over the team')
      sync team (parity)
    end team
    call check(this_image() == me .and. num_images() == n, 'initial team restored')
    call check(team_number() == -1, 'team_number() after END TEAM')
    sync all
  end do

  s = 1
  call co_sum(s)
  call check(s == n, 'co_sum over the initial team after END TEAM')
  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program teams_basic
