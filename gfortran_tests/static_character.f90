! Tests: static coarrays of CHARACTER kind 1 (len 5) and kind 4 (len 3, non-ASCII code points).
! Each image puts into its right neighbour's coarray, syncs and checks what its left neighbour
! sent; then gets the values back from its right neighbour. Scalars and ranks 1, 2 and 3.
! test: images 2 4
! test: count {n} PASS
program static_character
  use iso_fortran_env
  implicit none
  integer, parameter :: ucs4 = selected_char_kind('ISO_10646')
  character(len=5) :: s_c1[*], v_c1(4)[*], m_c1(3,2)[*], c_c1(2,3,2)[*]
  character(len=5) :: x_c1(12), y_c1(12), t0_c1, t1_c1(4), t2_c1(3,2), t3_c1(2,3,2)
  character(len=3, kind=ucs4) :: s_c4[*], v_c4(4)[*], m_c4(3,2)[*], c_c4(2,3,2)[*]
  character(len=3, kind=ucs4) :: x_c4(12), y_c4(12), t0_c4, t1_c4(4), t2_c4(3,2), t3_c4(2,3,2)
  integer :: me, left, right, k

  me = this_image()
  right = merge(1, me + 1, me == num_images())
  left = merge(num_images(), me - 1, me == 1)

  ! ---- character(len=5) ----
  x_c1 = [(repeat(achar(64 + me), 3) // achar(96 + k) // achar(48 + mod(k, 10)), k = 1, 12)]
  y_c1 = [(repeat(achar(64 + left), 3) // achar(96 + k) // achar(48 + mod(k, 10)), k = 1, 12)]
  s_c1[right] = x_c1(1)
  v_c1(:)[right] = x_c1(1:4)
  m_c1(:,:)[right] = reshape(x_c1(1:6), [3, 2])
  c_c1(:,:,:)[right] = reshape(x_c1, [2, 3, 2])
  sync all
  if (s_c1 /= y_c1(1)) call fail('character(len=5) rank 0 put')
  if (any(v_c1 /= y_c1(1:4))) call fail('character(len=5) rank 1 put')
  if (any(m_c1 /= reshape(y_c1(1:6), [3, 2]))) call fail('character(len=5) rank 2 put')
  if (any(c_c1 /= reshape(y_c1, [2, 3, 2]))) call fail('character(len=5) rank 3 put')
  t0_c1 = s_c1[right]
  t1_c1 = v_c1(:)[right]
  t2_c1 = m_c1(:,:)[right]
  t3_c1 = c_c1(:,:,:)[right]
  if (t0_c1 /= x_c1(1)) call fail('character(len=5) rank 0 get')
  if (any(t1_c1 /= x_c1(1:4))) call fail('character(len=5) rank 1 get')
  if (any(t2_c1 /= reshape(x_c1(1:6), [3, 2]))) call fail('character(len=5) rank 2 get')
  if (any(t3_c1 /= reshape(x_c1, [2, 3, 2]))) call fail('character(len=5) rank 3 get')
  sync all

  ! ---- character(len=3, kind=ucs4) ----
  x_c4 = [(char(19968 + me*13 + k, ucs4) // char(945 + k, ucs4) // char(65 + me, ucs4), k = 1, 12)]
  y_c4 = [(char(19968 + left*13 + k, ucs4) // char(945 + k, ucs4) // char(65 + left, ucs4), k = 1, 12)]
  s_c4[right] = x_c4(1)
  v_c4(:)[right] = x_c4(1:4)
  m_c4(:,:)[right] = reshape(x_c4(1:6), [3, 2])
  c_c4(:,:,:)[right] = reshape(x_c4, [2, 3, 2])
  sync all
  if (s_c4 /= y_c4(1)) call fail('character(len=3, kind=ucs4) rank 0 put')
  if (any(v_c4 /= y_c4(1:4))) call fail('character(len=3, kind=ucs4) rank 1 put')
  if (any(m_c4 /= reshape(y_c4(1:6), [3, 2]))) call fail('character(len=3, kind=ucs4) rank 2 put')
  if (any(c_c4 /= reshape(y_c4, [2, 3, 2]))) call fail('character(len=3, kind=ucs4) rank 3 put')
  t0_c4 = s_c4[right]
  t1_c4 = v_c4(:)[right]
  t2_c4 = m_c4(:,:)[right]
  t3_c4 = c_c4(:,:,:)[right]
  if (t0_c4 /= x_c4(1)) call fail('character(len=3, kind=ucs4) rank 0 get')
  if (any(t1_c4 /= x_c4(1:4))) call fail('character(len=3, kind=ucs4) rank 1 get')
  if (any(t2_c4 /= reshape(x_c4(1:6), [3, 2]))) call fail('character(len=3, kind=ucs4) rank 2 get')
  if (any(t3_c4 /= reshape(x_c4, [2, 3, 2]))) call fail('character(len=3, kind=ucs4) rank 3 get')
  sync all

  print '(a,i0)', 'PASS ', me

contains

  subroutine fail(what)
    character(*), intent(in) :: what
    print '(a,i0,2a)', 'FAIL on image ', this_image(), ': ', what
    error stop 1
  end subroutine fail

end program static_character
