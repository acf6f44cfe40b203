! Tests: every atomic subroutine against known values, on a neighbour's coarray and locally:
! ATOMIC_DEFINE/REF/CAS, ATOMIC_ADD/AND/OR/XOR and the FETCH forms, which must return the OLD
! value (bit patterns chosen so that XOR done as OR, or a stale OLD, gives a different result);
! negative values; LOGICAL atomics; concurrent ATOMIC_ADD and ATOMIC_FETCH_ADD from all images
! to one (exact count, unique tickets); ATOMIC_CAS as a spin lock guarding a plain counter.
! test: images 1 2 3 4
! test: scalable
! test: count {n} PASS
program atomics_test
  use iso_fortran_env, only: atomic_int_kind, atomic_logical_kind
  implicit none
  integer, parameter :: k = 500
  integer(atomic_int_kind) :: x(4)[*], cnt[*], tick[*], spin[*], mine[*]
  logical(atomic_logical_kind) :: flag(2)[*]
  integer :: shared[*]
  integer(atomic_int_kind) :: old, v
  logical(atomic_logical_kind) :: lv, lold
  integer :: me, n, right, i, st, tmp
  integer, allocatable :: seen(:)

  me = this_image()
  n = num_images()
  right = mod(me, n) + 1
  cnt = 0
  tick = 0
  spin = 0
  shared = 0
  sync all

  ! x(1) and x(2) of the right neighbour are touched by this image only.
  call atomic_define(x(1)[right], 12, stat=st)                ! 1100
  call check(st == 0, 'atomic_define stat')
  call atomic_ref(v, x(1)[right])
  call check(v == 12, 'atomic_ref after atomic_define')
  call atomic_fetch_xor(x(1)[right], 10, old)                   ! 1100 xor 1010 = 0110
  call check(old == 12, 'atomic_fetch_xor old')
  call atomic_ref(v, x(1)[right])
  call check(v == 6, 'atomic_fetch_xor is xor (or would give 14)')
  call atomic_fetch_or(x(1)[right], 9, old)                     ! 0110 or 1001 = 1111
  call check(old == 6, 'atomic_fetch_or old')
  call atomic_fetch_and(x(1)[right], 5, old)                    ! 1111 and 0101 = 0101
  call check(old == 15, 'atomic_fetch_and old')
  call atomic_fetch_add(x(1)[right], -7, old)                   ! 5 - 7 = -2
  call check(old == 5, 'atomic_fetch_add old')
  call atomic_ref(v, x(1)[right])
  call check(v == -2, 'atomic_fetch_add result')
  call atomic_add(x(1)[right], 3)                               ! 1
  call atomic_or(x(1)[right], 6)                                ! 0001 or 0110 = 0111
  call atomic_and(x(1)[right], 13, stat=st)                     ! 0111 and 1101 = 0101
  call check(st == 0, 'atomic_and stat')
  call atomic_xor(x(1)[right], 6)                               ! 0101 xor 0110 = 0011
  call atomic_ref(v, x(1)[right], stat=st)
  call check(v == 3 .and. st == 0, 'atomic_add/or/and/xor chain (xor as or gives 7)')
  call atomic_cas(x(1)[right], old, 4, 9)
  call check(old == 3, 'atomic_cas old on mismatch')
  call atomic_ref(v, x(1)[right])
  call check(v == 3, 'atomic_cas on mismatch leaves the value')
  call atomic_cas(x(1)[right], old, 3, -9, stat=st)
  call check(old == 3 .and. st == 0, 'atomic_cas old on match')
  call atomic_ref(v, x(1)[right])
  call check(v == -9, 'atomic_cas on match stores')
  call atomic_fetch_add(x(1)[right], 1, old)
  call check(old == -9, 'atomic_fetch_add old of a negative value')
  call atomic_define(x(2)[right], huge(v))
  call atomic_fetch_xor(x(2)[right], -1, old)
  call atomic_ref(v, x(2)[right])
  call check(old == huge(v) .and. v == -huge(v) - 1, 'atomic_fetch_xor with all bits')

  ! The same on this image's own coarray (no image selector).
  call atomic_define(mine, 7)
  call atomic_fetch_add(mine, 5, old)
  call atomic_fetch_xor(mine, 6, old)
  call check(old == 12, 'local atomic_fetch_xor old')
  call atomic_ref(v, mine)
  call check(v == 10, 'local atomic_fetch_xor (or gives 14)')

  ! LOGICAL atomics.
  call atomic_define(flag(1)[right], .true.)
  call atomic_ref(lv, flag(1)[right])
  call check(lv, 'logical atomic_define/ref')
  call atomic_cas(flag(1)[right], lold, .false., .false.)
  call check(lold, 'logical atomic_cas old on mismatch')
  call atomic_ref(lv, flag(1)[right])
  call check(lv, 'logical atomic_cas on mismatch leaves the value')
  call atomic_cas(flag(1)[right], lold, .true., .false.)
  call atomic_ref(lv, flag(1)[right])
  call check(lold .and. .not. lv, 'logical atomic_cas on match stores')

  sync all
  call atomic_ref(v, x(1))
  call check(v == -8, 'the left neighbour''s result is visible here after sync all')

  ! Concurrent updates of image 1's counters.
  do i = 1, k
    call atomic_add(cnt[1], 1)
  end do
  allocate(seen(0:n * k - 1))
  seen = 0
  do i = 1, k
    call atomic_fetch_add(tick[1], 1, old)
    call check(old >= 0 .and. old < n * k, 'ticket in range')
    seen(old) = seen(old) + 1
  end do
  call co_sum(seen)
  call check(all(seen == 1), 'atomic_fetch_add hands out every ticket exactly once')

  ! ATOMIC_CAS as a spin lock around a plain (non-atomic) remote update.
  do i = 1, k / 5
    do
      call atomic_cas(spin[1], old, 0, me)
      if (old == 0) exit
    end do
    ! (through a temporary: gfortran 15 reads a coindexed reference on the right of an assignment
    ! to a coindexed variable from this image instead; docs/ARCHITECTURE.md, ABI limits)
    tmp = shared[1]
    shared[1] = tmp + 1
    call atomic_define(spin[1], 0)
  end do
  sync all
  if (me == 1) then
    call atomic_ref(v, cnt)
    call check(v == n * k, 'concurrent atomic_add count')
    call check(shared == n * (k / 5), 'counter guarded by an atomic_cas spin lock')
  end if

  print '(a,i0)', 'PASS ', me

contains

  include 'check.inc'

end program atomics_test
