! Stress: every image applies 5000*STRESS_SCALE random atomic_fetch_add/and/or/xor to ONE word
! on image 1. The word is split into fields so that a sequential model can be computed from the
! per-image logs whatever the interleaving: bits 0-17 only ever get +1 (fetch_add), bits 18-23
! only ever get a bit set (fetch_or), bits 24-29 (initially set) only a bit cleared (fetch_and),
! bits 30-31 only toggled (fetch_xor). Checked: the final word equals the model; the fetch_add
! old values over all images are exactly 0..adds-1 (no lost or duplicated update); on every
! image the old values it saw move forward in program order and include its own earlier updates.
! test: images 2 4
! test: scalable
! test: count 1 PASS
! test: timeout 300
program stress_atomics
  use iso_fortran_env, only: atomic_int_kind
  implicit none
  integer, parameter :: add_bits = 18, or_lo = 18, and_lo = 24, xor_lo = 30
  integer(atomic_int_kind) :: w[*]
  integer, allocatable :: addold(:)[:]
  integer :: nadd[*], orset[*], andclr[*], xorall[*]
  integer :: k, ops, op, b, val, old, prev, me, i, j, total, got, mine_or, mine_and
  logical, allocatable :: seen(:)
  real :: r(2), t0

  me = this_image()
  ops = 5000 * scale()
  allocate (addold(ops)[*])
  call random_init(.false., .true.)
  w = 0
  do b = and_lo, and_lo + 5
    w = ibset(w, b)
  end do
  nadd = 0; orset = 0; andclr = 0; xorall = 0; mine_or = 0; mine_and = 0
  prev = w
  sync all
  t0 = seconds()
  do k = 1, ops
    call random_number(r)
    op = int(r(1) * 4)
    b = int(r(2) * 6)
    select case (op)
    case (0)
      call atomic_fetch_add(w[1], 1, old)
      nadd = nadd + 1
      addold(nadd) = iand(old, 2**add_bits - 1)
    case (1)
      val = ibset(0, or_lo + b)
      call atomic_fetch_or(w[1], val, old)
      orset = ior(orset, val)
    case (2)
      val = not(ibset(0, and_lo + b))
      call atomic_fetch_and(w[1], val, old)
      andclr = ior(andclr, not(val))
    case default
      val = ibset(0, xor_lo + mod(b, 2))
      call atomic_fetch_xor(w[1], val, old)
      xorall = ieor(xorall, val)
    end select
    call forward(prev, old)
    ! this image's own earlier updates are visible in what it sees now
    call check(iand(old, mine_or) == mine_or, 'an own earlier fetch_or is missing')
    call check(iand(old, mine_and) == 0, 'an own earlier fetch_and is undone')
    mine_or = orset
    mine_and = andclr
    prev = old
  end do
  sync all
  if (me == 1) then
    total = 0
    do i = 1, num_images()
      total = total + nadd[i]
    end do
    allocate (seen(0:total - 1))
    seen = .false.
    do i = 1, num_images()
      got = nadd[i]
      do j = 1, got
        old = addold(j)[i]
        call check(old >= 0 .and. old < total, 'a fetch_add old value out of range')
        call check(.not. seen(old), 'two fetch_adds returned the same old value')
        seen(old) = .true.
      end do
    end do
    call check(ibits(w, 0, add_bits) == total, 'the add field is not the number of adds')
    old = 0
    val = 0
    b = 0
    do i = 1, num_images()
      old = ior(old, orset[i])
      val = ior(val, andclr[i])
      b = ieor(b, xorall[i])
    end do
    call check(ibits(w, or_lo, 6) == ibits(old, or_lo, 6), 'the or field differs from the model')
    call check(ibits(w, and_lo, 6) == ibits(not(val), and_lo, 6), 'the and field differs')
    call check(ibits(w, xor_lo, 2) == ibits(b, xor_lo, 2), 'the xor field differs')
    print '(a,i0,a,f8.3,a)', 'PASS ', ops * num_images(), ' atomic updates in ', &
      seconds() - t0, ' s'
  end if

contains

  include 'stress_common.inc'

  !> The word only moves forward: adds grow, set bits stay set, cleared bits stay clear.
  subroutine forward(before, after)
    integer, intent(in) :: before, after
    call check(ibits(after, 0, add_bits) >= ibits(before, 0, add_bits), 'the add field went back')
    call check(iand(ibits(after, or_lo, 6), ibits(before, or_lo, 6)) == ibits(before, or_lo, 6), &
               'a set bit was lost')
    call check(iand(ibits(after, and_lo, 6), not(ibits(before, and_lo, 6))) == 0, &
               'a cleared bit came back')
  end subroutine forward

  include 'check.inc'

end program stress_atomics
