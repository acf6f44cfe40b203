! Tests: coindexed references compiled into GCC 15+ accessors while the images they target are
! busy with accessors of their own. Over MPI without a mapping of the target's memory
! (FERROCAF_MPI_SHM=0, or another node) each accessor runs on the owner, which serves requests
! whenever it enters the runtime: every image reads, writes and copies through its neighbours'
! allocatable components at the same time (each waits for its own replies while serving the
! others' requests), the reads use an allocatable vector subscript (the owner fetches it back
! from the waiting caller), and then image 1 computes for a while outside the runtime while
! the others read from it: they wait for its next runtime call and get the right values.
! test: images 2 3 4
! test: gfortran >= 15
! test: count {n} PASS
! test: timeout 120
program accessor_concurrent
  implicit none
  type :: box
    integer, allocatable :: v(:)
    character(len=12) :: name
  end type box
  type(box) :: b[*]
  integer :: me, n, right, left, i, k, bad
  integer, allocatable :: got(:), idx(:)
  character(len=12) :: who
  real(8) :: acc

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)
  allocate (b%v(10 + me))
  b%v = [(1000 * me + i, i = 1, 10 + me)]
  write (who, '(a,i0)') 'image-', me
  b%name = who
  sync all

  ! Everyone at once: reads of a whole allocatable component, of a section through a vector
  ! subscript held in an allocatable, of a character component, ALLOCATED() and writes
  ! into the right neighbour's slot 1, many times over.
  bad = 0
  idx = [3, 4, 2]
  do k = 1, 50
    got = b[right]%v
    if (size(got) /= 10 + right .or. got(10 + right) /= 1000 * right + 10 + right) bad = bad + 1
    got = b[left]%v(idx)
    if (any(got /= 1000 * left + idx)) bad = bad + 1
    write (who, '(a,i0)') 'image-', right
    if (b[right]%name /= who) bad = bad + 1
    if (.not. allocated(b[left]%v)) bad = bad + 1
    b[right]%v(1) = 100000 * me + k
  end do
  sync all
  if (b%v(1) /= 100000 * left + 50) bad = bad + 1

  ! A copy between two images, image 1 executing it (image 2 gets image n's values).
  if (me == 1) b[right]%v(2:3) = b[left]%v(2:3)
  sync all
  if (me == 2 .and. any(b%v(2:3) /= [1000 * n + 2, 1000 * n + 3])) bad = bad + 1

  ! Image 1 computes outside the runtime; the others read from it meanwhile and are answered
  ! at its next runtime call (the SYNC ALL).
  if (me == 1) then
    acc = 0
    do i = 1, 5000000
      acc = acc + sqrt(real(i, 8))
    end do
    if (acc <= 0) bad = bad + 1
  else
    got = b[1]%v(4:5)
    if (any(got /= [1004, 1005])) bad = bad + 1
  end if
  sync all
  if (bad == 0) then
    print '(a,i0)', 'PASS accessors between busy images on image ', me
  else
    print '(a,i0,a,i0)', 'FAIL accessors between busy images on image ', me, ': ', bad
  end if
end program accessor_concurrent
