! Tests: many successive teams with changing memberships. Each iteration splits the images
! into three teams by a shifting rule; inside, a coindexed write to the right neighbour, SYNC
! ALL, CO_SUM and CO_BROADCAST must see only the team; teams of different sizes run different
! numbers of barriers, and images leave END TEAM at different times and enter a SYNC ALL of the
! initial team while other teams still synchronise inside. DEALLOCATE inside a team of
! a coarray allocated outside it is refused with STAT=.
! test: images 3 8
! test: count {n} PASS
! test: timeout 120
program teams_loop
  use iso_fortran_env, only: team_type
  implicit none
  type(team_type) :: t
  integer :: me, n, it, tn, k, s, b, st, expect
  integer :: x[*]
  integer, allocatable :: keep(:)[:]

  me = this_image()
  n = num_images()
  allocate (keep(4)[*])
  do it = 1, 200
    tn = mod(me + it, 3) + 1
    form team (tn, t)
    change team (t)
      x = 0
      sync all
      x[mod(this_image(), num_images()) + 1] = me
      sync all
      k = mod(this_image() - 2 + num_images(), num_images()) + 1
      call check(x == member(k), 'value from the left team neighbour')
      s = me
      call co_sum(s)
      expect = 0
      do k = 1, num_images()
        expect = expect + member(k)
      end do
      call check(s == expect, 'co_sum over the team')
      b = me
      call co_broadcast(b, num_images())
      call check(b == member(num_images()), 'co_broadcast from the last team image')
      do k = 1, mod(tn + it, 4)
        sync all
      end do
      if (it == 1) then
        deallocate (keep, stat=st)
        call check(st /= 0, 'deallocating an outer coarray inside a team succeeded')
      end if
    end team
    sync all                       ! a parent barrier while other teams may still be inside
  end do
  call check(allocated(keep), 'the outer coarray was deallocated inside a team')
  keep(1)[mod(me, n) + 1] = me
  sync all
  call check(keep(1) == mod(me - 2 + n, n) + 1, 'outer coarray after the loop')
  print '(a,i0)', 'PASS ', me

contains

  ! initial image number of team image k: the images j with mod(j + it, 3) + 1 == tn, in order
  integer function member(k)
    integer, intent(in) :: k
    integer :: j, c
    c = 0
    do j = 1, n
      if (mod(j + it, 3) + 1 == tn) c = c + 1
      if (c == k) then
        member = j
        return
      end if
    end do
    member = -1
  end function member

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (ok) return
    print '(a,i0,a,i0,2a)', 'FAIL on image ', me, ' iteration ', it, ': ', what
    error stop 1
  end subroutine check

end program teams_loop
