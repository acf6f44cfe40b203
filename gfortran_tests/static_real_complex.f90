! Tests: static coarrays of every REAL and COMPLEX kind (4, 8, 10, 16); values like 1/3 fill every byte.
! Each image puts into its right neighbour's coarray, syncs and checks what its left neighbour
! sent; then gets the values back from its right neighbour. Scalars and ranks 1, 2 and 3.
! COMPLEX is tested at ranks 1-3 only: gfortran 12 miscompiles scalar COMPLEX coarrays (it takes
! the address of a temporary copy, `&SAVE_EXPR <*s>`, so a coindexed access passes a garbage
! offset, and a local assignment is lost).
! test: images 2 4
! test: count {n} PASS
program static_real_complex
  use iso_fortran_env
  implicit none
  real(4) :: s_r4[*], v_r4(4)[*], m_r4(3,2)[*], c_r4(2,3,2)[*]
  real(4) :: x_r4(12), y_r4(12), t0_r4, t1_r4(4), t2_r4(3,2), t3_r4(2,3,2)
  real(8) :: s_r8[*], v_r8(4)[*], m_r8(3,2)[*], c_r8(2,3,2)[*]
  real(8) :: x_r8(12), y_r8(12), t0_r8, t1_r8(4), t2_r8(3,2), t3_r8(2,3,2)
  real(10) :: s_r10[*], v_r10(4)[*], m_r10(3,2)[*], c_r10(2,3,2)[*]
  real(10) :: x_r10(12), y_r10(12), t0_r10, t1_r10(4), t2_r10(3,2), t3_r10(2,3,2)
  real(16) :: s_r16[*], v_r16(4)[*], m_r16(3,2)[*], c_r16(2,3,2)[*]
  real(16) :: x_r16(12), y_r16(12), t0_r16, t1_r16(4), t2_r16(3,2), t3_r16(2,3,2)
  complex(4) :: v_z4(4)[*], m_z4(3,2)[*], c_z4(2,3,2)[*]
  complex(4) :: x_z4(12), y_z4(12), t1_z4(4), t2_z4(3,2), t3_z4(2,3,2)
  complex(8) :: v_z8(4)[*], m_z8(3,2)[*], c_z8(2,3,2)[*]
  complex(8) :: x_z8(12), y_z8(12), t1_z8(4), t2_z8(3,2), t3_z8(2,3,2)
  complex(10) :: v_z10(4)[*], m_z10(3,2)[*], c_z10(2,3,2)[*]
  complex(10) :: x_z10(12), y_z10(12), t1_z10(4), t2_z10(3,2), t3_z10(2,3,2)
  complex(16) :: v_z16(4)[*], m_z16(3,2)[*], c_z16(2,3,2)[*]
  complex(16) :: x_z16(12), y_z16(12), t1_z16(4), t2_z16(3,2), t3_z16(2,3,2)
  integer :: me, left, right, k

  me = this_image()
  right = merge(1, me + 1, me == num_images())
  left = merge(num_images(), me - 1, me == 1)

  ! ---- real(4) ----
  x_r4 = [(real(me*13 + k, 4) / 3, k = 1, 12)]
  y_r4 = [(real(left*13 + k, 4) / 3, k = 1, 12)]
  s_r4[right] = x_r4(1)
  v_r4(:)[right] = x_r4(1:4)
  m_r4(:,:)[right] = reshape(x_r4(1:6), [3, 2])
  c_r4(:,:,:)[right] = reshape(x_r4, [2, 3, 2])
  sync all
  if (s_r4 /= y_r4(1)) call fail('real(4) rank 0 put')
  if (any(v_r4 /= y_r4(1:4))) call fail('real(4) rank 1 put')
  if (any(m_r4 /= reshape(y_r4(1:6), [3, 2]))) call fail('real(4) rank 2 put')
  if (any(c_r4 /= reshape(y_r4, [2, 3, 2]))) call fail('real(4) rank 3 put')
  t0_r4 = s_r4[right]
  t1_r4 = v_r4(:)[right]
  t2_r4 = m_r4(:,:)[right]
  t3_r4 = c_r4(:,:,:)[right]
  if (t0_r4 /= x_r4(1)) call fail('real(4) rank 0 get')
  if (any(t1_r4 /= x_r4(1:4))) call fail('real(4) rank 1 get')
  if (any(t2_r4 /= reshape(x_r4(1:6), [3, 2]))) call fail('real(4) rank 2 get')
  if (any(t3_r4 /= reshape(x_r4, [2, 3, 2]))) call fail('real(4) rank 3 get')
  sync all

  ! ---- real(8) ----
  x_r8 = [(real(me*13 + k, 8) / 3, k = 1, 12)]
  y_r8 = [(real(left*13 + k, 8) / 3, k = 1, 12)]
  s_r8[right] = x_r8(1)
  v_r8(:)[right] = x_r8(1:4)
  m_r8(:,:)[right] = reshape(x_r8(1:6), [3, 2])
  c_r8(:,:,:)[right] = reshape(x_r8, [2, 3, 2])
  sync all
  if (s_r8 /= y_r8(1)) call fail('real(8) rank 0 put')
  if (any(v_r8 /= y_r8(1:4))) call fail('real(8) rank 1 put')
  if (any(m_r8 /= reshape(y_r8(1:6), [3, 2]))) call fail('real(8) rank 2 put')
  if (any(c_r8 /= reshape(y_r8, [2, 3, 2]))) call fail('real(8) rank 3 put')
  t0_r8 = s_r8[right]
  t1_r8 = v_r8(:)[right]
  t2_r8 = m_r8(:,:)[right]
  t3_r8 = c_r8(:,:,:)[right]
  if (t0_r8 /= x_r8(1)) call fail('real(8) rank 0 get')
  if (any(t1_r8 /= x_r8(1:4))) call fail('real(8) rank 1 get')
  if (any(t2_r8 /= reshape(x_r8(1:6), [3, 2]))) call fail('real(8) rank 2 get')
  if (any(t3_r8 /= reshape(x_r8, [2, 3, 2]))) call fail('real(8) rank 3 get')
  sync all

  ! ---- real(10) ----
  x_r10 = [(real(me*13 + k, 10) / 3, k = 1, 12)]
  y_r10 = [(real(left*13 + k, 10) / 3, k = 1, 12)]
  s_r10[right] = x_r10(1)
  v_r10(:)[right] = x_r10(1:4)
  m_r10(:,:)[right] = reshape(x_r10(1:6), [3, 2])
  c_r10(:,:,:)[right] = reshape(x_r10, [2, 3, 2])
  sync all
  if (s_r10 /= y_r10(1)) call fail('real(10) rank 0 put')
  if (any(v_r10 /= y_r10(1:4))) call fail('real(10) rank 1 put')
  if (any(m_r10 /= reshape(y_r10(1:6), [3, 2]))) call fail('real(10) rank 2 put')
  if (any(c_r10 /= reshape(y_r10, [2, 3, 2]))) call fail('real(10) rank 3 put')
  t0_r10 = s_r10[right]
  t1_r10 = v_r10(:)[right]
  t2_r10 = m_r10(:,:)[right]
  t3_r10 = c_r10(:,:,:)[right]
  if (t0_r10 /= x_r10(1)) call fail('real(10) rank 0 get')
  if (any(t1_r10 /= x_r10(1:4))) call fail('real(10) rank 1 get')
  if (any(t2_r10 /= reshape(x_r10(1:6), [3, 2]))) call fail('real(10) rank 2 get')
  if (any(t3_r10 /= reshape(x_r10, [2, 3, 2]))) call fail('real(10) rank 3 get')
  sync all

  ! ---- real(16) ----
  x_r16 = [(real(me*13 + k, 16) / 3, k = 1, 12)]
  y_r16 = [(real(left*13 + k, 16) / 3, k = 1, 12)]
  s_r16[right] = x_r16(1)
  v_r16(:)[right] = x_r16(1:4)
  m_r16(:,:)[right] = reshape(x_r16(1:6), [3, 2])
  c_r16(:,:,:)[right] = reshape(x_r16, [2, 3, 2])
  sync all
  if (s_r16 /= y_r16(1)) call fail('real(16) rank 0 put')
  if (any(v_r16 /= y_r16(1:4))) call fail('real(16) rank 1 put')
  if (any(m_r16 /= reshape(y_r16(1:6), [3, 2]))) call fail('real(16) rank 2 put')
  if (any(c_r16 /= reshape(y_r16, [2, 3, 2]))) call fail('real(16) rank 3 put')
  t0_r16 = s_r16[right]
  t1_r16 = v_r16(:)[right]
  t2_r16 = m_r16(:,:)[right]
  t3_r16 = c_r16(:,:,:)[right]
  if (t0_r16 /= x_r16(1)) call fail('real(16) rank 0 get')
  if (any(t1_r16 /= x_r16(1:4))) call fail('real(16) rank 1 get')
  if (any(t2_r16 /= reshape(x_r16(1:6), [3, 2]))) call fail('real(16) rank 2 get')
  if (any(t3_r16 /= reshape(x_r16, [2, 3, 2]))) call fail('real(16) rank 3 get')
  sync all

  ! ---- complex(4) ----
  x_z4 = [(cmplx(real(me*13 + k, 4) / 3, -real(k, 4) / 7, 4), k = 1, 12)]
  y_z4 = [(cmplx(real(left*13 + k, 4) / 3, -real(k, 4) / 7, 4), k = 1, 12)]
  v_z4(:)[right] = x_z4(1:4)
  m_z4(:,:)[right] = reshape(x_z4(1:6), [3, 2])
  c_z4(:,:,:)[right] = reshape(x_z4, [2, 3, 2])
  sync all
  if (any(v_z4 /= y_z4(1:4))) call fail('complex(4) rank 1 put')
  if (any(m_z4 /= reshape(y_z4(1:6), [3, 2]))) call fail('complex(4) rank 2 put')
  if (any(c_z4 /= reshape(y_z4, [2, 3, 2]))) call fail('complex(4) rank 3 put')
  t1_z4 = v_z4(:)[right]
  t2_z4 = m_z4(:,:)[right]
  t3_z4 = c_z4(:,:,:)[right]
  if (any(t1_z4 /= x_z4(1:4))) call fail('complex(4) rank 1 get')
  if (any(t2_z4 /= reshape(x_z4(1:6), [3, 2]))) call fail('complex(4) rank 2 get')
  if (any(t3_z4 /= reshape(x_z4, [2, 3, 2]))) call fail('complex(4) rank 3 get')
  sync all

  ! ---- complex(8) ----
  x_z8 = [(cmplx(real(me*13 + k, 8) / 3, -real(k, 8) / 7, 8), k = 1, 12)]
  y_z8 = [(cmplx(real(left*13 + k, 8) / 3, -real(k, 8) / 7, 8), k = 1, 12)]
  v_z8(:)[right] = x_z8(1:4)
  m_z8(:,:)[right] = reshape(x_z8(1:6), [3, 2])
  c_z8(:,:,:)[right] = reshape(x_z8, [2, 3, 2])
  sync all
  if (any(v_z8 /= y_z8(1:4))) call fail('complex(8) rank 1 put')
  if (any(m_z8 /= reshape(y_z8(1:6), [3, 2]))) call fail('complex(8) rank 2 put')
  if (any(c_z8 /= reshape(y_z8, [2, 3, 2]))) call fail('complex(8) rank 3 put')
  t1_z8 = v_z8(:)[right]
  t2_z8 = m_z8(:,:)[right]
  t3_z8 = c_z8(:,:,:)[right]
  if (any(t1_z8 /= x_z8(1:4))) call fail('complex(8) rank 1 get')
  if (any(t2_z8 /= reshape(x_z8(1:6), [3, 2]))) call fail('complex(8) rank 2 get')
  if (any(t3_z8 /= reshape(x_z8, [2, 3, 2]))) call fail('complex(8) rank 3 get')
  sync all

  ! ---- complex(10) ----
  x_z10 = [(cmplx(real(me*13 + k, 10) / 3, -real(k, 10) / 7, 10), k = 1, 12)]
  y_z10 = [(cmplx(real(left*13 + k, 10) / 3, -real(k, 10) / 7, 10), k = 1, 12)]
  v_z10(:)[right] = x_z10(1:4)
  m_z10(:,:)[right] = reshape(x_z10(1:6), [3, 2])
  c_z10(:,:,:)[right] = reshape(x_z10, [2, 3, 2])
  sync all
  if (any(v_z10 /= y_z10(1:4))) call fail('complex(10) rank 1 put')
  if (any(m_z10 /= reshape(y_z10(1:6), [3, 2]))) call fail('complex(10) rank 2 put')
  if (any(c_z10 /= reshape(y_z10, [2, 3, 2]))) call fail('complex(10) rank 3 put')
  t1_z10 = v_z10(:)[right]
  t2_z10 = m_z10(:,:)[right]
  t3_z10 = c_z10(:,:,:)[right]
  if (any(t1_z10 /= x_z10(1:4))) call fail('complex(10) rank 1 get')
  if (any(t2_z10 /= reshape(x_z10(1:6), [3, 2]))) call fail('complex(10) rank 2 get')
  if (any(t3_z10 /= reshape(x_z10, [2, 3, 2]))) call fail('complex(10) rank 3 get')
  sync all

  ! ---- complex(16) ----
  x_z16 = [(cmplx(real(me*13 + k, 16) / 3, -real(k, 16) / 7, 16), k = 1, 12)]
  y_z16 = [(cmplx(real(left*13 + k, 16) / 3, -real(k, 16) / 7, 16), k = 1, 12)]
  v_z16(:)[right] = x_z16(1:4)
  m_z16(:,:)[right] = reshape(x_z16(1:6), [3, 2])
  c_z16(:,:,:)[right] = reshape(x_z16, [2, 3, 2])
  sync all
  if (any(v_z16 /= y_z16(1:4))) call fail('complex(16) rank 1 put')
  if (any(m_z16 /= reshape(y_z16(1:6), [3, 2]))) call fail('complex(16) rank 2 put')
  if (any(c_z16 /= reshape(y_z16, [2, 3, 2]))) call fail('complex(16) rank 3 put')
  t1_z16 = v_z16(:)[right]
  t2_z16 = m_z16(:,:)[right]
  t3_z16 = c_z16(:,:,:)[right]
  if (any(t1_z16 /= x_z16(1:4))) call fail('complex(16) rank 1 get')
  if (any(t2_z16 /= reshape(x_z16(1:6), [3, 2]))) call fail('complex(16) rank 2 get')
  if (any(t3_z16 /= reshape(x_z16, [2, 3, 2]))) call fail('complex(16) rank 3 get')
  sync all

  print '(a,i0)', 'PASS ', me

contains

  subroutine fail(what)
    character(*), intent(in) :: what
    print '(a,i0,2a)', 'FAIL on image ', this_image(), ': ', what
    error stop 1
  end subroutine fail

end program static_real_complex
