! Tests: nested teams. The initial team splits into halves (lower/upper), each half splits again
! by parity; inside the inner team THIS_IMAGE/NUM_IMAGES/TEAM_NUMBER, coindexed access, SYNC
! ALL and CO_SUM follow the inner team; after its END TEAM the middle team is current again and
! its collectives still work; a coarray allocated in the middle team survives the inner team.
! test: images 4 8
! test: vary FERROCAF_CPUS=1,64
! test: count {n} PASS
program teams_nested
  use iso_fortran_env, only: team_type
  implicit none
  type(team_type) :: half, inner
  integer :: me, n, h, p, s, k, hme, hn
  integer :: x[*]
  integer, allocatable :: y(:)[:]

  me = this_image()
  n = num_images()
  h = merge(1, 2, me <= n / 2)
  form team (h, half)
  change team (half)
    hme = this_image()
    hn = num_images()
    call check(hn == n / 2 .and. hme == me - (h - 1) * n / 2, 'middle team numbering')
    allocate (y(2)[*])
    y = [me, -me]
    p = 2 - mod(hme, 2)
    form team (p, inner)
    change team (inner)
      call check(team_number() == p, 'team_number() of the inner team')
      call check(num_images() == hn / 2, 'num_images() of the inner team')
      call check(this_image() == (hme + 1) / 2, 'this_image() of the inner team')
      x = me
      sync all
      k = mod(this_image(), num_images()) + 1
      ! inner image k is middle image 2k-2+p, initial image that + (h-1)*n/2
      call check(x[k] == 2 * k - 2 + p + (h - 1) * n / 2, 'coindexed read in the inner team')
      call check(y(1)[k] == x[k], 'middle-team coarray read through inner numbering')
      s = 1
      call co_sum(s)
      call check(s == num_images(), 'co_sum in the inner team')
    end team
    call check(team_number() == h .and. this_image() == hme, 'middle team restored')
    s = me
    call co_sum(s)
    call check(s == sum([(k, k = (h - 1) * n / 2 + 1, h * n / 2)]), 'co_sum in the middle team')
    call check(y(2)[mod(hme, hn) + 1] == -(mod(hme, hn) + 1 + (h - 1) * n / 2), 'middle coarray')
    sync all
    deallocate (y)
  end team
  s = 1
  call co_sum(s)
  call check(s == n, 'co_sum in the initial team')
  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program teams_nested
