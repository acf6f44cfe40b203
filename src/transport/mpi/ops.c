/* MPI's predefined operations that the mpi-sys bindings do not export (MPI_REPLACE is an
 * address in Open MPI and an integer constant in MPICH, so only a C compiler with the
 * library's own mpi.h can name it). */
#include <mpi.h>

/* MPI_REPLACE: MPI_Fetch_and_op with it is an atomic swap. */
MPI_Op ferrocaf_mpi_replace(void) { return MPI_REPLACE; }
