! Tests: coindexed references compiled into GCC 15+ accessors whose requests and replies are
! far longer than one message of the transport: where the accessor runs on the owner (over MPI
! without the shared window, over libfabric, whose messages travel in 4 KiB pieces), every
! image at once reads its right neighbour's 300 000-element allocatable component (a reply of
! 1.2 MB), writes a 50 000-element array into it (a request of 200 kB) and a vector-subscripted
! section whose subscript (an allocatable the owner fetches back from the waiting caller) has
! 2000 elements, while its left neighbour does the same to it; a get with a non-aligned size
! (4081 bytes of characters) checks the last, partial piece.
! test: images 2 3
! test: gfortran >= 15
! test: count {n} PASS
! test: timeout 120
program accessor_large
  implicit none
  integer, parameter :: big = 300000, mid = 50000, nidx = 2000
  type :: box
    integer, allocatable :: v(:)
    character(len=4081) :: text
  end type box
  type(box) :: b[*]
  integer :: me, n, right, left, i, k, bad
  integer, allocatable :: got(:), idx(:), part(:)
  character(len=4081) :: text

  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  left = merge(n, me - 1, me == 1)
  allocate (b%v(big))
  b%v = [(me * 1000000 + i, i = 1, big)]
  do i = 1, len(b%text)
    b%text(i:i) = achar(iachar('a') + mod(i + me, 26))
  end do
  sync all

  bad = 0
  idx = [(3 * i, i = 1, nidx)]
  do k = 1, 3
    got = b[right]%v
    if (size(got) /= big) bad = bad + 1
    if (any(got /= [(right * 1000000 + i, i = 1, big)])) bad = bad + 1
    part = b[right]%v(idx)
    if (any(part /= right * 1000000 + idx)) bad = bad + 1
    text = b[right]%text
    do i = 1, len(text)
      if (text(i:i) /= achar(iachar('a') + mod(i + right, 26))) bad = bad + 1
    end do
  end do
  sync all

  ! Writes: the first mid elements of the right neighbour's component become -(me * 100000 + i).
  b[right]%v(1:mid) = [(-(me * 100000 + i), i = 1, mid)]
  sync all
  if (any(b%v(1:mid) /= [(-(left * 100000 + i), i = 1, mid)])) bad = bad + 1
  if (any(b%v(mid + 1:) /= [(me * 1000000 + i, i = mid + 1, big)])) bad = bad + 1
  sync all

  if (bad == 0) then
    print '(a)', 'PASS'
  else
    print '(a,i0,a,i0)', 'FAIL on image ', me, ': ', bad
  end if
end program accessor_large
