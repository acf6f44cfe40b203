! Tests: image 2 is killed by SIGKILL while the other images block in SYNC ALL, SYNC IMAGES,
! EVENT WAIT, LOCK, CO_SUM or notify_wait (one run per WAIT): the supervisor names the image and
! the signal and the whole job ends within 5 s (start-up included; a missed wake-up would hang)
! with status 128+9.
! test: images 2 4
! test: vary WAIT=sync_all,sync_images,event,lock,co_sum,notify
! test: exit 137
! test: stderr image 2 was killed by signal 9
! test: forbid got past
! test: timeout 5
! test: requires supervisor
program fault_killed_in_wait
  use iso_c_binding, only: c_int
  include 'fault_waits.inc'

contains

  subroutine fault()
    interface
      integer(c_int) function getpid() bind(C, name='getpid')
        import :: c_int
      end function getpid
      integer(c_int) function kill(pid, sig) bind(C, name='kill')
        import :: c_int
        integer(c_int), value :: pid, sig
      end function kill
    end interface
    integer(c_int) :: rc
    rc = kill(getpid(), 9_c_int)
  end subroutine fault

end program fault_killed_in_wait
