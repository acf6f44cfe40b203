! Tests: SYNC ALL in a loop of 1000: after each barrier every image sees the counter every other
! image incremented before it; SYNC MEMORY and sync all with stat= succeed.
! test: images 2 4
! test: scalable
! test: count {n} PASS
! test: timeout 60
program sync_all_loop
  implicit none
  integer :: counter[*], me, n, it, j, st
  character(len=64) :: msg

  me = this_image()
  n = num_images()
  counter = 0
  sync all
  do it = 1, 1000
    counter = it
    sync all
    j = 1 + mod(me + it, n)                  ! read a different image every iteration
    if (counter[j] /= it) call fail('counter of another image not up to date after sync all')
    sync all                                 ! nobody moves on before everyone has read
  end do
  sync memory
  msg = ''
  sync all (stat=st, errmsg=msg)
  if (st /= 0) call fail('sync all stat= nonzero: '//trim(msg))
  print '(a,i0)', 'PASS ', me

contains

  subroutine fail(what)
    character(*), intent(in) :: what
    print '(a,i0,2a)', 'FAIL on image ', this_image(), ': ', what
    error stop 1
  end subroutine fail

end program sync_all_loop
