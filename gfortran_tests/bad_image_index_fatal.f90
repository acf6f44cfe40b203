! Tests: an image index of 0, -1 or NUM_IMAGES()+1 without STAT= (gfortran 12 has no STAT= for
! image selectors) in a coindexed read, write, copy between images (either side), LOCK, EVENT
! POST or an atomic ends the program with one `ferrocaf: image N: ... out of range` line and a
! non-zero status: no panic, no hang, no silent success. CASE is `operation:index`.
! test: images 2
! test: vary CASE=get:0,get:-1,get:n+1,send:0,send:-1,send:n+1,sendget_to:0,sendget_to:n+1,sendget_from:-1,sendget_from:n+1,lock:n+1,post:-1,atomic:n+1
! test: exit nonzero
! test: stderr out of range
! test: forbid got past
! test: timeout 20
program bad_image_index_fatal
  use iso_fortran_env, only: atomic_int_kind, lock_type, event_type
  implicit none
  integer :: x(4)[*], y(4)[*], k, colon
  integer(atomic_int_kind) :: a[*]
  type(lock_type) :: lk[*]
  type(event_type) :: ev[*]
  character(len=32) :: c

  call get_environment_variable('CASE', c)
  colon = index(c, ':')
  select case (c(colon + 1:))
  case ('n+1')
    k = num_images() + 1
  case default
    read (c(colon + 1:), *) k
  end select
  x = 1
  y = 2
  sync all
  if (this_image() == 1) then
    select case (c(:colon - 1))
    case ('get')
      y(:) = x(:)[k]
    case ('send')
      x(:)[k] = y
    case ('sendget_to')
      x(:)[k] = y(:)[2]
    case ('sendget_from')
      x(:)[2] = y(:)[k]
    case ('lock')
      lock (lk[k])
    case ('post')
      event post (ev[k])
    case ('atomic')
      call atomic_add(a[k], 1)
    case default
      print *, 'unknown CASE ', c
    end select
  end if
  sync all
  print *, 'got past the bad access'
end program bad_image_index_fatal
