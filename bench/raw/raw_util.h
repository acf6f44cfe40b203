/*
 * raw_util.h: the helpers the raw reference programs of this directory share: the clock, the
 * spin-wait pause hint and the order of doubles for qsort (their medians).
 */
#ifndef RAW_UTIL_H
#define RAW_UTIL_H

#include <time.h>

/* Seconds on the monotonic clock. */
static inline double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* The processor's hint that this is a spin-wait loop. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ volatile("yield");
#endif
}

/* qsort's order of doubles, smallest first. */
static inline int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#endif
