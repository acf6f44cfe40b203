! FERROCAF_STATS=1: every image prints one statistics line on stderr at the end. Image 1 makes
! exactly 10 puts of 8 bytes and 2 gets of 8 bytes, and waits for 3 event posts; image 2 posts
! them; every other image only synchronises.
! test: images 2 3
! test: env FERROCAF_STATS=1
! test: stdout PASS
! test: stderr ferrocaf stats: image 1: puts 10 gets 2 bytes 96 notifications sent 0 received 0 events posted 0 counted 0 waited 3 wait ms: other
! test: stderr ferrocaf stats: image 2: puts 0 gets 0 bytes 0 notifications sent 0 received 0 events posted 3 counted 0 waited 0 wait ms: other
! test: forbid panicked
! test: timeout 30
program stats
  use, intrinsic :: iso_fortran_env, only: int64, event_type
  implicit none
  integer(int64) :: x[*], got
  type(event_type) :: ev[*]
  integer :: i
  x = 0
  sync all
  if (this_image() == 1) then
    do i = 1, 10
      x[2] = i
    end do
    got = x[2]
    got = got + x[2]
    event wait (ev, until_count=3)
  else if (this_image() == 2) then
    do i = 1, 3
      event post (ev[1])
    end do
  end if
  sync all
  if (this_image() == 2 .and. x /= 10) error stop 'wrong value'
  if (this_image() == 1 .and. got /= 20) error stop 'wrong read'
  if (this_image() == 1) print *, 'PASS'
end program stats
