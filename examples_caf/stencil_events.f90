! stencil_events.f90 - PRK-style 2D five-point stencil with halo exchange through events.
!
! A global NG x NG grid is split into a px x py grid of blocks, one per image. Each iteration
!   1. sends this block's edge rows/columns into the halo buffers of its (up to four)
!      neighbours, each put followed by EVENT POST of the matching event on that neighbour
!      (from_w, from_e, from_s, from_n: one event per direction, so that a fast neighbour's
!      next post can never stand in for a slow neighbour's current one);
!   2. waits for each neighbour's event and copies the buffer into the halo of u;
!   3. applies the star stencil of radius 1 (PRK weights +-1/2) to every global interior point:
!        out(i,j) += (u(i+1,j) - u(i-1,j)) / 2 + (u(i,j+1) - u(i,j-1)) / 2
!   4. adds 1 to every point of u.
! Halo buffers alternate between two slots (iteration parity): the put into slot p of
! iteration t+2 happens after this image waited for the neighbour's post of iteration t+1,
! which the neighbour makes only after it has used slot p of iteration t.
!
! Check: u starts as the linear field u(i,j) = i + j (global indices), for which each
! application adds exactly 1 + 1 = 2 however much u has been shifted, so after ITERATIONS
! steps every interior out(i,j) is 2 * ITERATIONS and u(i,j) = i + j + ITERATIONS, exactly.
! A halo that is stale by one iteration changes out by 1/2 and is caught.
!
!   ferrocaf run -n 4 examples_caf/stencil_events.f90 [ITERATIONS]     (default 60)
! Prints "Success: ..." and "RESULT stencil_events <images> <us per iteration> us".
program stencil_events
  use, intrinsic :: iso_fortran_env, only: int64, real64, event_type
  implicit none
  integer, parameter :: NG = 1000
  real(real64), allocatable :: u(:, :), out(:, :)
  real(real64), allocatable :: west(:, :)[:], east(:, :)[:], south(:, :)[:], north(:, :)[:]
  type(event_type) :: from_w[*], from_e[*], from_s[*], from_n[*]
  integer :: me, np, px, py, ix, iy, ilo, jlo, nx, ny, mx, my, iw, ie, is, in
  integer :: iters, it, p, i, j, ok
  integer(int64) :: t0, t1, rate
  character(len=32) :: arg

  me = this_image(); np = num_images()
  iters = 60
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) iters
  end if
  ! px x py images, px the largest divisor of np not above its square root.
  px = int(sqrt(real(np)))
  do while (mod(np, px) /= 0)
    px = px - 1
  end do
  py = np / px
  ix = mod(me - 1, px); iy = (me - 1) / px
  ilo = ix * NG / px + 1; nx = (ix + 1) * NG / px - ilo + 1
  jlo = iy * NG / py + 1; ny = (iy + 1) * NG / py - jlo + 1
  iw = merge(me - 1, 0, ix > 0); ie = merge(me + 1, 0, ix < px - 1)
  is = merge(me - px, 0, iy > 0); in = merge(me + px, 0, iy < py - 1)
  mx = (NG + px - 1) / px; my = (NG + py - 1) / py      ! largest block (coarrays: same shape)
  allocate (west(my, 0:1)[*], east(my, 0:1)[*], south(mx, 0:1)[*], north(mx, 0:1)[*])
  allocate (u(0:nx + 1, 0:ny + 1), out(nx, ny))
  do j = 0, ny + 1
    do i = 0, nx + 1
      u(i, j) = real(ilo - 1 + i + jlo - 1 + j, real64)
    end do
  end do
  out = 0
  sync all

  call system_clock(t0, rate)
  do it = 1, iters
    p = mod(it, 2)
    if (ie > 0) then
      west(1:ny, p)[ie] = u(nx, 1:ny)
      event post (from_w[ie])
    end if
    if (iw > 0) then
      east(1:ny, p)[iw] = u(1, 1:ny)
      event post (from_e[iw])
    end if
    if (in > 0) then
      south(1:nx, p)[in] = u(1:nx, ny)
      event post (from_s[in])
    end if
    if (is > 0) then
      north(1:nx, p)[is] = u(1:nx, 1)
      event post (from_n[is])
    end if
    if (iw > 0) then
      event wait (from_w)
      u(0, 1:ny) = west(1:ny, p)
    end if
    if (ie > 0) then
      event wait (from_e)
      u(nx + 1, 1:ny) = east(1:ny, p)
    end if
    if (is > 0) then
      event wait (from_s)
      u(1:nx, 0) = south(1:nx, p)
    end if
    if (in > 0) then
      event wait (from_n)
      u(1:nx, ny + 1) = north(1:nx, p)
    end if
    call apply_stencil()
    u(1:nx, 1:ny) = u(1:nx, 1:ny) + 1
  end do
  sync all
  call system_clock(t1)

  ok = merge(1, 0, verified())
  call co_min(ok)
  if (ok /= 1) error stop 1
  if (me == 1) then
    write (*, '(a, i0, a, i0, a, i0, a, i0, a, i0, a)') 'Success: stencil_events ', NG, 'x', &
      NG, ' grid on ', px, 'x', py, ' images, ', iters, ' iterations, every point checked'
    write (*, '(a, i0, es14.6, a)') 'RESULT stencil_events ', np, &
      1e6_real64 * real(t1 - t0, real64) / real(rate, real64) / iters, ' us'
  end if

contains

  !> out += star stencil of u on the global interior points of this block.
  subroutine apply_stencil()
    integer :: i, j
    do j = max(1, 3 - jlo), min(ny, NG - jlo)
      do i = max(1, 3 - ilo), min(nx, NG - ilo)
        out(i, j) = out(i, j) + 0.5_real64 * (u(i + 1, j) - u(i - 1, j)) &
                              + 0.5_real64 * (u(i, j + 1) - u(i, j - 1))
      end do
    end do
  end subroutine apply_stencil

  !> Whether out and u hold exactly the expected values; prints the first mismatch.
  logical function verified()
    integer :: i, j
    real(real64) :: want
    verified = .true.
    do j = 1, ny
      do i = 1, nx
        want = merge(2.0_real64 * iters, 0.0_real64, ilo - 1 + i > 1 .and. ilo - 1 + i < NG &
                     .and. jlo - 1 + j > 1 .and. jlo - 1 + j < NG)
        if (out(i, j) /= want .or. u(i, j) /= ilo - 1 + i + jlo - 1 + j + iters) then
          write (*, '(a, i0, a, i0, a, i0, a, 2es14.6)') 'FAILED: image ', me, ' point (', &
            ilo - 1 + i, ',', jlo - 1 + j, '): out, u = ', out(i, j), u(i, j)
          verified = .false.
          return
        end if
      end do
    end do
  end function verified

end program stencil_events
