! Tests: LOCK, UNLOCK, EVENT POST and every atomic subroutine on an image index below 1 or above
! NUM_IMAGES() with STAT= set a non-zero stat (and ERRMSG= where the statement has one) and
! change nothing; the program continues. Index 0 is not tried here: gfortran 12 passes image
! index 0 for a non-coindexed lock, event or atomic (meaning this image), so the runtime
! cannot tell `x[0]` from `x` (docs/ARCHITECTURE.md, ABI limits). SYNC IMAGES, get and put
! reject 0: sync_images_errors.f90, bad_image_index_fatal.f90.
! test: images 1 2 3
! test: scalable
! test: count {n} PASS
program bad_image_index_stat
  use iso_fortran_env, only: atomic_int_kind, lock_type, event_type
  implicit none
  integer(atomic_int_kind) :: a[*], old, v
  type(lock_type) :: lk[*]
  type(event_type) :: ev[*]
  integer :: bad(2), k, i, st, cnt
  character(len=80) :: msg

  bad = [-1, num_images() + 1]
  a = 42
  sync all
  do i = 1, size(bad)
    k = bad(i)
    msg = ''
    lock (lk[k], stat=st, errmsg=msg)
    call check(st /= 0 .and. index(msg, 'out of range') > 0, 'lock')
    msg = ''
    unlock (lk[k], stat=st, errmsg=msg)
    call check(st /= 0 .and. index(msg, 'out of range') > 0, 'unlock')
    msg = ''
    event post (ev[k], stat=st, errmsg=msg)
    call check(st /= 0 .and. index(msg, 'out of range') > 0, 'event post')
    call atomic_define(a[k], 1, stat=st)
    call check(st /= 0, 'atomic_define')
    call atomic_ref(v, a[k], stat=st)
    call check(st /= 0, 'atomic_ref')
    call atomic_cas(a[k], old, 42, 1, stat=st)
    call check(st /= 0, 'atomic_cas')
    call atomic_add(a[k], 1, stat=st)
    call check(st /= 0, 'atomic_add')
    call atomic_and(a[k], 1, stat=st)
    call check(st /= 0, 'atomic_and')
    call atomic_or(a[k], 1, stat=st)
    call check(st /= 0, 'atomic_or')
    call atomic_xor(a[k], 1, stat=st)
    call check(st /= 0, 'atomic_xor')
    call atomic_fetch_add(a[k], 1, old, stat=st)
    call check(st /= 0, 'atomic_fetch_add')
    call atomic_fetch_and(a[k], 1, old, stat=st)
    call check(st /= 0, 'atomic_fetch_and')
    call atomic_fetch_or(a[k], 1, old, stat=st)
    call check(st /= 0, 'atomic_fetch_or')
    call atomic_fetch_xor(a[k], 1, old, stat=st)
    call check(st /= 0, 'atomic_fetch_xor')
  end do
  sync all
  call check(a == 42, 'a failed atomic changed this image''s variable')
  call event_query(ev, cnt)
  call check(cnt == 0, 'a failed event post reached this image')
  lock (lk)
  unlock (lk)
  print '(a,i0)', 'PASS ', this_image()

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (ok) return
    print '(a,i0,3a,i0)', 'FAIL on image ', this_image(), ': ', what, ' with index ', k
    error stop 1
  end subroutine check

end program bad_image_index_stat
