! notify_sum.f90 - every image sends its number to image 1 with a notified put, image 1
! matches the notifications by tag and checks their sources; then CO_SUM checks the total.
program notify_sum
  use ferrocaf_ext, only: notify_put, notify_init, notify_start, notify_wait, notify_free, &
                          FERROCAF_ANY_SOURCE
  implicit none
  integer, parameter :: tag = 7
  integer :: slot(64)[*]
  integer :: me, n, j, req, src, total
  me = this_image()
  n = num_images()
  if (n > size(slot)) error stop 'at most 64 images'
  slot = 0
  sync all

  call notify_put(slot(me:me), 1, [me], tag)   ! slot(me)[1] = me, then notify image 1
  if (me == 1) then
    do j = 1, n
      req = notify_init(FERROCAF_ANY_SOURCE, tag, 1)
      call notify_start(req)
      call notify_wait(req, src)
      call notify_free(req)
      if (slot(src) /= src) then
        write (*, '(a, i0)') 'FAILED: no data with the notification from image ', src
        error stop 1
      end if
    end do
  end if

  total = me
  call co_sum(total)
  if (total /= n * (n + 1) / 2) error stop 2
  if (me == 1) write (*, '(a, i0, a)') 'Success: notified puts from ', n, ' images'
end program
