! Tests: puts into another image of sizes around the streaming threshold (32 KiB:
! transport/shm/stream.rs, the copy of gfortran 12-14 puts), at destination and source offsets that are
! not 16-byte aligned, copy exactly their bytes and nothing beside them; a large put followed by
! EVENT POST is complete when the partner's EVENT WAIT returns (the streaming stores are fenced);
! a put between two remote sections of one image that overlap goes through intact; a put into
! this image's own coarray from an overlapping section of it too.
! -O2: gfortran 15+ receivers then copy a contiguous section with one memcpy (the C library's).
! test: images 2 3
! test: flags -O2
! test: count {n} PASS
program large_puts
  use, intrinsic :: iso_fortran_env, only: int8, event_type
  implicit none
  integer, parameter :: BIG = 140000
  integer, parameter :: SIZES(9) = [16384, 32767, 32768, 32769, 32831, 32832, 32833, &
                                    65536 + 5, 131072 + 63]
  integer, parameter :: OFFS(4) = [0, 1, 7, 9]
  integer(int8) :: b(BIG)[*]
  integer(int8), allocatable :: src(:), expect(:)
  type(event_type) :: ev[*]
  integer :: me, right, left, s, o, n, off, i
  logical :: ok

  me = this_image()
  right = merge(1, me + 1, me == num_images())
  left = merge(num_images(), me - 1, me == 1)
  allocate (src(BIG), expect(BIG))
  ok = .true.

  ! Every size at every destination offset (and the source offset after it).
  do s = 1, size(SIZES)
    do o = 1, size(OFFS)
      n = SIZES(s)
      off = OFFS(o)
      b = -1_int8
      src = [(pattern(me, s, o, i), i = 1, BIG)]
      sync all
      b(1 + off:n + off)[right] = src(2 + off:n + off + 1)
      sync all
      expect = -1_int8
      expect(1 + off:n + off) = [(pattern(left, s, o, i), i = 2 + off, n + off + 1)]
      if (any(b /= expect)) then
        ok = .false.
        print '(a,i0,a,i0)', 'wrong bytes after a put of ', n, ' at offset ', off
      end if
    end do
  end do

  ! Put + EVENT POST ping-pong: the partner sees the whole payload once its wait returns.
  sync all
  n = 100003
  do i = 1, 20
    if (me == 1) then
      b(1:n)[2] = [(int(mod(i * 31 + s, 127), int8), s = 1, n)]
      event post (ev[2])
      event wait (ev)
      ok = ok .and. check_payload(i + 1000)
    else if (me == 2) then
      event wait (ev)
      ok = ok .and. check_payload(i)
      b(1:n)[1] = [(int(mod((i + 1000) * 31 + s, 127), int8), s = 1, n)]
      event post (ev[1])
    end if
  end do

  ! Overlapping sections of one remote image, and of this image's own coarray.
  sync all
  b = [(int(mod(i, 113), int8), i = 1, BIG)]
  sync all
  if (me == 1) b(5:70004)[right] = b(1:70000)[right]
  sync all
  if (me == right) then
    expect = [(int(mod(i, 113), int8), i = 1, BIG)]
    expect(5:70004) = [(int(mod(i, 113), int8), i = 1, 70000)]
    if (any(b /= expect)) then
      ok = .false.
      print '(a)', 'wrong bytes after an overlapping put between remote sections'
    end if
  end if
  sync all
  b = [(int(mod(i, 113), int8), i = 1, BIG)]
  b(3:70002)[me] = b(1:70000)
  expect = [(int(mod(i, 113), int8), i = 1, BIG)]
  expect(3:70002) = [(int(mod(i, 113), int8), i = 1, 70000)]
  if (any(b /= expect)) then
    ok = .false.
    print '(a)', 'wrong bytes after an overlapping put into this image'
  end if

  sync all
  if (ok) print '(a)', 'PASS'

contains

  pure integer(int8) function pattern(image, s, o, i)
    integer, intent(in) :: image, s, o, i
    pattern = int(mod(image * 37 + s * 11 + o * 5 + i, 251) - 125, int8)
  end function pattern

  logical function check_payload(k)
    integer, intent(in) :: k
    integer :: j
    check_payload = all(b(1:n) == [(int(mod(k * 31 + j, 127), int8), j = 1, n)])
    if (.not. check_payload) print '(a,i0)', 'incomplete payload after EVENT WAIT, round ', k
  end function check_payload

end program large_puts
