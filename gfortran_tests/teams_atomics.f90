! Tests: atomic subroutines inside CHANGE TEAM address team images (the fast path maps an image
! index through the current team's placement): every member adds to image 1 of its team, the
! fetch form returns tickets in range, ATOMIC_DEFINE/REF on a neighbour by team number, an atom
! without image selector is this image's, an image index beyond the team's size is an error
! (STAT= nonzero), and after END TEAM the same indices mean initial images again.
! test: images 2 3 4 8
! test: scalable
! test: count {n} PASS
program teams_atomics
  use iso_fortran_env, only: team_type, atomic_int_kind
  implicit none
  type(team_type) :: parity
  integer(atomic_int_kind) :: c[*], d[*], v, old
  integer :: me, n, tn, tme, tsize, right, st, k

  me = this_image()
  n = num_images()
  tn = 2 - mod(me, 2)                 ! 1 for odd images, 2 for even images
  form team (tn, parity)
  call atomic_define(c, 0)
  call atomic_define(d, 0)
  sync all

  change team (parity)
    tme = this_image()
    tsize = num_images()
    ! every member adds to image 1 of its own team (initial image 1 or 2)
    call atomic_add(c[1], 1)
    ! tickets from image 1's d: distinct values 0 .. tsize - 1
    call atomic_fetch_add(d[1], 1, old)
    call check(old >= 0 .and. old < tsize, 'atomic_fetch_add ticket in range')
    ! define the right neighbour's c (team numbering) after everyone added
    sync all
    right = mod(tme, tsize) + 1
    if (tme /= 1 .and. right /= 1) call atomic_define(c[right], 100 + me)
    ! no image selector: this image's own atom
    call atomic_add(d, 1000)
    ! an image index outside the team is an error
    call atomic_add(c[tsize + 1], 1, stat=st)
    call check(st /= 0, 'atomic_add to an image beyond the team gives STAT /= 0')
    sync all
    if (tme == 1) then
      call atomic_ref(v, c)
      call check(v == tsize, 'every member added to image 1 of its team')
      call atomic_ref(v, d)
      call check(v == tsize + 1000, 'tickets and own add on image 1 of the team')
    else
      call atomic_ref(v, c[tme])
      k = tme - 1                              ! left neighbour, team numbering
      if (k /= 1) call check(v == 100 + 2 * k - 2 + tn, 'value defined by the left neighbour')
      call atomic_ref(v, d)
      call check(v == 1000, 'own add without image selector')
    end if
  end team

  ! back in the initial team: c[1] and c[2] are initial images 1 and 2 again
  sync all
  call atomic_define(c, 0)
  sync all
  call atomic_add(c[1], 1)
  if (n >= 2) call atomic_add(c[2], 1)
  sync all
  if (me <= 2) then
    call atomic_ref(v, c)
    call check(v == n, 'after END TEAM every image added to initial images 1 and 2')
  end if
  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program teams_atomics
