! Bandwidth over 2 images, for any coarray runtime (ferrocaf, OpenCoarrays): image 1 puts
! a(1:k)[2] = b(1:k) and gets b(1:k) = a(1:k)[2], contiguous, for k from 1 KiB to 1 MiB (times
! 4). Each size runs about 8 MiB of transfers (at least 8, at most 2000), then SYNC IMAGES
! with image 2, inside the timed region. Prints MB/s (1e6 bytes per second) per size and
! direction; after the timing image 2 checks the last put.
! The first argument, if any, is the number of MiB moved per size (default 8).
program bandwidth
  use iso_fortran_env, only: int64, real64
  implicit none
  integer, parameter :: max_bytes = 1048576, n = max_bytes / 8
  real(real64), allocatable :: a(:)[:]
  real(real64) :: b(n)
  integer :: me, bytes, k, reps, i, mib
  integer(int64) :: t0, t1, rate
  real(real64) :: put_mbs, get_mbs
  character(len=16) :: arg

  mib = 8
  if (command_argument_count() > 0) then
    call get_command_argument(1, arg)
    read (arg, *) mib
  end if
  me = this_image()
  if (num_images() /= 2) error stop 'bandwidth needs 2 images'
  allocate (a(n)[*])
  a = -1
  b = [(real(i, real64), i = 1, n)]
  sync all
  if (me == 1) print '(a10,2a14)', 'bytes', 'put MB/s', 'get MB/s'
  bytes = 1024
  do while (bytes <= max_bytes)
    k = bytes / 8
    reps = max(8, mib * 1048576 / bytes)
    reps = min(reps, 2000)
    if (me == 1) then
      call system_clock(t0, rate)
      do i = 1, reps
        a(1:k)[2] = b(1:k)
      end do
      sync images (2)
      call system_clock(t1)
      put_mbs = real(bytes, real64) * reps / (real(t1 - t0, real64) / rate) / 1e6_real64
      call system_clock(t0)
      do i = 1, reps
        b(1:k) = a(1:k)[2]
      end do
      sync images (2)
      call system_clock(t1)
      get_mbs = real(bytes, real64) * reps / (real(t1 - t0, real64) / rate) / 1e6_real64
      print '(i10,2f14.1)', bytes, put_mbs, get_mbs
    else
      sync images (1)
      sync images (1)
    end if
    bytes = bytes * 4
  end do
  if (me == 2) then
    if (any(a /= [(real(i, real64), i = 1, n)])) error stop 'bandwidth: wrong data on image 2'
  end if
end program bandwidth
