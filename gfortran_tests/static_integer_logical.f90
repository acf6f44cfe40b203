! Tests: static coarrays of every INTEGER kind (1, 2, 4, 8, 16) and LOGICAL kind (1, 2, 4, 8).
! Each image puts into its right neighbour's coarray, syncs and checks what its left neighbour
! sent; then gets the values back from its right neighbour. Scalars and ranks 1, 2 and 3.
! test: images 2 4
! test: count {n} PASS
program static_integer_logical
  use iso_fortran_env
  implicit none
  integer(int8) :: s_i1[*], v_i1(4)[*], m_i1(3,2)[*], c_i1(2,3,2)[*]
  integer(int8) :: x_i1(12), y_i1(12), t0_i1, t1_i1(4), t2_i1(3,2), t3_i1(2,3,2)
  integer(int16) :: s_i2[*], v_i2(4)[*], m_i2(3,2)[*], c_i2(2,3,2)[*]
  integer(int16) :: x_i2(12), y_i2(12), t0_i2, t1_i2(4), t2_i2(3,2), t3_i2(2,3,2)
  integer(int32) :: s_i4[*], v_i4(4)[*], m_i4(3,2)[*], c_i4(2,3,2)[*]
  integer(int32) :: x_i4(12), y_i4(12), t0_i4, t1_i4(4), t2_i4(3,2), t3_i4(2,3,2)
  integer(int64) :: s_i8[*], v_i8(4)[*], m_i8(3,2)[*], c_i8(2,3,2)[*]
  integer(int64) :: x_i8(12), y_i8(12), t0_i8, t1_i8(4), t2_i8(3,2), t3_i8(2,3,2)
  integer(16) :: s_i16[*], v_i16(4)[*], m_i16(3,2)[*], c_i16(2,3,2)[*]
  integer(16) :: x_i16(12), y_i16(12), t0_i16, t1_i16(4), t2_i16(3,2), t3_i16(2,3,2)
  logical(1) :: s_l1[*], v_l1(4)[*], m_l1(3,2)[*], c_l1(2,3,2)[*]
  logical(1) :: x_l1(12), y_l1(12), t0_l1, t1_l1(4), t2_l1(3,2), t3_l1(2,3,2)
  logical(2) :: s_l2[*], v_l2(4)[*], m_l2(3,2)[*], c_l2(2,3,2)[*]
  logical(2) :: x_l2(12), y_l2(12), t0_l2, t1_l2(4), t2_l2(3,2), t3_l2(2,3,2)
  logical(4) :: s_l4[*], v_l4(4)[*], m_l4(3,2)[*], c_l4(2,3,2)[*]
  logical(4) :: x_l4(12), y_l4(12), t0_l4, t1_l4(4), t2_l4(3,2), t3_l4(2,3,2)
  logical(8) :: s_l8[*], v_l8(4)[*], m_l8(3,2)[*], c_l8(2,3,2)[*]
  logical(8) :: x_l8(12), y_l8(12), t0_l8, t1_l8(4), t2_l8(3,2), t3_l8(2,3,2)
  integer :: me, left, right, k

  me = this_image()
  right = merge(1, me + 1, me == num_images())
  left = merge(num_images(), me - 1, me == 1)

  ! ---- integer(int8) ----
  x_i1 = [(int(0 + me*13 + k, int8), k = 1, 12)]
  y_i1 = [(int(0 + left*13 + k, int8), k = 1, 12)]
  s_i1[right] = x_i1(1)
  v_i1(:)[right] = x_i1(1:4)
  m_i1(:,:)[right] = reshape(x_i1(1:6), [3, 2])
  c_i1(:,:,:)[right] = reshape(x_i1, [2, 3, 2])
  sync all
  if (s_i1 /= y_i1(1)) call fail('integer(int8) rank 0 put')
  if (any(v_i1 /= y_i1(1:4))) call fail('integer(int8) rank 1 put')
  if (any(m_i1 /= reshape(y_i1(1:6), [3, 2]))) call fail('integer(int8) rank 2 put')
  if (any(c_i1 /= reshape(y_i1, [2, 3, 2]))) call fail('integer(int8) rank 3 put')
  t0_i1 = s_i1[right]
  t1_i1 = v_i1(:)[right]
  t2_i1 = m_i1(:,:)[right]
  t3_i1 = c_i1(:,:,:)[right]
  if (t0_i1 /= x_i1(1)) call fail('integer(int8) rank 0 get')
  if (any(t1_i1 /= x_i1(1:4))) call fail('integer(int8) rank 1 get')
  if (any(t2_i1 /= reshape(x_i1(1:6), [3, 2]))) call fail('integer(int8) rank 2 get')
  if (any(t3_i1 /= reshape(x_i1, [2, 3, 2]))) call fail('integer(int8) rank 3 get')
  sync all

  ! ---- integer(int16) ----
  x_i2 = [(int(20000 + me*13 + k, int16), k = 1, 12)]
  y_i2 = [(int(20000 + left*13 + k, int16), k = 1, 12)]
  s_i2[right] = x_i2(1)
  v_i2(:)[right] = x_i2(1:4)
  m_i2(:,:)[right] = reshape(x_i2(1:6), [3, 2])
  c_i2(:,:,:)[right] = reshape(x_i2, [2, 3, 2])
  sync all
  if (s_i2 /= y_i2(1)) call fail('integer(int16) rank 0 put')
  if (any(v_i2 /= y_i2(1:4))) call fail('integer(int16) rank 1 put')
  if (any(m_i2 /= reshape(y_i2(1:6), [3, 2]))) call fail('integer(int16) rank 2 put')
  if (any(c_i2 /= reshape(y_i2, [2, 3, 2]))) call fail('integer(int16) rank 3 put')
  t0_i2 = s_i2[right]
  t1_i2 = v_i2(:)[right]
  t2_i2 = m_i2(:,:)[right]
  t3_i2 = c_i2(:,:,:)[right]
  if (t0_i2 /= x_i2(1)) call fail('integer(int16) rank 0 get')
  if (any(t1_i2 /= x_i2(1:4))) call fail('integer(int16) rank 1 get')
  if (any(t2_i2 /= reshape(x_i2(1:6), [3, 2]))) call fail('integer(int16) rank 2 get')
  if (any(t3_i2 /= reshape(x_i2, [2, 3, 2]))) call fail('integer(int16) rank 3 get')
  sync all

  ! ---- integer(int32) ----
  x_i4 = [(int(2000000000 + me*13 + k, int32), k = 1, 12)]
  y_i4 = [(int(2000000000 + left*13 + k, int32), k = 1, 12)]
  s_i4[right] = x_i4(1)
  v_i4(:)[right] = x_i4(1:4)
  m_i4(:,:)[right] = reshape(x_i4(1:6), [3, 2])
  c_i4(:,:,:)[right] = reshape(x_i4, [2, 3, 2])
  sync all
  if (s_i4 /= y_i4(1)) call fail('integer(int32) rank 0 put')
  if (any(v_i4 /= y_i4(1:4))) call fail('integer(int32) rank 1 put')
  if (any(m_i4 /= reshape(y_i4(1:6), [3, 2]))) call fail('integer(int32) rank 2 put')
  if (any(c_i4 /= reshape(y_i4, [2, 3, 2]))) call fail('integer(int32) rank 3 put')
  t0_i4 = s_i4[right]
  t1_i4 = v_i4(:)[right]
  t2_i4 = m_i4(:,:)[right]
  t3_i4 = c_i4(:,:,:)[right]
  if (t0_i4 /= x_i4(1)) call fail('integer(int32) rank 0 get')
  if (any(t1_i4 /= x_i4(1:4))) call fail('integer(int32) rank 1 get')
  if (any(t2_i4 /= reshape(x_i4(1:6), [3, 2]))) call fail('integer(int32) rank 2 get')
  if (any(t3_i4 /= reshape(x_i4, [2, 3, 2]))) call fail('integer(int32) rank 3 get')
  sync all

  ! ---- integer(int64) ----
  x_i8 = [(int(100000000000000000_int64 + me*13 + k, int64), k = 1, 12)]
  y_i8 = [(int(100000000000000000_int64 + left*13 + k, int64), k = 1, 12)]
  s_i8[right] = x_i8(1)
  v_i8(:)[right] = x_i8(1:4)
  m_i8(:,:)[right] = reshape(x_i8(1:6), [3, 2])
  c_i8(:,:,:)[right] = reshape(x_i8, [2, 3, 2])
  sync all
  if (s_i8 /= y_i8(1)) call fail('integer(int64) rank 0 put')
  if (any(v_i8 /= y_i8(1:4))) call fail('integer(int64) rank 1 put')
  if (any(m_i8 /= reshape(y_i8(1:6), [3, 2]))) call fail('integer(int64) rank 2 put')
  if (any(c_i8 /= reshape(y_i8, [2, 3, 2]))) call fail('integer(int64) rank 3 put')
  t0_i8 = s_i8[right]
  t1_i8 = v_i8(:)[right]
  t2_i8 = m_i8(:,:)[right]
  t3_i8 = c_i8(:,:,:)[right]
  if (t0_i8 /= x_i8(1)) call fail('integer(int64) rank 0 get')
  if (any(t1_i8 /= x_i8(1:4))) call fail('integer(int64) rank 1 get')
  if (any(t2_i8 /= reshape(x_i8(1:6), [3, 2]))) call fail('integer(int64) rank 2 get')
  if (any(t3_i8 /= reshape(x_i8, [2, 3, 2]))) call fail('integer(int64) rank 3 get')
  sync all

  ! ---- integer(16) ----
  x_i16 = [(int(10_16**35 + me*13 + k, 16), k = 1, 12)]
  y_i16 = [(int(10_16**35 + left*13 + k, 16), k = 1, 12)]
  s_i16[right] = x_i16(1)
  v_i16(:)[right] = x_i16(1:4)
  m_i16(:,:)[right] = reshape(x_i16(1:6), [3, 2])
  c_i16(:,:,:)[right] = reshape(x_i16, [2, 3, 2])
  sync all
  if (s_i16 /= y_i16(1)) call fail('integer(16) rank 0 put')
  if (any(v_i16 /= y_i16(1:4))) call fail('integer(16) rank 1 put')
  if (any(m_i16 /= reshape(y_i16(1:6), [3, 2]))) call fail('integer(16) rank 2 put')
  if (any(c_i16 /= reshape(y_i16, [2, 3, 2]))) call fail('integer(16) rank 3 put')
  t0_i16 = s_i16[right]
  t1_i16 = v_i16(:)[right]
  t2_i16 = m_i16(:,:)[right]
  t3_i16 = c_i16(:,:,:)[right]
  if (t0_i16 /= x_i16(1)) call fail('integer(16) rank 0 get')
  if (any(t1_i16 /= x_i16(1:4))) call fail('integer(16) rank 1 get')
  if (any(t2_i16 /= reshape(x_i16(1:6), [3, 2]))) call fail('integer(16) rank 2 get')
  if (any(t3_i16 /= reshape(x_i16, [2, 3, 2]))) call fail('integer(16) rank 3 get')
  sync all

  ! ---- logical(1) ----
  x_l1 = [(logical(mod(me*13 + k, 3) == 0, 1), k = 1, 12)]
  y_l1 = [(logical(mod(left*13 + k, 3) == 0, 1), k = 1, 12)]
  s_l1[right] = x_l1(1)
  v_l1(:)[right] = x_l1(1:4)
  m_l1(:,:)[right] = reshape(x_l1(1:6), [3, 2])
  c_l1(:,:,:)[right] = reshape(x_l1, [2, 3, 2])
  sync all
  if (s_l1 .neqv. y_l1(1)) call fail('logical(1) rank 0 put')
  if (any(v_l1 .neqv. y_l1(1:4))) call fail('logical(1) rank 1 put')
  if (any(m_l1 .neqv. reshape(y_l1(1:6), [3, 2]))) call fail('logical(1) rank 2 put')
  if (any(c_l1 .neqv. reshape(y_l1, [2, 3, 2]))) call fail('logical(1) rank 3 put')
  t0_l1 = s_l1[right]
  t1_l1 = v_l1(:)[right]
  t2_l1 = m_l1(:,:)[right]
  t3_l1 = c_l1(:,:,:)[right]
  if (t0_l1 .neqv. x_l1(1)) call fail('logical(1) rank 0 get')
  if (any(t1_l1 .neqv. x_l1(1:4))) call fail('logical(1) rank 1 get')
  if (any(t2_l1 .neqv. reshape(x_l1(1:6), [3, 2]))) call fail('logical(1) rank 2 get')
  if (any(t3_l1 .neqv. reshape(x_l1, [2, 3, 2]))) call fail('logical(1) rank 3 get')
  sync all

  ! ---- logical(2) ----
  x_l2 = [(logical(mod(me*13 + k, 3) == 0, 2), k = 1, 12)]
  y_l2 = [(logical(mod(left*13 + k, 3) == 0, 2), k = 1, 12)]
  s_l2[right] = x_l2(1)
  v_l2(:)[right] = x_l2(1:4)
  m_l2(:,:)[right] = reshape(x_l2(1:6), [3, 2])
  c_l2(:,:,:)[right] = reshape(x_l2, [2, 3, 2])
  sync all
  if (s_l2 .neqv. y_l2(1)) call fail('logical(2) rank 0 put')
  if (any(v_l2 .neqv. y_l2(1:4))) call fail('logical(2) rank 1 put')
  if (any(m_l2 .neqv. reshape(y_l2(1:6), [3, 2]))) call fail('logical(2) rank 2 put')
  if (any(c_l2 .neqv. reshape(y_l2, [2, 3, 2]))) call fail('logical(2) rank 3 put')
  t0_l2 = s_l2[right]
  t1_l2 = v_l2(:)[right]
  t2_l2 = m_l2(:,:)[right]
  t3_l2 = c_l2(:,:,:)[right]
  if (t0_l2 .neqv. x_l2(1)) call fail('logical(2) rank 0 get')
  if (any(t1_l2 .neqv. x_l2(1:4))) call fail('logical(2) rank 1 get')
  if (any(t2_l2 .neqv. reshape(x_l2(1:6), [3, 2]))) call fail('logical(2) rank 2 get')
  if (any(t3_l2 .neqv. reshape(x_l2, [2, 3, 2]))) call fail('logical(2) rank 3 get')
  sync all

  ! ---- logical(4) ----
  x_l4 = [(logical(mod(me*13 + k, 3) == 0, 4), k = 1, 12)]
  y_l4 = [(logical(mod(left*13 + k, 3) == 0, 4), k = 1, 12)]
  s_l4[right] = x_l4(1)
  v_l4(:)[right] = x_l4(1:4)
  m_l4(:,:)[right] = reshape(x_l4(1:6), [3, 2])
  c_l4(:,:,:)[right] = reshape(x_l4, [2, 3, 2])
  sync all
  if (s_l4 .neqv. y_l4(1)) call fail('logical(4) rank 0 put')
  if (any(v_l4 .neqv. y_l4(1:4))) call fail('logical(4) rank 1 put')
  if (any(m_l4 .neqv. reshape(y_l4(1:6), [3, 2]))) call fail('logical(4) rank 2 put')
  if (any(c_l4 .neqv. reshape(y_l4, [2, 3, 2]))) call fail('logical(4) rank 3 put')
  t0_l4 = s_l4[right]
  t1_l4 = v_l4(:)[right]
  t2_l4 = m_l4(:,:)[right]
  t3_l4 = c_l4(:,:,:)[right]
  if (t0_l4 .neqv. x_l4(1)) call fail('logical(4) rank 0 get')
  if (any(t1_l4 .neqv. x_l4(1:4))) call fail('logical(4) rank 1 get')
  if (any(t2_l4 .neqv. reshape(x_l4(1:6), [3, 2]))) call fail('logical(4) rank 2 get')
  if (any(t3_l4 .neqv. reshape(x_l4, [2, 3, 2]))) call fail('logical(4) rank 3 get')
  sync all

  ! ---- logical(8) ----
  x_l8 = [(logical(mod(me*13 + k, 3) == 0, 8), k = 1, 12)]
  y_l8 = [(logical(mod(left*13 + k, 3) == 0, 8), k = 1, 12)]
  s_l8[right] = x_l8(1)
  v_l8(:)[right] = x_l8(1:4)
  m_l8(:,:)[right] = reshape(x_l8(1:6), [3, 2])
  c_l8(:,:,:)[right] = reshape(x_l8, [2, 3, 2])
  sync all
  if (s_l8 .neqv. y_l8(1)) call fail('logical(8) rank 0 put')
  if (any(v_l8 .neqv. y_l8(1:4))) call fail('logical(8) rank 1 put')
  if (any(m_l8 .neqv. reshape(y_l8(1:6), [3, 2]))) call fail('logical(8) rank 2 put')
  if (any(c_l8 .neqv. reshape(y_l8, [2, 3, 2]))) call fail('logical(8) rank 3 put')
  t0_l8 = s_l8[right]
  t1_l8 = v_l8(:)[right]
  t2_l8 = m_l8(:,:)[right]
  t3_l8 = c_l8(:,:,:)[right]
  if (t0_l8 .neqv. x_l8(1)) call fail('logical(8) rank 0 get')
  if (any(t1_l8 .neqv. x_l8(1:4))) call fail('logical(8) rank 1 get')
  if (any(t2_l8 .neqv. reshape(x_l8(1:6), [3, 2]))) call fail('logical(8) rank 2 get')
  if (any(t3_l8 .neqv. reshape(x_l8, [2, 3, 2]))) call fail('logical(8) rank 3 get')
  sync all

  print '(a,i0)', 'PASS ', me

contains

  subroutine fail(what)
    character(*), intent(in) :: what
    print '(a,i0,2a)', 'FAIL on image ', this_image(), ': ', what
    error stop 1
  end subroutine fail

end program static_integer_logical
