! Notified access: which events an array put posts, by where they are attached in the object
! it writes. A whole object attached to one event: one post per put statement, whatever it
! writes (gfortran 15+: without probing the receiver): an array or a scalar, an empty section,
! or an allocatable component's data, which lives outside the object. An object split between
! two events: the events of the halves written, each once, none for an empty section. Part of
! an object attached: a put that misses the part does not post, one that hits it posts once.
! test: images 2 3
! test: vary FERROCAF_EVENTS=atomic,p2p,notified
! test: stdout PASS
! test: timeout 60
program notify_attach_whole
  use, intrinsic :: iso_fortran_env, only: event_type
  use ferrocaf_ext
  implicit none
  type :: holder
    real(8) :: s
    real(8), allocatable :: a(:)
  end type
  type(event_type) :: ev[*], lo[*], hi[*], part[*], evo[*]
  real(8) :: y(64)[*], z(64)[*], w(64)[*], v(64)
  type(holder) :: o[*]
  integer :: me, n, right, k, first, last
  me = this_image(); n = num_images()
  right = merge(1, me + 1, me == n)
  y = 0; z = 0; w = 0; v = [(real(me * 100 + k, 8), k = 1, 64)]
  ! An empty section the compiler cannot see as one.
  first = min(n, 2); last = first - 1
  o%s = 0
  allocate (o%a(10))
  o%a = 0

  call event_attach(ev, y)
  call event_attach(lo, z(1:32))
  call event_attach(hi, z(33:64))
  call event_attach(part, w(1:16))
  call event_attach(evo, o)
  sync all

  ! The whole object attached: an array put posts once, whatever its size.
  y(1:4)[right] = v(1:4)
  call expect(1, 1, 'array put into a wholly attached object')
  call check(all(y(1:4) == v(1:4) - 100 * (me - prev()) ), 'array put landed')
  y(:)[right] = v
  call expect(1, 1, 'whole-array put into a wholly attached object')
  y(5)[right] = 7
  call expect(1, 1, 'scalar put into a wholly attached object')
  call check(y(5) == 7, 'scalar put landed')
  y(first:last)[right] = v(first:last)
  call expect(1, 1, 'empty put into a wholly attached object')
  y(first:last)[right] = 7
  call expect(1, 1, 'empty put of a scalar into a wholly attached object')
  call check(all(y(1:4) == v(1:4) - 100 * (me - prev())) .and. y(5) == 7, 'empty puts wrote')

  ! A derived-type object attached whole: a put into a component, its allocatable component
  ! (whose data lies outside the object) or an element of it posts once.
  o[right]%s = me
  call expect(5, 1, 'put into a component')
  o[right]%a(3) = me
  call expect(5, 1, 'put into an element of an allocatable component')
  o[right]%a(:) = v(1:10)
  call expect(5, 1, 'put into an allocatable component')
  call check(o%s == prev() .and. all(o%a == v(1:10) - 100 * (me - prev())), &
             'component puts landed')

  ! Two events over two halves: each half written posts its event once.
  z(1:8)[right] = v(1:8)
  call expect(2, 1, 'put into the first half: first event')
  call expect(3, 0, 'put into the first half: not the second event')
  z(30:40)[right] = v(30:40)
  call expect(2, 1, 'put across the halves: first event once')
  call expect(3, 1, 'put across the halves: second event once')
  z(40:50)[right] = v(40:50)
  call expect(2, 0, 'put into the second half: not the first event')
  call expect(3, 1, 'put into the second half: second event')
  z(first:last)[right] = v(first:last)
  call expect(2, 0, 'empty put into a split object: not the first event')
  call expect(3, 0, 'empty put into a split object: not the second event')
  call check(all(z(30:50) == v(30:50) - 100 * (me - prev())), 'split puts landed')

  ! Part of the object attached: a put that misses it does not post, one that hits it does.
  w(20:30)[right] = v(20:30)
  call expect(4, 0, 'put beside the attached part')
  call check(all(w(20:30) == v(20:30) - 100 * (me - prev())), 'put beside the part landed')
  w(10:20)[right] = v(10:20)
  call expect(4, 1, 'put overlapping the attached part')

  call event_detach(ev, y)
  call event_detach(lo, z(1:32))
  call event_detach(hi, z(33:64))
  call event_detach(part, w(1:16))
  call event_detach(evo, o)
  sync all
  y(1:4)[right] = v(1:4)
  call expect(1, 0, 'put after detach')
  if (me == 1) print '(a)', 'PASS'
contains
  !> The image whose puts land here.
  integer function prev()
    prev = merge(n, me - 1, me == 1)
  end function

  !> After every image's put: event `which` (1 ev, 2 lo, 3 hi, 4 part, 5 evo) was posted `count`
  !> times here; then consumes the posts.
  subroutine expect(which, count, what)
    integer, intent(in) :: which, count
    character(*), intent(in) :: what
    integer :: c
    sync all
    select case (which)
    case (1)
      call event_query(ev, c)
      if (c > 0) event wait (ev, until_count=c)
    case (2)
      call event_query(lo, c)
      if (c > 0) event wait (lo, until_count=c)
    case (3)
      call event_query(hi, c)
      if (c > 0) event wait (hi, until_count=c)
    case (4)
      call event_query(part, c)
      if (c > 0) event wait (part, until_count=c)
    case default
      call event_query(evo, c)
      if (c > 0) event wait (evo, until_count=c)
    end select
    call check(c == count, what)
    sync all
  end subroutine

  include 'check.inc'
end program
