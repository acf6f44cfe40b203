! Tests: as fault_error_stop_in_wait.f90, with FERROCAF_WAIT=active: waits that never sleep
! still see ERROR STOP 5 on image 2 (they check for error termination on the clock) and every
! image ends within 5 s with status 5.
! test: requires supervisor
! test: images 2 4
! test: env FERROCAF_WAIT=active
! test: vary WAIT=sync_all,sync_images,event,lock,co_sum,notify
! test: exit 5
! test: stderr ERROR STOP 5
! test: forbid got past
! test: timeout 5
program fault_error_stop_in_active_wait
  use iso_c_binding, only: c_int
  include 'fault_waits.inc'

contains

  subroutine fault()
    error stop 5
  end subroutine fault

end program fault_error_stop_in_active_wait
