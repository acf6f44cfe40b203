! Tests: EVENT POST, EVENT WAIT (Fortran 2018 11.6.7, 11.6.8) and EVENT_QUERY (16.9.72):
! counts seen by EVENT_QUERY before and after waits, UNTIL_COUNT= consuming exactly that many
! posts, event arrays, an allocatable event coarray, STAT=, and many posts from every image to
! one (the waiter consumes exactly all of them).
! test: images 1 2 3 4
! test: scalable
! test: count {n} PASS
program events_test
  use iso_fortran_env, only: event_type
  implicit none
  integer, parameter :: k = 400
  type(event_type) :: ev[*], many[*], ea(4)[*]
  type(event_type), allocatable :: ed(:)[:]
  integer :: me, n, right, left, st, c, i, j

  me = this_image()
  n = num_images()
  right = mod(me, n) + 1
  left = mod(me + n - 2, n) + 1

  call event_query(ev, c, st)
  call check(c == 0 .and. st == 0, 'a new event has count 0')
  sync all

  ! Ring: post to the right neighbour twice, wait for the left one's posts. SYNC ALL separates
  ! the phases, so the counts queried are exact.
  event post(ev[right], stat=st)
  call check(st == 0, 'event post stat')
  event post(ev[right])
  sync all
  call event_query(ev, c)
  call check(c == 2, 'event_query after two posts')
  event wait(ev)
  call event_query(ev, c)
  call check(c == 1, 'event wait consumes one post')
  event wait(ev, stat=st)
  call event_query(ev, c)
  call check(c == 0 .and. st == 0, 'second wait consumes the second post')
  sync all

  ! UNTIL_COUNT: three posts from the left, one wait for all three; then two more posts and a
  ! wait for one leaves one.
  do i = 1, 3
    event post(ev[right])
  end do
  event wait(ev, until_count=3)
  call event_query(ev, c)
  call check(c == 0, 'until_count=3 consumes three posts')
  sync all
  event post(ev[right])
  event post(ev[right])
  event wait(ev, until_count=1)
  sync all
  call event_query(ev, c)
  call check(c == 1, 'until_count=1 consumes one of two posts')
  event wait(ev)
  sync all

  ! Event arrays: element j of the right neighbour gets j posts.
  do j = 1, 4
    do i = 1, j
      event post(ea(j)[right])
    end do
  end do
  do j = 4, 1, -1
    event wait(ea(j), until_count=j)
  end do
  call event_query(ea(3), c)
  call check(c == 0, 'event array elements counted separately')

  ! An allocatable event coarray.
  allocate(ed(2)[*])
  event post(ed(2)[left])
  event wait(ed(2))
  call event_query(ed(1), c)
  call check(c == 0, 'allocatable event')
  sync all
  deallocate(ed)

  ! Many posts from every image to image 1.
  do i = 1, k
    event post(many[1])
  end do
  if (me == 1) then
    do i = 1, n
      event wait(many, until_count=k)
    end do
    call event_query(many, c)
    call check(c == 0, 'all posts from all images consumed exactly')
  end if

  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program events_test
