/* One-way latency of MPI_Send/MPI_Recv between ranks 0 and 1 (blocking ping-pong of 8 bytes),
 * the floor under every coarray runtime's messages on the same launcher and network:
 *   mpicc -O2 bench/mpi/pingpong.c -o pingpong && mpirun -n 2 ./pingpong [iterations]
 * Rank 0 prints the median, minimum and maximum of 10 batches, microseconds per one-way trip. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int by_value(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    int rank, iters = argc > 1 ? atoi(argv[1]) : 1000;
    double word = 0, batch[10];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int b = 0; b < 10; b++) {
        double t0 = MPI_Wtime();
        for (int i = 0; i < iters; i++) {
            if (rank == 0) {
                MPI_Send(&word, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
                MPI_Recv(&word, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            } else if (rank == 1) {
                MPI_Recv(&word, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Send(&word, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
            }
        }
        batch[b] = (MPI_Wtime() - t0) / iters / 2 * 1e6;
    }
    if (rank == 0) {
        qsort(batch, 10, sizeof batch[0], by_value);
        printf("MPI ping-pong, one way: median %.1f us [%.1f-%.1f]\n", (batch[4] + batch[5]) / 2,
               batch[0], batch[9]);
    }
    MPI_Finalize();
    return 0;
}
