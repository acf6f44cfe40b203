! Tests: FAIL IMAGE on the last image while the others continue. SYNC ALL with STAT= gives
! STAT_FAILED_IMAGE; IMAGE_STATUS, FAILED_IMAGES and NUM_IMAGES(FAILED=) report the failed
! image; STOPPED_IMAGES does not (images that already finished may appear there); the job still ends with exit status 0.
! gfortran 16 rejects NUM_IMAGES(FAILED=) (not Fortran 2018), so those checks are left to older compilers.
! test: images 2 4
! test: flags -cpp
! test: count {n} DONE
! test: forbid FAIL on
program fail_image_test
  use iso_fortran_env, only: stat_failed_image
  implicit none
  integer :: me, n, st
  integer, allocatable :: failed(:), stopped(:)

  me = this_image()
  n = num_images()
#if __GNUC__ < 16
  call check(num_images(failed=.true.) == 0, 'num_images(failed=.true.) before any failure')
#endif
  call check(size(failed_images()) == 0, 'failed_images() before any failure')
  sync all
  if (me == n) then
    print '(a,i0)', 'DONE (failing) ', me
    fail image
  end if

  sync all (stat=st)
  call check(st == stat_failed_image, 'sync all: stat is not STAT_FAILED_IMAGE')
  call check(image_status(n) == stat_failed_image, 'image_status of the failed image')
  call check(image_status(me) == 0, 'image_status of this image')
  failed = failed_images()
  call check(size(failed) == 1, 'failed_images() has not one element')
  call check(failed(1) == n, 'failed_images() does not name the failed image')
  call check(lbound(failed, 1) == 1, 'failed_images() lower bound')
#if __GNUC__ < 16
  call check(num_images(failed=.true.) == 1, 'num_images(failed=.true.)')
  call check(num_images(failed=.false.) == n - 1, 'num_images(failed=.false.)')
#endif
  stopped = stopped_images()
  call check(.not. any(stopped == n), 'stopped_images() names the failed image')
  print '(a,i0)', 'DONE PASS ', me

contains

  include 'check.inc'

end program fail_image_test
