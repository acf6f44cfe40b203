! Tests: ERROR STOP 5 on image 2 while the other images block in SYNC ALL, SYNC IMAGES, EVENT
! WAIT, LOCK, CO_SUM or notify_wait (one run per WAIT): every image ends within 5 s (start-up
! included; a missed wake-up would hang) and the job's status is 5 (Fortran 2018 11.4: error
! termination of all images).
! test: requires supervisor
! test: images 2 4
! test: vary WAIT=sync_all,sync_images,event,lock,co_sum,notify
! test: exit 5
! test: stderr ERROR STOP 5
! test: forbid got past
! test: timeout 5
program fault_error_stop_in_wait
  use iso_c_binding, only: c_int
  include 'fault_waits.inc'

contains

  subroutine fault()
    error stop 5
  end subroutine fault

end program fault_error_stop_in_wait
