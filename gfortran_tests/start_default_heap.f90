! Tests: a job with the default 1 GiB heap per image starts and ends promptly, and a coarray at
! the far end of the symmetric heap is usable. MPICH 4.0 placed the MPI windows at one address
! in every process by probing the range page by page: 5 to 13 s to start 2 images, until ferrocaf
! switched that off (transport/mpi/tune.rs). Not run with FERROCAF_MPI_SHM=0: Open MPI 4.1's
! osc/rdma writes every page of an MPI_Win_allocate window (2 GiB per image here) when it
! creates it, 4-5 s for 2 images (docs/ARCHITECTURE.md, MPI transport).
! test: requires shared-window
! test: images 2
! test: env FERROCAF_HEAP_SIZE=1G
! test: timeout 4
! test: count {n} PASS
program start_default_heap
  implicit none
  integer, parameter :: big = 120 * 1024 * 1024   ! 960 MiB of the 1 GiB symmetric heap
  integer(8), allocatable :: a(:)[:]
  integer :: me, n, other

  me = this_image()
  n = num_images()
  allocate (a(big)[*])
  a(big) = me
  sync all
  other = 1 + mod(me, n)
  if (a(big)[other] /= other) then
    print *, 'FAIL: last element of image', other, 'reads', a(big)[other]
    error stop 1
  end if
  sync all
  deallocate (a)
  print *, 'PASS', me
end program
