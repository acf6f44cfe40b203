! PRK-style Synch_p2p with event_attach: a pipelined wavefront over an m x n grid split into
! column blocks; every image waits for its left neighbour's boundary value row by row, which
! arrives by an attached put. A(i,j) = A(i-1,j) + A(i,j-1) - A(i-1,j-1), A(i,1)=i-1,
! A(1,j)=j-1, so the corner is (m-1)+(n-1). Repeated to exercise many notifications.
! test: images 1 2 4
! test: scalable
! test: vary FERROCAF_EVENTS=atomic,p2p,notified
! test: stdout PASS
! test: timeout 60
program notify_p2p_pipeline
  use, intrinsic :: iso_fortran_env, only: event_type
  use ferrocaf_ext
  implicit none
  integer, parameter :: m = 200, cols = 40, iters = 10
  type(event_type) :: arrived[*]
  real(8) :: halo(m)[*], a(m, 0:cols)
  integer :: me, n, i, j, it, jg
  real(8) :: corner
  me = this_image(); n = num_images()
  call event_attach(arrived, halo)
  sync all
  do it = 1, iters
    ! global column jg = (me-1)*cols + j for j = 1..cols; a(:,0) is the left halo
    do i = 1, m
      if (me == 1) then
        a(i, 0) = i - 1 - 1    ! column 0 of the grid is the left boundary minus one step
      else
        event wait (arrived)
        a(i, 0) = halo(i)
      end if
      do j = 1, cols
        jg = (me - 1) * cols + j
        if (i == 1) then
          a(i, j) = jg - 1
        else if (me == 1 .and. j == 1) then
          a(i, j) = i - 1
        else
          a(i, j) = a(i-1, j) + a(i, j-1) - a(i-1, j-1)
        end if
      end do
      if (me < n) halo(i)[me + 1] = a(i, cols)
    end do
    sync all
  end do
  if (me == n) then
    corner = a(m, cols)
    if (corner /= real(m - 1 + n*cols - 1, 8)) then
      print *, 'FAIL: corner', corner, 'expected', m - 1 + n*cols - 1
      error stop 1
    end if
    print '(a)', 'PASS'
  end if
end program
