! Tests: SYNC IMAGES with an image number out of range and with STAT=/ERRMSG= sets a non-zero
! stat and fills errmsg without ending the program; a list naming an image twice is an error too;
! afterwards normal synchronisation still works.
! test: images 2 3
! test: count {n} PASS
program sync_images_errors
  implicit none
  integer :: st, me, n, zero
  character(len=100) :: msg

  me = this_image()
  n = num_images()

  msg = ''
  sync images (n + 1, stat=st, errmsg=msg)
  if (st == 0) call fail('stat= is 0 for an image number out of range')
  if (len_trim(msg) == 0) call fail('errmsg is empty for an image number out of range')

  msg = ''
  zero = 0                  ! a variable: gfortran rejects a constant 0 at compile time
  sync images (zero, stat=st, errmsg=msg)
  if (st == 0) call fail('stat= is 0 for image 0')

  msg = ''
  sync images ([2, 2], stat=st, errmsg=msg)
  if (st == 0) call fail('stat= is 0 for a list naming image 2 twice')
  if (len_trim(msg) == 0) call fail('errmsg is empty for a duplicate image')

  ! the failed statements must not have disturbed the pairwise counters
  sync all
  sync images (*)
  print '(a,i0)', 'PASS ', me

contains

  subroutine fail(what)
    character(*), intent(in) :: what
    print '(a,i0,2a)', 'FAIL on image ', this_image(), ': ', what
    error stop 1
  end subroutine fail

end program sync_images_errors
