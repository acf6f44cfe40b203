! Tests: reference chains that chase scalar allocatable and pointer components on another image
! (every pointer is the target's own address, translated into its segment and loaded there):
! a scalar allocatable integer, an allocatable derived-type component holding an allocatable
! array, a pointer array component; read (get_by_ref), written (send_by_ref), copied between
! two other images (sendget_by_ref), and ALLOCATED of scalar components.
! test: images 2 3
! test: count {n} PASS
program component_chase
  implicit none
  type :: leaf
    real(8), allocatable :: w(:)
    integer :: tag
  end type leaf
  type :: root
    integer, allocatable :: k
    type(leaf), allocatable :: lf
    ! before p: gfortran 15 and 16 place components after a pointer array component at a wrong
    ! offset in the accessor of ALLOCATED(x[j]%c) (docs/ARCHITECTURE.md, ABI limits)
    integer, allocatable :: none
    integer, pointer :: p(:) => null()
  end type root
  type(root) :: x[*]
  integer :: me, n, right, left, far, i, k, v(3)
  real(8) :: r(3)

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)
  far = merge(1, right + 1, right == n)
  allocate (x%k, x%lf, x%p(6))
  allocate (x%lf%w(5))
  x%k = 10 * me
  x%lf%w = [(me + i / 10d0, i = 1, 5)]
  x%lf%tag = me
  x%p = [(100 * me + i, i = 1, 6)]
  sync all

  ! reads
  k = x[right]%k
  call check(k == 10 * right, 'scalar allocatable component read')
  r = x[right]%lf%w(2:4)
  call check(all(r == right + [2, 3, 4] / 10d0), 'array inside an allocatable derived component')
  i = x[right]%lf%tag
  call check(i == right, 'scalar inside an allocatable derived component')
  v = x[right]%p(1:5:2)
  call check(all(v == 100 * right + [1, 3, 5]), 'pointer component read')
  call check(allocated(x[right]%k) .and. allocated(x[right]%lf), 'allocated(x[j]%k)')
  call check(.not. allocated(x[right]%none), '.not. allocated(x[j]%none)')
  sync all

  ! writes
  x[right]%k = -me
  x[right]%lf%w(5) = -1d0 * me
  x[right]%lf%tag = -me
  x[right]%p(6) = -me
  sync all
  call check(x%k == -left, 'scalar allocatable component write')
  call check(x%lf%w(5) == -1d0 * left .and. x%lf%w(4) == me + 0.4d0, 'nested component write')
  call check(x%lf%tag == -left, 'scalar inside an allocatable derived component write')
  call check(x%p(6) == -left .and. x%p(5) == 100 * me + 5, 'pointer component write')
  sync all

  ! between two other images (or this one with 2 images)
  x[right]%lf%w(1:2) = x[far]%lf%w(3:4)
  x[right]%k = x[far]%p(2)
  sync all
  call check(all(x%lf%w(1:2) == right + [3, 4] / 10d0), 'sendget between allocatable arrays')
  call check(x%k == 100 * right + 2, 'sendget from a pointer to a scalar allocatable')

  sync all
  deallocate (x%lf%w)
  deallocate (x%lf, x%k, x%p)
  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program component_chase
