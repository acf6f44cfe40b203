! Tests: coindexed access to allocatable components of derived-type coarrays (the *_by_ref
! entry points): scalar and array coarrays, nested types, strided, open-ended and vector
! sections of components, a 2-D component, static arrays inside the type, an allocatable
! character array, ALLOCATED(x[j]%c), kind conversion through a component, a put into a component of
! an element of a coarray array (c(1)[j]%b(1:n) = ...), component-to-component copies between
! two other images, and a read into an unallocated allocatable (reallocation). (A scalar
! allocatable CHARACTER component is avoided: gfortran 12 miscompiles its initialisation.)
! test: images 2 3
! test: count {n} PASS
program derived_alloc_components
  implicit none
  type :: inner
    real(8), allocatable :: w(:)
  end type inner
  type :: node
    integer :: id
    integer, allocatable :: b(:)
    integer, allocatable :: m(:, :)
    character(len=5), allocatable :: s(:)
    type(inner) :: in
    integer :: st(2:4, 3)
    integer, allocatable :: never(:)
  end type node
  type(node) :: x[*], c(3)[*]
  integer :: me, n, right, left, far, i, j, k, v(4)
  ! a variable vector subscript: an array constructor there crashes gfortran 15 and 16
  integer :: i3(3) = [10, 2, 10]
  integer, allocatable :: z(:), zz(:, :)
  real(4) :: r4(3)
  character(len=5) :: txt

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)
  x%id = me
  allocate (x%b(10), x%m(0:3, 2), x%s(2), x%in%w(-2:2))
  x%b = [(100 * me + i, i = 1, 10)]
  x%m = reshape([(10 * me + i, i = 1, 8)], [4, 2])
  x%s = ['img' // achar(48 + me) // '!', 'other']
  x%in%w = [(me + i / 4d0, i = -2, 2)]
  x%st = reshape([(1000 * me + i, i = 1, 9)], [3, 3])
  do k = 1, 3
    allocate (c(k)%b(8))
    c(k)%b = [(10000 * me + 100 * k + i, i = 1, 8)]
  end do
  sync all

  ! reads through components
  v(1:4) = x[right]%b(1:7:2)
  call check(all(v == 100 * right + [1, 3, 5, 7]), 'strided component read')
  v(1:3) = x[right]%b(8:)
  call check(all(v(1:3) == 100 * right + [8, 9, 10]), 'open-ended component read')
  v(1:3) = x[right]%b(:3)
  call check(all(v(1:3) == 100 * right + [1, 2, 3]), 'open-start component read')
  v(1:3) = x[right]%b(i3)
  call check(all(v(1:3) == 100 * right + [10, 2, 10]), 'vector component read')
  v(1:2) = x[right]%m(3, :)
  call check(all(v(1:2) == 10 * right + [4, 8]), '2-D component row read')
  v(1:2) = x[right]%st(3, 1:3:2)
  call check(all(v(1:2) == 1000 * right + [2, 8]), 'static array inside the type')
  i = x[right]%id
  call check(i == right, 'plain component of a type with allocatable components')
  txt = x[right]%s(1)
  call check(txt == 'img' // achar(48 + right) // '!', 'allocatable character component')
  r4 = x[right]%in%w(-1:1)
  call check(all(r4 == real(right + [-1, 0, 1] / 4d0, 4)), 'nested component with kind conversion')
  v(1:3) = c(2)[right]%b(2:8:3)
  call check(all(v(1:3) == 10000 * right + 200 + [2, 5, 8]), 'component of an array element')

  ! ALLOCATED of remote components
  call check(allocated(x[right]%b), 'allocated(x[j]%b)')
  call check(.not. allocated(x[right]%never), '.not. allocated(x[j]%never)')

  ! reading into unallocated and wrongly shaped allocatables
  z = x[right]%b
  call check(size(z) == 10 .and. all(z == [(100 * right + i, i = 1, 10)]), 'reallocating read')
  z = x[right]%b(2:4)
  call check(size(z) == 3 .and. all(z == 100 * right + [2, 3, 4]), 'reallocating read, new shape')
  zz = x[right]%m
  call check(all(shape(zz) == [4, 2]), 'reallocating 2-D read shape')
  call check(all(zz == reshape([(10 * right + i, i = 1, 8)], [4, 2])), 'reallocating 2-D read')
  sync all

  ! writes through components
  x[right]%b(2:8:3) = [-1, -2, -3]
  c(1)[right]%b(1:4) = [(-10 * me - i, i = 1, 4)]
  x[right]%in%w(2) = 0.5
  x[right]%s(2) = 'abcde'
  sync all
  call check(all(x%b([2, 5, 8]) == [-1, -2, -3]), 'strided component write')
  call check(x%b(3) == 100 * me + 3, 'component write touched other elements')
  call check(all(c(1)%b(1:4) == [(-10 * left - i, i = 1, 4)]), 'c(1)[j]%b(1:n) = ...')
  call check(all(c(1)%b(5:8) == 10000 * me + 100 + [5, 6, 7, 8]), 'c(1)[j]%b write overran')
  call check(all(c(2)%b == [(10000 * me + 200 + i, i = 1, 8)]), 'c(1)[j]%b write hit c(2)')
  call check(x%in%w(2) == 0.5d0 .and. x%in%w(1) == me + 0.25d0, 'nested component write')
  call check(x%s(2) == 'abcde' .and. x%s(1)(1:3) == 'img', 'character component write')
  sync all

  ! component to component between two other images (or this one with 2 images)
  far = merge(1, right + 1, right == n)
  x[right]%b(1:3) = c(3)[far]%b(6:8)
  sync all
  k = merge(1, me + 1, me == n)
  call check(all(x%b(1:3) == 10000 * k + 300 + [6, 7, 8]), 'component sendget')

  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program derived_alloc_components
