! Tests: coindexed references that gfortran 15+ compiles into accessors. Components and
! allocatable components three levels deep, strided sections of them, vector subscripts held in
! an allocatable (the accessor fetches it back from the calling image with a nested get on its
! add_data token), CHARACTER scalars and arrays, substring writes, ALLOCATED() of remote allocatable
! components, reads into an unallocated allocatable (reallocated to the shape read), an
! allocatable coarray array of derived type, a put whose source overlaps its destination on the
! same image, and copies between two images that are both not the executing one.
! test: images 3 4
! test: gfortran >= 15
! test: count {n} PASS
program accessor_components
  implicit none
  type :: leaf
    real(8), allocatable :: v(:)
    character(len=6) :: tag
  end type leaf
  type :: mid
    type(leaf), allocatable :: lf
    integer :: m(3, 4)
  end type mid
  type :: top
    type(mid) :: md
    integer, allocatable :: list(:)
    integer, allocatable :: never(:)
  end type top
  type(top) :: x[*]
  type(leaf), allocatable :: c(:)[:]
  integer :: a(20)[*], me, n, right, left, i, j
  character(len=8) :: s[*], names(3)[*]
  integer, allocatable :: iv(:), z(:)
  real(8), allocatable :: rz(:)
  real(8) :: r(3)
  character(len=8) :: got8
  integer :: g(4), g2(2, 2)

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)
  a = [(100 * me + i, i = 1, 20)]
  allocate (x%md%lf)
  allocate (x%md%lf%v(10))
  x%md%lf%v = [(me + i / 10d0, i = 1, 10)]
  x%md%lf%tag = 'img' // achar(iachar('0') + me)
  x%md%m = reshape([(10 * me + i, i = 1, 12)], [3, 4])
  allocate (x%list(5))
  x%list = [(1000 * me + i, i = 1, 5)]
  s = 'image ' // achar(iachar('0') + me) // '!'
  names = ['alpha' // achar(iachar('0') + me), 'beta' // achar(iachar('0') + me), &
           'gamma' // achar(iachar('0') + me)]
  allocate (c(3)[*])
  do i = 1, 3
    allocate (c(i)%v(i))
    c(i)%v = 10 * me + i
    c(i)%tag = 'c'
  end do
  sync all

  ! three levels of allocatable components, a strided section at the bottom
  r = x[right]%md%lf%v(2:10:4)
  call check(all(r == right + [2, 6, 10] / 10d0), 'strided section three levels down')
  call check(x[right]%md%lf%tag == 'img' // achar(iachar('0') + right), 'CHARACTER component')
  g2 = x[right]%md%m(1:3:2, 2:4:2)
  call check(all(g2 == reshape(10 * right + [4, 6, 10, 12], [2, 2])), '2-D strided component')

  ! vector subscripts from an allocatable: fetched back from this image by the accessor
  iv = [5, 1, 3, 5]
  g = x[right]%list(iv)
  call check(all(g == 1000 * right + [5, 1, 3, 5]), 'allocatable vector subscript, component')
  g = a(iv)[right]
  call check(all(g == 100 * right + [5, 1, 3, 5]), 'allocatable vector subscript, array')

  ! ALLOCATED() of remote components
  call check(allocated(x[right]%md%lf), 'allocated(x[j]%md%lf)')
  call check(allocated(x[right]%md%lf%v), 'allocated(x[j]%md%lf%v)')
  call check(.not. allocated(x[right]%never), '.not. allocated(x[j]%never)')
  call check(allocated(c(2)[right]%v), 'allocated(c(2)[j]%v)')

  ! reallocating reads
  z = x[right]%list(2:4)
  call check(size(z) == 3 .and. all(z == 1000 * right + [2, 3, 4]), 'read into unallocated')
  rz = c(3)[right]%v
  call check(size(rz) == 3 .and. all(rz == 10 * right + 3), 'allocatable coarray array')

  ! CHARACTER scalars, substrings, arrays
  got8 = s[right]
  call check(got8 == 'image ' // achar(iachar('0') + right) // '!', 'CHARACTER scalar')
  ! (a substring of a coindexed CHARACTER read, s[j](7:8), does not compile with gfortran 15
  ! and 16: "size of variable caf_res is too large")
  got8 = names(2)[right]
  call check(got8 == 'beta' // achar(iachar('0') + right), 'CHARACTER array element')
  sync all

  ! writes: components, strided, vector-subscripted, substring
  x[right]%md%lf%v(1:9:4) = [-1d0, -2d0, -3d0]
  x[right]%list(iv(2:3)) = [-7, -8]
  s[right](1:5) = 'IMAGE'
  names(3)[right] = 'written'
  sync all
  call check(all(x%md%lf%v([1, 5, 9]) == [-1d0, -2d0, -3d0]), 'strided component write')
  call check(x%md%lf%v(2) == me + 0.2d0, 'strided write touched a neighbour')
  call check(x%list(1) == -7 .and. x%list(3) == -8 .and. x%list(2) == 1000 * me + 2, &
             'vector-subscripted component write')
  call check(s == 'IMAGE ' // achar(iachar('0') + me) // '!', 'substring write')
  call check(names(3) == 'written', 'CHARACTER array element write')
  sync all

  ! a put whose source overlaps the destination on the same image (as if through a temporary)
  a(2:20)[me] = a(1:19)
  call check(all(a(2:20) == 100 * me + [(i, i = 1, 19)]) .and. a(1) == 100 * me + 1, &
             'overlapping put to this image')
  sync all

  ! copies between two other images: image 1 moves data from image 2 to image 3
  if (me == 1) then
    x[3]%md%lf%v(2:4) = x[2]%md%lf%v(6:8)
    a(1:5)[3] = x[2]%list
    ! (a CHARACTER component copied between two coindexed objects crashes gfortran 15 and 16)
    s[3] = s[2]
  end if
  sync all
  if (me == 3) then
    call check(all(x%md%lf%v(2:4) == 2 + [6, 7, 8] / 10d0), 'component copy between others')
    call check(all(a(1:5) == [-7, 2002, -8, 2004, 2005]), 'array copy between others')
    call check(s == 'IMAGE 2!', 'CHARACTER copy between others')
  end if
  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program accessor_components
