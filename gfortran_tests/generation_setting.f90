! FERROCAF_GFORTRAN_ABI naming the generation the program was compiled for is accepted, and a
! value that names no generation is refused at start (abi/generation.rs).
! test: images 2
! test: env FERROCAF_GFORTRAN_ABI=seventeen
! test: exit 1
! test: stderr FERROCAF_GFORTRAN_ABI=seventeen is not a gfortran version ferrocaf knows
! test: forbid started
program generation_setting
  implicit none
  print *, 'started', this_image()
end program generation_setting
