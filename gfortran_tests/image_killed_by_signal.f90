! Tests: one image killed by SIGKILL while the others wait in SYNC ALL: the job ends promptly
! with status 128+9 and the launcher names the image and the signal.
! test: requires supervisor
! test: images 2 4
! test: exit 137
! test: stderr killed by signal 9
! test: forbid got past
! test: timeout 20
program image_killed_by_signal
  use iso_c_binding, only: c_int
  implicit none
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

  if (this_image() == num_images()) rc = kill(getpid(), 9_c_int)
  sync all
  print *, 'got past the barrier'
end program image_killed_by_signal
