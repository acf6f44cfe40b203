! Tests: the last image STOPs early while the others continue. SYNC ALL, SYNC IMAGES with it,
! CO_SUM, EVENT POST and LOCK of a lock on it give STAT_STOPPED_IMAGE; IMAGE_STATUS and
! STOPPED_IMAGES report it. Its memory stays accessible (Fortran 2018 5.3.7: a stopped image
! waits so that others can still reach its data): coindexed reads and atomics on it succeed.
! The remaining images then finish normally (exit status 0). Under each FERROCAF_WAIT policy:
! waits that never sleep (active) or sleep at once (passive) see the stopped image too.
! test: images 2 3 4
! test: vary FERROCAF_WAIT=auto,passive,active
! test: scalable
! test: count {n} DONE
! test: forbid FAIL
program stopped_image_sync
  use iso_fortran_env, only: stat_stopped_image, event_type, lock_type, atomic_int_kind
  implicit none
  integer :: me, n, st, s
  integer, allocatable :: gone(:)
  type(event_type) :: ev[*]
  type(lock_type) :: lk[*]
  integer(atomic_int_kind) :: counter[*]
  integer :: keep[*], old
  character(len=80) :: msg

  me = this_image()
  n = num_images()
  keep = 100 + me
  counter = 0
  sync all
  if (me == n) then
    print '(a,i0)', 'DONE (stopping early) ', me
    stop
  end if

  msg = ''
  sync all (stat=st, errmsg=msg)
  call check(st == stat_stopped_image, 'sync all: stat is not STAT_STOPPED_IMAGE')
  call check(len_trim(msg) > 0, 'sync all: errmsg is empty')
  call check(image_status(n) == stat_stopped_image, 'image_status of the stopped image')
  call check(image_status(me) == 0, 'image_status of this image')

  sync images (n, stat=st)
  call check(st == stat_stopped_image, 'sync images with the stopped image')

  s = 1
  call co_sum(s, stat=st)
  call check(st == stat_stopped_image, 'co_sum with a stopped image')

  event post (ev[n], stat=st)
  call check(st == stat_stopped_image, 'event post to the stopped image')

  msg = ''
  lock (lk[n], stat=st, errmsg=msg)
  call check(st == stat_stopped_image, 'lock of a lock on the stopped image')
  call check(len_trim(msg) > 0, 'lock: errmsg is empty')

  call check(keep[n] == 100 + n, 'coindexed read of the stopped image')
  call atomic_fetch_add(counter[n], 1, old, stat=st)
  call check(st == 0 .and. old >= 0 .and. old < n - 1, 'atomic_fetch_add on the stopped image')

  gone = stopped_images()
  ! images that already finished may be listed too, in increasing order
  call check(count(gone == n) == 1, 'stopped_images() does not name the stopped image once')
  call check(all(gone(2:) > gone(:size(gone) - 1)), 'stopped_images() is not increasing')
  call check(.not. any(gone == me), 'stopped_images() names this running image')
  print '(a,i0)', 'DONE PASS ', me

contains

  include 'check.inc'

end program stopped_image_sync
