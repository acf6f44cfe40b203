! Tests: an image that stops inside a CRITICAL construct leaves it held for good; an image that
! then tries to enter it gets error termination with a clear message instead of waiting
! forever, also as the last running image (2 images). (Executing STOP inside CRITICAL is not
! allowed (Fortran 2018 11.1.6), and gfortran rejects it there, but not in a procedure the
! construct calls; the runtime must still not hang.)
! test: images 2 3
! test: exit nonzero
! test: stderr which has stopped
! test: forbid FAIL
! test: timeout 30
program critical_stopped_holder
  implicit none
  integer :: me, n

  me = this_image(); n = num_images()
  if (me /= n) call wait_a_little
  call crit(me == n)
  print '(a,i0,a)', 'FAIL on image ', me, ': entered the CRITICAL construct'

contains

  subroutine crit(stop_inside)
    logical, intent(in) :: stop_inside
    critical
      if (stop_inside) call finish
    end critical
  end subroutine crit

  subroutine finish
    stop
  end subroutine finish

  subroutine wait_a_little
    integer(8) :: t0, t, rate
    call system_clock(t0, rate)
    do
      call system_clock(t)
      if (t - t0 > rate / 10) exit
    end do
  end subroutine wait_a_little

end program critical_stopped_holder
