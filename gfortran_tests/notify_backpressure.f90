! Notification rings fill up (1024 cells) and senders must wait without deadlock, in both
! directions at once: every image sends 3000 notifications to every other image before
! receiving any, while its own ring is being filled by the others. Then every image checks it
! received exactly what was sent, in per-sender order.
! test: images 2 4
! test: stdout PASS
! test: timeout 90
program notify_backpressure
  use ferrocaf_ext
  implicit none
  integer, parameter :: per = 3000
  integer :: slot(64)[*]
  integer :: me, n, j, k, req, src, tag
  me = this_image(); n = num_images()
  slot = 0
  sync all
  do k = 1, per
    do j = 1, n
      if (j /= me) call notify_put(slot(me:me), j, [k], k)
    end do
  end do
  do j = 1, n
    if (j == me) cycle
    req = notify_init(j, FERROCAF_ANY_TAG, 1)
    do k = 1, per
      call notify_start(req)
      call notify_wait(req, src, tag)
      if (src /= j .or. tag /= k) then
        print '(a,i0,a,i0,a,i0,a,i0)', 'FAIL on image ', me, ': from ', j, ' expected tag ', k, ' got ', tag
        error stop 1
      end if
    end do
    call notify_free(req)
    if (slot(j) /= per) then
      print '(a,i0,a,i0)', 'FAIL on image ', me, ': last payload from ', j
      error stop 1
    end if
  end do
  sync all
  if (me == 1) print '(a)', 'PASS'
end program
