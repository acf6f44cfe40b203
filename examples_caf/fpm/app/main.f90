! Every image adds its number into a coarray on image 1 with an atomic, then image 1 checks
! the total; FERROCAF_ANY_SOURCE (from ferrocaf_ext) only shows that the module is found.
program coarray_sum
  use, intrinsic :: iso_fortran_env, only: atomic_int_kind
  use ferrocaf_ext, only: FERROCAF_ANY_SOURCE
  implicit none
  integer(atomic_int_kind) :: total[*]
  integer :: n
  n = num_images()
  total = 0
  sync all
  call atomic_add(total[1], this_image())
  sync all
  if (this_image() == 1) then
    if (total /= n * (n + 1) / 2 .or. FERROCAF_ANY_SOURCE /= -1) error stop 1
    write (*, '(a, i0, a)') 'Success: atomic sum over ', n, ' images'
  end if
end program
