! Tests: coindexed access to a failed image gives STAT_FAILED_IMAGE (get, get_by_ref, atomics,
! EVENT POST, each with STAT=), while the memory of a stopped image stays readable and
! writable; a send without STAT= (gfortran 12 passes none even for x[j, stat=s] = ...) ends the
! program with an error naming the failed image.
! test: images 3
! test: stdout READS PASS
! test: stderr image 2 has failed
! test: exit nonzero
! test: forbid FAIL on
program failed_image_access
  use iso_fortran_env, only: stat_failed_image, stat_stopped_image, event_type, atomic_int_kind
  implicit none
  type box
    real, allocatable :: v(:)
  end type
  integer :: me, st, y
  integer :: x(4)[*]
  integer(atomic_int_kind) :: a[*]
  type(event_type) :: ev[*]
  type(box) :: b[*]
  real :: r

  me = this_image()
  x = me
  allocate(b%v(2)); b%v = me
  sync all
  if (me == 2) fail image
  if (me == 3) stop
  do while (image_status(2) /= stat_failed_image .or. image_status(3) /= stat_stopped_image)
  end do

  ! a stopped image's memory stays accessible
  x(1)[3] = 30
  y = x(1)[3]
  call check(y == 30, 'read from a stopped image')
  r = b[3]%v(2)
  call check(r == 3, 'component read from a stopped image')

  st = -1
  y = x(2)[2, stat=st]
  call check(st == stat_failed_image, 'get: stat is not STAT_FAILED_IMAGE')
  st = -1
  r = b[2, stat=st]%v(1)
  call check(st == stat_failed_image, 'get_by_ref: stat is not STAT_FAILED_IMAGE')
  st = -1
  call atomic_define(a[2], 1, stat=st)
  call check(st == stat_failed_image, 'atomic_define: stat is not STAT_FAILED_IMAGE')
  st = -1
  event post(ev[2], stat=st)
  call check(st == stat_failed_image, 'event post: stat is not STAT_FAILED_IMAGE')
  print '(a)', 'READS PASS'
  x(1)[2] = 5
  print '(a)', 'FAIL on image 1: the send to a failed image went through'

contains

  include 'check.inc'

end program failed_image_access
