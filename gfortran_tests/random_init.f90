! Tests: RANDOM_INIT (Fortran 2018 16.9.155) in its four forms. REPEATABLE=.true. gives the same
! sequence on every call; .false. a new one on every call. IMAGE_DISTINCT=.true. gives every image
! its own sequence; .false. the same sequence on every image. Sequences of all images are
! gathered with CO_SUM and compared.
! test: images 1 2 4
! test: scalable
! test: count {n} PASS
program random_init_test
  implicit none
  integer :: me, n
  real(8) :: a(4), b(4)

  me = this_image()
  n = num_images()

  call random_init(.true., .true.)
  call random_number(a)
  call random_init(.true., .true.)
  call random_number(b)
  call check(all(a == b), 'repeatable: the same sequence again')
  call check(distinct(a), 'repeatable, image_distinct: sequences differ between images')

  call random_init(.true., .false.)
  call random_number(b)
  call check(any(a /= b), 'repeatable: image_distinct changes the seed')
  call check(same(b), 'repeatable, not image_distinct: one sequence on all images')
  call random_init(.true., .false.)
  call random_number(a)
  call check(all(a == b), 'repeatable, not image_distinct: the same sequence again')

  call random_init(.false., .true.)
  call random_number(a)
  call random_init(.false., .true.)
  call random_number(b)
  call check(any(a /= b), 'not repeatable: a new sequence on each call')
  call check(distinct(a) .and. distinct(b), 'not repeatable, image_distinct: images differ')

  call random_init(.false., .false.)
  call random_number(a)
  call random_init(.false., .false.)
  call random_number(b)
  call check(any(a /= b), 'not repeatable, not image_distinct: a new sequence on each call')
  call check(same(a) .and. same(b), 'not repeatable, not image_distinct: one sequence on all images')

  print '(a,i0)', 'PASS ', me

contains

  !> Every image's x, gathered on all images.
  function gather(x) result(all_x)
    real(8), intent(in) :: x(4)
    real(8) :: all_x(4, num_images())
    all_x = 0
    all_x(:, this_image()) = x
    call co_sum(all_x)
  end function gather

  logical function same(x)
    real(8), intent(in) :: x(4)
    real(8) :: g(4, num_images())
    integer :: j
    g = gather(x)
    same = all([(all(g(:, j) == x), j = 1, num_images())])
  end function same

  logical function distinct(x)
    real(8), intent(in) :: x(4)
    real(8) :: g(4, num_images())
    integer :: i, j
    g = gather(x)
    distinct = .true.
    do i = 1, num_images()
      do j = i + 1, num_images()
        if (all(g(:, i) == g(:, j))) distinct = .false.
      end do
    end do
  end function distinct

  include 'check.inc'

end program random_init_test
