! hydro.f90 - a halo-exchange mini-app in CloverLeaf's communication style.
!
! A 2D mesh of NG x NG cells (unit square) is split into a px x py grid of blocks, one per
! image. Five cell fields are coarrays with two halo layers: density, energy (specific internal
! energy), pressure and velocity x/y. Each time step, as in CloverLeaf:
!   1. ideal gas: pressure = (GAMMA-1) * density * energy on the block;
!   2. halo exchange, depth 1: pressure;
!   3. time step: dt = CFL * DX / (sound speed + |velocity|), minimum over the mesh (CO_MIN);
!   4. accelerate: velocity -= dt * grad(pressure) / density (central differences);
!   5. halo exchange, depth 2: density, energy, xvel, yvel;
!   6. advection in x: mass and energy cross each x face with a second-order upwind (MUSCL,
!      minmod-limited) flux, which needs two cells on the upwind side, hence depth-2 halos;
!   7. halo exchange, depth 2: density, energy;
!   8. advection in y, likewise.
! A halo exchange is CloverLeaf's update_halo: SYNC IMAGES with the neighbours (their halos are
! free), every field's edge layers put into the neighbours' halos, SYNC IMAGES again (arrived).
! Walls are reflective: halo layers at the mesh edge mirror the interior (normal velocity
! negated) and no flux crosses a wall. Velocity itself is not advected and no pdV work is done:
! this is a communication mini-app, not a complete hydrodynamics code.
!
! Check: every face flux is subtracted from one cell and added to the other (an image computes
! the flux of a face it shares with a neighbour from the same values, halo copies included, as
! the neighbour does), so total mass (sum of density) and total energy (sum of density *
! energy) are conserved to rounding: both must change by less than 1e-11 relative; density
! must stay positive and dt must be positive and the same everywhere.
!
!   ferrocaf run -n 4 examples_caf/hydro.f90 [STEPS]     (default 100)
! Prints "Success: ..." and "RESULT hydro <images> <us per step> us".
program hydro
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none
  integer, parameter :: NG = 200, H = 2
  real(real64), parameter :: GAMMA = 1.4_real64, CFL = 0.3_real64, DX = 1.0_real64 / NG
  real(real64), allocatable, dimension(:, :), codimension[:] :: density, energy, pressure, &
                                                                   xvel, yvel
  real(real64), allocatable :: fm(:, :), fe(:, :)
  integer :: me, np, px, py, ix, iy, ilo, jlo, nx, ny, mx, my, iw, ie, is, in
  integer :: nbrs(4), nn, steps, step, ok
  real(real64) :: mass0, energy0, totals(2), dt, dt_min
  integer(int64) :: t0, t1, rate
  character(len=32) :: arg

  me = this_image(); np = num_images()
  steps = 100
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) steps
  end if
  call decompose()
  allocate (density(1 - H:mx + H, 1 - H:my + H)[*], energy(1 - H:mx + H, 1 - H:my + H)[*], &
            pressure(1 - H:mx + H, 1 - H:my + H)[*], xvel(1 - H:mx + H, 1 - H:my + H)[*], &
            yvel(1 - H:mx + H, 1 - H:my + H)[*])
  allocate (fm(0:nx, 0:ny), fe(0:nx, 0:ny))
  call initialise()
  totals = conserved()
  mass0 = totals(1); energy0 = totals(2)
  ok = 1
  sync all

  call system_clock(t0, rate)
  do step = 1, steps
    pressure(1:nx, 1:ny) = (GAMMA - 1) * density(1:nx, 1:ny) * energy(1:nx, 1:ny)
    call begin_exchange()
    call put_halo(pressure, 1)
    call end_exchange()
    call reflect(pressure, 1, 1.0_real64, 1.0_real64)
    dt = CFL * DX / maxval(sqrt(GAMMA * pressure(1:nx, 1:ny) / density(1:nx, 1:ny)) &
                           + max(abs(xvel(1:nx, 1:ny)), abs(yvel(1:nx, 1:ny))))
    call co_min(dt)
    dt_min = dt
    call co_min(dt_min)                       ! every image must hold the same dt
    if (.not. (dt > 0 .and. dt == dt_min)) ok = 0
    call accelerate()
    call begin_exchange()
    call put_halo(density, 2); call put_halo(energy, 2)
    call put_halo(xvel, 2); call put_halo(yvel, 2)
    call end_exchange()
    call reflect(density, 2, 1.0_real64, 1.0_real64); call reflect(energy, 2, 1.0_real64, 1.0_real64)
    call reflect(xvel, 2, -1.0_real64, 1.0_real64); call reflect(yvel, 2, 1.0_real64, -1.0_real64)
    call advect_x()
    call begin_exchange()
    call put_halo(density, 2); call put_halo(energy, 2)
    call end_exchange()
    call reflect(density, 2, 1.0_real64, 1.0_real64); call reflect(energy, 2, 1.0_real64, 1.0_real64)
    call advect_y()
    if (minval(density(1:nx, 1:ny)) <= 0) ok = 0
  end do
  sync all
  call system_clock(t1)

  totals = conserved()
  if (abs(totals(1) - mass0) > 1e-11_real64 * mass0 .or. &
      abs(totals(2) - energy0) > 1e-11_real64 * energy0) ok = 0
  call co_min(ok)
  if (me == 1) then
    write (*, '(a, 2es12.3)') 'relative change of total mass and energy:', &
      (totals(1) - mass0) / mass0, (totals(2) - energy0) / energy0
  end if
  if (ok /= 1) then
    if (me == 1) write (*, '(a)') 'FAILED: mass or energy not conserved, or bad density or dt'
    error stop 1
  end if
  if (me == 1) then
    write (*, '(a, i0, a, i0, a, i0, a, i0, a, i0, a)') 'Success: hydro ', NG, 'x', NG, &
      ' cells on ', px, 'x', py, ' images, ', steps, ' steps, mass and energy conserved'
    write (*, '(a, i0, es14.6, a)') 'RESULT hydro ', np, &
      1e6_real64 * real(t1 - t0, real64) / real(rate, real64) / steps, ' us'
  end if

