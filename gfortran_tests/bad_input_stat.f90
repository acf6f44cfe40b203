! Tests: inputs at the edge of what is allowed, handled without error:
! - EVENT WAIT with UNTIL_COUNT= 0 or negative waits for one post (Fortran 2018 11.6.8: the
!   threshold is one if UNTIL_COUNT is less than one), for every event strategy;
! - zero-sized sections (empty triplets, negative-stride empty triplets, empty vector
!   subscripts, empty component sections, with kind conversion, CO_SUM and CO_BROADCAST of
!   empty arrays) move nothing and change nothing (not tried: an empty vector subscript on both
!   sides of one statement, which gfortran 12 passes in a form the runtime cannot recognise;
!   see docs/ARCHITECTURE.md, ABI limits);
! - an ALLOCATE larger than the symmetric heap with STAT= fails with a message naming
!   FERROCAF_HEAP_SIZE and leaves every image's heap as it was: a smaller coarray allocated
!   afterwards is at the same place everywhere (checked through coindexed writes).
! test: images 1 2 3
! test: scalable
! test: env FERROCAF_HEAP_SIZE=16M
! test: vary FERROCAF_EVENTS=atomic,p2p,notified
! test: count {n} PASS
program bad_input_stat
  use iso_fortran_env, only: event_type
  implicit none
  type t
    integer, allocatable :: a(:)
  end type t
  integer :: x(10)[*], y(10), e(0), w(4, 4), m(4, 4)[*], me, n, nb, st, cnt, k
  real :: r(10)[*]
  real, allocatable :: big(:)[:], small(:)[:]
  type(t) :: d[*]
  type(event_type) :: ev[*]
  character(len=120) :: msg

  me = this_image()
  n = num_images()
  nb = modulo(me, n) + 1
  x = me; y = -1; r = me; m = me; w = -1
  allocate (d%a(5))
  d%a = me
  sync all

  ! zero-sized sections in every kind of transfer, to and from the neighbour
  y(1:0) = x(1:0)[nb]
  x(1:0)[nb] = y(1:0)
  x(3:2)[nb] = x(5:4)[me]
  x(5:1:2)[nb] = y(5:1:2)
  y(1:0) = x(5:1:2)[nb]
  y(1:0) = x(e)[nb]
  x(e)[nb] = y(1:0)
  r(1:0)[nb] = x(1:0)
  y(1:0) = r(1:0)[nb]
  w(:, 1:0) = m(:, 1:0)[nb]
  m(2:1, :)[nb] = w(2:1, :)
  y(1:0) = d[nb]%a(1:0)
  d[nb]%a(3:2) = y(1:0)
  call co_sum(y(1:0))
  call co_broadcast(y(1:0), 1)
  sync all
  call check(all(x == me) .and. all(y == -1) .and. all(r == me) .and. all(m == me) &
             .and. all(w == -1) .and. all(d%a == me), 'a zero-sized transfer changed data')

  ! UNTIL_COUNT below one means one
  if (me == n) then
    do k = 1, 3
      event post (ev[1])
    end do
  end if
  sync all
  if (me == 1) then
    call event_query(ev, cnt)
    call check(cnt == 3, 'three posts arrived')
    event wait (ev, until_count=0)
    call event_query(ev, cnt)
    call check(cnt == 2, 'until_count=0 consumed one post')
    event wait (ev, until_count=-5)
    call event_query(ev, cnt)
    call check(cnt == 1, 'until_count=-5 consumed one post')
    event wait (ev)
  end if

  ! more than the heap, then something that fits
  msg = ''
  allocate (big(100000000)[*], stat=st, errmsg=msg)
  call check(st /= 0, 'allocating 400 MB in a 16 MB heap succeeded')
  call check(index(msg, 'FERROCAF_HEAP_SIZE') > 0, 'the message does not name FERROCAF_HEAP_SIZE')
  call check(.not. allocated(big), 'big is allocated after the failure')
  allocate (small(1000)[*], stat=st)
  call check(st == 0, 'a small allocation after the failure')
  small = 0
  sync all
  small(me)[nb] = me
  sync all
  call check(small(modulo(me - 2, n) + 1) == modulo(me - 2, n) + 1, 'small is consistent')
  deallocate (small)
  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program bad_input_stat
