! A FERROCAF_GFORTRAN_ABI setting that contradicts the compiler named in the program's .comment
! section is refused at start with one line naming both (abi/generation.rs): the detection is
! right for this compiler, and a wrong setting never runs the program with the wrong ABI.
! test: images 2
! test: gfortran == 15
! test: env FERROCAF_GFORTRAN_ABI=16
! test: exit 1
! test: stderr FERROCAF_GFORTRAN_ABI=16 contradicts the program, which gfortran 15 compiled
! test: forbid started
program generation_contradicted
  implicit none
  print *, 'started', this_image()
end program generation_contradicted
