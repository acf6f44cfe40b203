/* The bridge to libgfortran's RANDOM_SEED for RANDOM_INIT (src/abi/random.rs). The symbol is
 * weak: libgfortran is part of every gfortran program, but not of ferrocaf's own test binaries. */

#include <stddef.h>

extern void _gfortran_random_seed_i4(int *size, void *put, void *get) __attribute__((weak));

/* CALL RANDOM_SEED(SIZE=size, PUT=put, GET=get) with gfortran descriptors (or NULL).
 * Returns 0, or -1 when libgfortran is not linked. */
int ferrocaf_random_seed(int *size, void *put, void *get) {
    if (!_gfortran_random_seed_i4)
        return -1;
    _gfortran_random_seed_i4(size, put, get);
    return 0;
}
