! Tests: SYNC IMAGES in a ring (each image with its left and right neighbour), a star (image 1
! with all, the others with image 1) and SYNC IMAGES(*), each repeated many times so that a
! miscounted pairwise counter shows up as a wrong value or a hang. Data written before a sync is
! checked after it.
! test: images 2 4
! test: scalable
! test: count {n} PASS
! test: timeout 60
program sync_images_patterns
  implicit none
  integer :: token[*], seen, others
  integer :: me, n, left, right, it, j
  integer, allocatable :: all_but_me(:), neighbours(:)

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)
  all_but_me = pack([(j, j = 1, n)], [(j, j = 1, n)] /= me)
  ! a list may not name an image twice: with 2 images left and right are the same image
  neighbours = [left, right]
  if (left == right) neighbours = [left]

  ! ring: write into the right neighbour, sync with both neighbours, read what left wrote
  do it = 1, 300
    token[right] = it * 10 + me
    if (n > 1) sync images(neighbours)
    if (token /= it * 10 + left) call fail('ring: value from left neighbour')
    if (n > 1) sync images(neighbours)   ! left may not overwrite before I have read
  end do

  sync all          ! image 1's last ring read must precede the star phase's writes into it

  ! star: image 1 collects from everyone, then releases them
  do it = 1, 300
    if (me /= 1) then
      token[1] = 0                           ! harmless concurrent writes of the same value
      sync images(1)
      sync images(1)
    else
      sync images(all_but_me)
      seen = token
      sync images(all_but_me)
    end if
  end do

  sync all

  ! sync images(*) with a rotating writer
  do it = 1, 300
    j = 1 + mod(it, n)
    if (me == j) then
      token[right] = -it
    end if
    sync images(*)
    if (me == right_of(j) .and. token /= -it) call fail('sync images(*): value not visible')
    sync images(*)
  end do

  ! mixing with sync all must not confuse the counters
  do it = 1, 100
    others = size(all_but_me)
    if (others > 0) sync images(all_but_me)
    sync all
  end do

  print '(a,i0)', 'PASS ', me

contains

  integer function right_of(i)
    integer, intent(in) :: i
    right_of = merge(1, i + 1, i == n)
  end function right_of

  subroutine fail(what)
    character(*), intent(in) :: what
    print '(a,i0,2a)', 'FAIL on image ', this_image(), ': ', what
    error stop 1
  end subroutine fail

end program sync_images_patterns
