! Tests: static coarrays of a derived type without allocatable components (integer, real(8),
! character and a fixed-size array component): whole-object put/get, arrays of it, and coindexed
! access to a single component.
! test: images 2 4
! test: count {n} PASS
program static_derived
  implicit none
  type :: particle
    integer :: id
    real(8) :: pos(3)
    character(len=6) :: tag
    logical :: alive
  end type particle
  type(particle) :: p[*], ps(5)[*], got, gots(5)
  integer :: me, left, right, k
  real(8) :: x

  me = this_image()
  right = merge(1, me + 1, me == num_images())
  left = merge(num_images(), me - 1, me == 1)

  p[right] = make(me, 0)
  ps(:)[right] = [(make(me, k), k = 1, 5)]
  sync all
  if (.not. same(p, make(left, 0))) call fail('scalar put')
  do k = 1, 5
    if (.not. same(ps(k), make(left, k))) call fail('array put')
  end do

  got = p[right]
  gots = ps(:)[right]
  if (.not. same(got, make(me, 0))) call fail('scalar get')
  do k = 1, 5
    if (.not. same(gots(k), make(me, k))) call fail('array get')
  end do

  ! a single component of a remote object
  x = ps(3)[right]%pos(2)
  got = make(me, 3)
  if (x /= got%pos(2)) call fail('component get')
  sync all
  p[right]%id = -me
  sync all
  if (p%id /= -left) call fail('component put')
  got = make(left, 0)
  if (p%tag /= got%tag) call fail('component put touched other components')

  print '(a,i0)', 'PASS ', me

contains

  !> The value image `img` sends for element `k`.
  pure function make(img, k) result(r)
    integer, intent(in) :: img, k
    type(particle) :: r
    r%id = 100 * img + k
    r%pos = [real(img, 8) / 3, real(k, 8) / 7, -1.5d0 * img]
    write (r%tag, '(a,i2.2,i2.2)') 'p', img, k
    r%alive = mod(img + k, 2) == 0
  end function make

  pure logical function same(a, b)
    type(particle), intent(in) :: a, b
    same = a%id == b%id .and. all(a%pos == b%pos) .and. a%tag == b%tag &
           .and. (a%alive .eqv. b%alive)
  end function same

  subroutine fail(what)
    character(*), intent(in) :: what
    print '(a,i0,2a)', 'FAIL on image ', this_image(), ': ', what
    error stop 1
  end subroutine fail

end program static_derived
