! Tests: an image that stops inside a CRITICAL construct leaves it held for good; an image that
! then tries to enter it gets error termination with a clear message instead of waiting
! forever, also as the last running image (2 images). (Executing STOP inside CRITICAL is not
! allowed (Fortran 2018 11.1.6), and gfortran rejects it there, but not in a procedure the
! construct calls; the runtime must still not hang.) The holder tells the others that it holds
! the construct with ATOMIC_DEFINE (allowed in CRITICAL) before it stops: a pause instead let
! image 1 take the construct first across test-bed hosts, where the holder's remote
! compare-and-swap completes only when image 1 enters MPI, which a pause never does.
! test: images 2 3
! test: exit nonzero
! test: stderr which has stopped
! test: forbid FAIL
! test: timeout 30
program critical_stopped_holder
  use iso_fortran_env, only: atomic_int_kind
  implicit none
  integer(atomic_int_kind) :: held[*], v
  integer :: me, n

  me = this_image(); n = num_images()
  held = 0
  sync all
  if (me /= n) then
    do
      call atomic_ref(v, held)
      if (v /= 0) exit
    end do
  end if
  call crit(me == n)
  print '(a,i0,a)', 'FAIL on image ', me, ': entered the CRITICAL construct'

contains

  subroutine crit(stop_inside)
    logical, intent(in) :: stop_inside
    critical
      if (stop_inside) call finish(n)
    end critical
  end subroutine crit

  subroutine finish(n)
    integer, intent(in) :: n
    integer :: i
    do i = 1, n - 1
      call atomic_define(held[i], 1)
    end do
    stop
  end subroutine finish

end program critical_stopped_holder
