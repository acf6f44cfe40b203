! Tests: after the last image STOPs, every further SYNC ALL and CO_SUM / CO_BROADCAST of the
! others keeps giving STAT_STOPPED_IMAGE. The central barrier and gather (oversubscribed teams:
! FERROCAF_CPUS=1) keep the arrivals of failed rounds counted, so a later round could reach the
! team size without the stopped image and report success; recursive doubling and dissemination
! (FERROCAF_CPUS=64) are checked the same way.
! test: images 3 4
! test: vary FERROCAF_CPUS=1,64
! test: count {n} DONE
! test: forbid FAIL
program stopped_image_repeat
  use iso_fortran_env, only: stat_stopped_image
  implicit none
  integer :: me, n, st, k
  real(8) :: x

  me = this_image()
  n = num_images()
  sync all
  if (me == n) then
    print '(a,i0)', 'DONE (stopping early) ', me
    stop
  end if
  do k = 1, 2 * n
    sync all (stat=st)
    call check(st == stat_stopped_image, 'sync all after a stop')
    x = me
    call co_sum(x, stat=st)
    call check(st == stat_stopped_image, 'co_sum after a stop')
    call co_broadcast(x, 1, stat=st)
    call check(st == stat_stopped_image, 'co_broadcast after a stop')
  end do
  print '(a,i0)', 'DONE ', me

contains

  include 'check.inc'

end program stopped_image_repeat
