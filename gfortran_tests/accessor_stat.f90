! Tests: STAT= of coindexed references compiled into accessors (gfortran 15+): a read, a write
! and a copy between images involving a failed image give STAT_FAILED_IMAGE and leave the
! destination alone, while a stopped image's memory stays readable and writable (stat 0).
! test: images 3
! test: gfortran >= 15
! test: stdout STAT PASS
! test: forbid FAIL on
program accessor_stat
  use iso_fortran_env, only: stat_failed_image, stat_stopped_image
  implicit none
  type :: box
    integer, allocatable :: v(:)
  end type box
  integer :: me, st, st2, y
  integer :: x(4)[*]
  type(box) :: b[*]

  me = this_image()
  x = me
  allocate (b%v(3))
  b%v = 10 * me
  sync all
  if (me == 2) fail image
  if (me == 3) stop
  do while (image_status(2) /= stat_failed_image .or. image_status(3) /= stat_stopped_image)
  end do

  ! a stopped image's memory stays accessible
  st = -1
  x(1)[3, stat=st] = 30
  call check(st == 0, 'write to a stopped image: stat')
  st = -1
  y = x(1)[3, stat=st]
  call check(st == 0 .and. y == 30, 'read from a stopped image')
  y = b[3]%v(2)
  call check(y == 30, 'component read from a stopped image')

  ! a failed image: STAT_FAILED_IMAGE, destination untouched
  st = -1
  y = -5
  y = x(2)[2, stat=st]
  call check(st == stat_failed_image, 'read: stat is not STAT_FAILED_IMAGE')
  st = -1
  y = b[2, stat=st]%v(1)
  call check(st == stat_failed_image, 'component read: stat is not STAT_FAILED_IMAGE')
  st = -1
  x(3)[2, stat=st] = 7
  call check(st == stat_failed_image, 'write: stat is not STAT_FAILED_IMAGE')
  st = -1
  st2 = -1
  x(1:2)[3, stat=st] = x(1:2)[2, stat=st2]
  call check(st2 == stat_failed_image, 'copy from a failed image: source stat')
  call check(x(1)[3] == 30, 'copy from a failed image wrote its destination')
  print '(a)', 'STAT PASS'

contains

  include 'check.inc'

end program accessor_stat