contains

  !> px x py image grid (px the largest divisor of np not above its square root), this image's
  !> block (cells ilo.. and jlo.., nx x ny), its neighbours (0: wall) and the largest block.
  subroutine decompose()
    px = int(sqrt(real(np)))
    do while (mod(np, px) /= 0)
      px = px - 1
    end do
    py = np / px
    if (NG / px < H .or. NG / py < H) error stop 'hydro: too many images for the mesh'
    ix = mod(me - 1, px); iy = (me - 1) / px
    ilo = ix * NG / px + 1; nx = (ix + 1) * NG / px - ilo + 1
    jlo = iy * NG / py + 1; ny = (iy + 1) * NG / py - jlo + 1
    iw = merge(me - 1, 0, ix > 0); ie = merge(me + 1, 0, ix < px - 1)
    is = merge(me - px, 0, iy > 0); in = merge(me + px, 0, iy < py - 1)
    nn = 0
    if (iw > 0) call add(iw)
    if (ie > 0) call add(ie)
    if (is > 0) call add(is)
    if (in > 0) call add(in)
    mx = (NG + px - 1) / px; my = (NG + py - 1) / py
  end subroutine decompose

  subroutine add(image)
    integer, intent(in) :: image
    nn = nn + 1
    nbrs(nn) = image
  end subroutine add

  !> CloverLeaf's square test: dense, hot gas in the lower left corner, light gas elsewhere.
  subroutine initialise()
    integer :: i, j
    do j = 1 - H, my + H
      do i = 1 - H, mx + H
        if ((ilo - 1 + i - 0.5_real64) * DX < 0.3_real64 .and. &
            (jlo - 1 + j - 0.5_real64) * DX < 0.3_real64) then
          density(i, j) = 1.0_real64; energy(i, j) = 2.5_real64
        else
          density(i, j) = 0.2_real64; energy(i, j) = 1.0_real64
        end if
      end do
    end do
    pressure = 0; xvel = 0; yvel = 0
  end subroutine initialise

  !> Total mass and energy over the mesh (CO_SUM), per unit cell volume.
  function conserved() result(t)
    real(real64) :: t(2)
    t(1) = sum(density(1:nx, 1:ny))
    t(2) = sum(density(1:nx, 1:ny) * energy(1:nx, 1:ny))
    call co_sum(t)
  end function conserved

  !> Cells of the block of the image at grid column jx / row jy.
  integer function cells(jx, parts)
    integer, intent(in) :: jx, parts
    cells = (jx + 1) * NG / parts - jx * NG / parts
  end function cells

  !> Opens a halo exchange: the neighbours are done with their halos.
  subroutine begin_exchange()
    if (nn > 0) sync images (nbrs(1:nn))
  end subroutine begin_exchange

  !> Closes a halo exchange: every neighbour's edge layers have arrived.
  subroutine end_exchange()
    if (nn > 0) sync images (nbrs(1:nn))
  end subroutine end_exchange

  !> Puts the d edge layers of f into the halos of the neighbours.
  subroutine put_halo(f, d)
    real(real64), intent(inout) :: f(1 - H:, 1 - H:)[*]
    integer, intent(in) :: d
    integer :: n
    if (ie > 0) f(1 - d:0, 1:ny)[ie] = f(nx - d + 1:nx, 1:ny)
    if (iw > 0) then
      n = cells(ix - 1, px)
      f(n + 1:n + d, 1:ny)[iw] = f(1:d, 1:ny)
    end if
    if (in > 0) f(1:nx, 1 - d:0)[in] = f(1:nx, ny - d + 1:ny)
    if (is > 0) then
      n = cells(iy - 1, py)
      f(1:nx, n + 1:n + d)[is] = f(1:nx, 1:d)
    end if
  end subroutine put_halo

  !> Fills the d halo layers of f at walls by mirroring, times sx at x walls, sy at y walls.
  subroutine reflect(f, d, sx, sy)
    real(real64), intent(inout) :: f(1 - H:, 1 - H:)[*]
    integer, intent(in) :: d
    real(real64), intent(in) :: sx, sy
    integer :: k
    do k = 1, d
      if (iw == 0) f(1 - k, 1:ny) = sx * f(k, 1:ny)
      if (ie == 0) f(nx + k, 1:ny) = sx * f(nx + 1 - k, 1:ny)
      if (is == 0) f(1:nx, 1 - k) = sy * f(1:nx, k)
      if (in == 0) f(1:nx, ny + k) = sy * f(1:nx, ny + 1 - k)
    end do
  end subroutine reflect

  !> Velocity update from the pressure gradient (needs pressure halos of depth 1).
  subroutine accelerate()
    integer :: i, j
    do j = 1, ny
      do i = 1, nx
        xvel(i, j) = xvel(i, j) - dt * (pressure(i + 1, j) - pressure(i - 1, j)) &
                     / (2 * DX * density(i, j))
        yvel(i, j) = yvel(i, j) - dt * (pressure(i, j + 1) - pressure(i, j - 1)) &
                     / (2 * DX * density(i, j))
      end do
    end do
  end subroutine accelerate

  !> Minmod-limited slope of the values l, c, r.
  pure real(real64) function slope(l, c, r)
    real(real64), intent(in) :: l, c, r
    if ((c - l) * (r - c) <= 0) then
      slope = 0
    else
      slope = sign(min(abs(c - l), abs(r - c)), c - l)
    end if
  end function slope

  !> Mass and energy flux (per cell volume, over dt) through a face with velocity u, between
  !> cells whose densities and energies are r(-1:2), e(-1:2) (face between 0 and 1).
  pure subroutine face_flux(u, r, e, mass, en)
    real(real64), intent(in) :: u, r(-1:2), e(-1:2)
    real(real64), intent(out) :: mass, en
    real(real64) :: rf, ef
    if (u >= 0) then
      rf = r(0) + 0.5_real64 * slope(r(-1), r(0), r(1))
      ef = e(0) + 0.5_real64 * slope(e(-1), e(0), e(1))
    else
      rf = r(1) - 0.5_real64 * slope(r(0), r(1), r(2))
      ef = e(1) - 0.5_real64 * slope(e(0), e(1), e(2))
    end if
    mass = u * dt / DX * rf
    en = mass * ef
  end subroutine face_flux

  !> Applies the face fluxes fm/fe (face k between cells k and k+1, in x or y) to density and
  !> energy.
  subroutine apply_fluxes(di, dj)
    integer, intent(in) :: di, dj
    integer :: i, j
    real(real64) :: m, en
    do j = 1, ny
      do i = 1, nx
        m = density(i, j) - (fm(i, j) - fm(i - di, j - dj))
        en = density(i, j) * energy(i, j) - (fe(i, j) - fe(i - di, j - dj))
        density(i, j) = m
        energy(i, j) = en / m
      end do
    end do
  end subroutine apply_fluxes

  !> Advection in x (needs density, energy halos of depth 2 and xvel of depth 1).
  subroutine advect_x()
    integer :: i, j
    real(real64) :: u
    do j = 1, ny
      do i = 0, nx
        u = 0.5_real64 * (xvel(i, j) + xvel(i + 1, j))
        if (ilo + i == 1 .or. ilo + i == NG + 1) u = 0     ! a wall
        call face_flux(u, density(i - 1:i + 2, j), energy(i - 1:i + 2, j), fm(i, j), fe(i, j))
      end do
    end do
    call apply_fluxes(1, 0)
  end subroutine advect_x

  !> Advection in y (needs density, energy halos of depth 2 and yvel of depth 1).
  subroutine advect_y()
    integer :: i, j
    real(real64) :: v
    do j = 0, ny
      do i = 1, nx
        v = 0.5_real64 * (yvel(i, j) + yvel(i, j + 1))
        if (jlo + j == 1 .or. jlo + j == NG + 1) v = 0
        call face_flux(v, density(i, j - 1:j + 2), energy(i, j - 1:j + 2), fm(i, j), fe(i, j))
      end do
    end do
    call apply_fluxes(0, 1)
  end subroutine advect_y

end program hydro
