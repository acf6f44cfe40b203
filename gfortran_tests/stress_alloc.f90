! Stress: 10000*STRESS_SCALE cycles (10^5 with STRESS_SCALE=10) of ALLOCATE/DEALLOCATE of a
! coarray (symmetric heap) and of an allocatable component of a coarray (local heap), each
! used between; resident memory stays flat (at most 1 MiB growth after the first 100 cycles)
! and the heaps end where they started (a big coarray still fits afterwards).
! test: images 2 3
! test: env FERROCAF_HEAP_SIZE=64M
! test: requires steady-memory
! test: count {n} PASS
! test: timeout 300
program stress_alloc
  implicit none
  type t
    real(8), allocatable :: c(:)
  end type t
  real(8), allocatable :: a(:)[:], big(:)[:]
  type(t) :: d[*]
  integer :: cycles, k, me, n, rss0, st
  real :: t0

  me = this_image(); n = num_images()
  cycles = 10000 * scale()
  rss0 = 0
  t0 = seconds()
  do k = 1, cycles
    if (k == 100) rss0 = rss_kib()
    allocate (a(1000 + mod(k, 7) * 100)[*])
    allocate (d%c(500 + mod(k, 5) * 50))
    a = k
    d%c = -k
    sync all
    if (a(1)[modulo(me, n) + 1] /= k .or. d[modulo(me, n) + 1]%c(1) /= -k) then
      print '(a,i0)', 'FAIL wrong data in cycle ', k
      error stop 1
    end if
    sync all ! a component's DEALLOCATE does not synchronise: wait until nobody reads it
    deallocate (d%c)
    deallocate (a)
  end do
  if (rss_kib() - rss0 > 1024) then
    print '(a,i0,a,i0,a)', 'FAIL resident memory grew from ', rss0, ' to ', rss_kib(), ' KiB'
    error stop 1
  end if
  ! 7/8 of the symmetric heap in one piece: only possible if every cycle gave its block back
  allocate (big(7 * 1024 * 1024)[*], stat=st)
  if (st /= 0) error stop 'the symmetric heap did not return to empty'
  if (me == 1) print '(a,i0,a,f8.3,a)', 'cycles ', cycles, ' in ', seconds() - t0, ' s'
  print '(a,i0)', 'PASS ', me

contains

  include 'stress_common.inc'

end program stress_alloc
