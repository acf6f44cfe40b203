! attach_ring.f90 - passes a token around the ring of images with attached puts: after
! event_attach(arrived, token), every put into token on image j posts arrived on image j, so
! the receiver needs no separate EVENT POST. Checks the token made every round trip.
!
!   attach_ring [ROUNDS]    (default 10)
program attach_ring
  use, intrinsic :: iso_fortran_env, only: event_type
  use ferrocaf_ext, only: event_attach, event_detach
  implicit none
  type(event_type) :: arrived[*]
  integer :: token[*]
  integer :: me, n, right, rounds, k
  character(len=16) :: arg

  rounds = 10
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg)
    read (arg, *) rounds
  end if
  me = this_image()
  n = num_images()
  right = merge(1, me + 1, me == n)
  token = 0
  call event_attach(arrived, token)       ! every image attaches alike
  sync all

  do k = 1, rounds
    if (me == 1) then
      token[right] = k * n                 ! start round k ...
      event wait (arrived)                 ! ... and wait for it to come back
      if (token /= k * n + n - 1) then
        write (*, '(a, i0, a, i0)') 'FAILED: round ', k, ' came back with ', token
        error stop 1
      end if
    else
      event wait (arrived)                 ! the put from the left neighbour has landed
      token[right] = token + 1
    end if
  end do

  call event_detach(arrived, token)
  if (me == 1) write (*, '(a, i0, a, i0, a)') 'Success: ', rounds, ' rounds around ', n, ' images'
end program
