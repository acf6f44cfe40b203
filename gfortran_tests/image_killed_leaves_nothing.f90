! Tests: one image killed by SIGKILL (as the out-of-memory killer does) after the images have
! started, while the others wait in SYNC ALL: whatever launches the job, it ends with a
! non-zero status and nothing of it stays behind. Over libfabric's shm provider the killed
! image's regions stay in /dev/shm unless the survivors unlink them
! (src/transport/fabric/regions.rs): the suite's leak check finds them.
! test: images 2 3
! test: exit nonzero
! test: forbid got past
! test: timeout 20
program image_killed_leaves_nothing
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
  integer :: x[*]
  integer(c_int) :: rc

  x = this_image()
  sync all
  if (this_image() == num_images()) rc = kill(getpid(), 9_c_int)
  x = x[1]
  sync all
  print *, 'got past the barrier'
end program image_killed_leaves_nothing
