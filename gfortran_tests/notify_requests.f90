! Notified access from Fortran: notify_put (inline and large payloads, strided destination),
! persistent requests with wildcard and specific sources and tags, arrival order, status of
! the last match, notify_test polling, notify_get telling the target, and misuse errors.
! test: images 2 4
! test: scalable
! test: stdout PASS
! test: timeout 60
program notify_requests
  use, intrinsic :: iso_c_binding, only: c_bool
  use ferrocaf_ext
  implicit none
  integer, parameter :: big = 5000
  real(8) :: small(4)[*], large(big)[*], grid(10, 10)[*], buf(big)
  integer :: me, n, j, k, req, src, tag, st, seen, per
  logical(c_bool) :: flag
  logical, allocatable :: got(:)
  me = this_image(); n = num_images()
  small = 0; large = 0; grid = 0
  sync all

  ! Many producers to one: image 1 gets an inline put (tag 1) and a large put (tag 2, into a
  ! slice of its own: unordered puts to one element would race) from every other image,
  ! matched first by source, then by wildcard.
  per = big / n
  if (me /= 1) then
    call notify_put(small(1:2), 1, [real(me, 8), -real(me, 8)], 1)
    buf = me
    call notify_put(large((me - 1) * per + 1:me * per), 1, buf(1:per), 2)
  else
    do j = 2, n
      req = notify_init(j, 2, 1)
      call notify_start(req)
      call notify_wait(req, src, tag)
      call check(src == j .and. tag == 2, 'specific source matched')
      call notify_free(req)
    end do
    req = notify_init(FERROCAF_ANY_SOURCE, 1, n - 1)
    call notify_start(req)
    call notify_wait(req, src, tag)
    call check(tag == 1 .and. src >= 2 .and. src <= n, 'wildcard status names a sender')
    call check(abs(small(1)) >= 2 .and. small(2) == -small(1), 'inline payload landed')
    do j = 2, n
      call check(all(large((j - 1) * per + 1:j * per) == j), 'large payload landed whole')
    end do
    call notify_free(req)
  end if
  sync all

  ! Arrival order: image 2 sends tags 10, 11, 12 to image 1; a wildcard request for one
  ! notification sees them in that order.
  if (n >= 2) then
    if (me == 2) then
      do k = 10, 12
        call notify_put(small(3:3), 1, [real(k, 8)], k)
      end do
    else if (me == 1) then
      req = notify_init(2, FERROCAF_ANY_TAG, 1)
      do k = 10, 12
        call notify_start(req)
        call notify_wait(req, src, tag)
        call check(tag == k, 'notifications match in arrival order')
      end do
      call notify_free(req)
    end if
  end if
  sync all

  ! Strided destination: a column of grid on the right neighbour; notify_test polling.
  call notify_put(grid(3, :), merge(1, me + 1, me == n), [(real(k, 8), k = 1, 10)], 5)
  req = notify_init(merge(n, me - 1, me == 1), 5, 1)
  call notify_start(req)
  flag = .false.
  do while (.not. flag)
    call notify_test(req, flag)
  end do
  call check(all(grid(3, :) == [(real(k, 8), k = 1, 10)]), 'strided notified put landed')
  call notify_free(req)
  sync all

  ! notify_get tells the image that was read.
  call notify_get(buf(1:4), small, merge(1, me + 1, me == n), 6)
  req = notify_init(FERROCAF_ANY_SOURCE, 6, 1)
  call notify_start(req)
  call notify_wait(req, src)
  call check(src == merge(n, me - 1, me == 1), 'notify_get notified the image read')
  call notify_free(req)

  ! Misuse.
  req = notify_init(FERROCAF_ANY_SOURCE, 1, 1)
  call notify_wait(req, stat=st)
  call check(st /= 0, 'waiting on a request never started is an error')
  call notify_free(req)
  call notify_free(req, stat=st)
  call check(st /= 0, 'freeing twice is an error')
  req = notify_init(n + 1, 1, 1, stat=st)
  call check(st /= 0 .and. req == -1, 'source out of range is an error')
  call notify_put(small(1:1), 1, [1d0], -3, stat=st)
  call check(st /= 0, 'a negative tag is an error')
  call notify_put(small(1:2), 1, [1d0], 3, stat=st)
  call check(st /= 0, 'size mismatch is an error')
  allocate(got(1)); seen = 0
  sync all
  if (me == 1) print '(a)', 'PASS'
contains
  include 'check.inc'
end program
