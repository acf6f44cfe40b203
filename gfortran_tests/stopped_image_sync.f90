! Tests: the last image STOPs early while the others continue. SYNC ALL, SYNC IMAGES with it,
! CO_SUM and EVENT POST to it give STAT_STOPPED_IMAGE; IMAGE_STATUS and STOPPED_IMAGES report
! it; the remaining images then finish normally (exit status 0).
! test: images 2 3 4
! test: count {n} DONE
! test: forbid FAIL
program stopped_image_sync
  use iso_fortran_env, only: stat_stopped_image, event_type
  implicit none
  integer :: me, n, st, s
  integer, allocatable :: gone(:)
  type(event_type) :: ev[*]
  character(len=80) :: msg

  me = this_image()
  n = num_images()
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

  gone = stopped_images()
  ! images that already finished may be listed too, in increasing order
  call check(count(gone == n) == 1, 'stopped_images() does not name the stopped image once')
  call check(all(gone(2:) > gone(:size(gone) - 1)), 'stopped_images() is not increasing')
  call check(.not. any(gone == me), 'stopped_images() names this running image')
  print '(a,i0)', 'DONE PASS ', me

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (ok) return
    print '(a,i0,2a)', 'FAIL on image ', this_image(), ': ', what
    error stop 1
  end subroutine check

end program stopped_image_sync
