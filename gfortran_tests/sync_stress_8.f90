! Tests: 8 images on (typically) fewer cores: 200 iterations of a ring SYNC IMAGES plus SYNC ALL
! must finish well within the timeout, showing that waiting images do not burn shared cores.
! test: images 8
! test: count {n} PASS
! test: timeout 60
program sync_stress_8
  implicit none
  integer :: box[*], me, n, left, right, it

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)
  do it = 1, 200
    box[right] = it + me
    sync images([left, right])
    if (box /= it + left) call fail('ring value')
    sync all
  end do
  print '(a,i0)', 'PASS ', me

contains

  subroutine fail(what)
    character(*), intent(in) :: what
    print '(a,i0,2a)', 'FAIL on image ', this_image(), ': ', what
    error stop 1
  end subroutine fail

end program sync_stress_8
