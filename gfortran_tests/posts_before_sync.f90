! Tests: an EVENT POST before SYNC ALL is seen by EVENT_QUERY after it (Fortran 2018 11.6.8 and
! 11.7.1: the post is in the poster's segment before the SYNC ALL, the query in the target's
! segment after it), for every event strategy, in 300 rounds with a varying number of posts
! from every image, including posts an image makes to itself. Over MPI the p2p and notified
! strategies carry each post as a message: a message sent but not yet matched when the
! barrier released the target used to be missed.
! test: images 1 3 4
! test: env FERROCAF_HEAP_SIZE=16M
! test: vary FERROCAF_EVENTS=atomic,p2p,notified
! test: count 1 PASS
! test: timeout 120
program posts_before_sync
  use iso_fortran_env, only: event_type
  implicit none
  type(event_type) :: ev[*]
  integer :: me, n, round, k, posts, cnt, want, j

  me = this_image()
  n = num_images()
  do round = 1, 300
    posts = 1 + modulo(round * me, 4)
    do k = 1, posts
      event post (ev[1])
    end do
    sync all
    if (me == 1) then
      want = 0
      do j = 1, n
        want = want + 1 + modulo(round * j, 4)
      end do
      call event_query(ev, cnt)
      if (cnt /= want) then
        print '(a,i0,a,i0,a,i0)', 'FAIL: round ', round, ': ', cnt, ' posts seen of ', want
        error stop 1
      end if
      event wait (ev, until_count=want)
    end if
    sync all
  end do
  if (me == 1) print '(a)', 'PASS'
end program posts_before_sync
