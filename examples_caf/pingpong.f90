! pingpong.f90 - two images bounce a value back and forth with coindexed writes and
! SYNC IMAGES, check it on every bounce, and report the average round-trip time (also as
! "RESULT pingpong 2 <us per round trip> us", the line bench/compare.py reads).
!
!   ferrocaf run -n 2 examples_caf/pingpong.f90 [ROUNDS]      (default 10000 rounds)
program pingpong
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none
  integer :: ball[*]            ! the value being bounced; each image receives into its own
  integer :: me, rounds, r
  integer(int64) :: t0, t1, rate
  character(len=32) :: arg

  if (num_images() /= 2) then
    if (this_image() == 1) write (*, '(a, i0)') 'pingpong needs exactly 2 images, got ', &
                                                num_images()
    error stop 2
  end if
  rounds = 10000
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) rounds
  end if

  me = this_image()
  ball = 0
  sync all
  call system_clock(t0, rate)
  do r = 1, rounds
    if (me == 1) then
      ball[2] = 2 * r - 1       ! ping: write into image 2
      sync images (2)           ! ... and let it look
      sync images (2)           ! wait until image 2 has written the pong back
      call check(ball, 2 * r)
    else
      sync images (1)           ! wait for the ping
      call check(ball, 2 * r - 1)
      ball[1] = ball + 1        ! pong: write the next value into image 1
      sync images (1)
    end if
  end do
  call system_clock(t1)

  if (me == 1) then
    write (*, '(a, i0, a, f0.2, a)') 'Success: ', rounds, &
      ' round trips between images 1 and 2, value checked each time; ', &
      1.0e6_real64 * real(t1 - t0, real64) / real(rate, real64) / rounds, &
      ' microseconds per round trip'
    write (*, '(a, es14.6, a)') 'RESULT pingpong 2 ', &
      1.0e6_real64 * real(t1 - t0, real64) / real(rate, real64) / rounds, ' us'
  end if

contains

  subroutine check(got, want)
    integer, intent(in) :: got, want
    if (got /= want) then
      write (*, '(a, i0, a, i0, a, i0)') 'FAILED: image ', this_image(), ' received ', got, &
                                         ' instead of ', want
      error stop 1
    end if
  end subroutine check

end program pingpong
