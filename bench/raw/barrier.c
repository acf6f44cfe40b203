/*
 * barrier.c: reference barriers between N processes (fork) on one MAP_SHARED anonymous
 * mapping, to show what SYNC ALL could cost on this machine, in particular with more
 * processes than cores (8 on 2).
 *
 * All variants are a central sense-free counter barrier: every process atomically increments
 * `arrived`; the last arrival of episode e resets nothing but publishes `generation = e`
 * (release); the others wait until `generation >= e` (acquire). They differ only in how the
 * waiters wait:
 *   raw_barrier_futex  spin (2000 polls, none when N exceeds the CPUs, ferrocaf's policy), then
 *                      sleep with FUTEX_WAIT on `generation`; the last arrival does one
 *                      FUTEX_WAKE(all) if anybody announced sleeping;
 *   raw_barrier_yield  poll with sched_yield between polls (never sleeps; hands the core to a
 *                      runnable peer, which is what oversubscribed processes need).
 * Usage: barrier N [factor]; prints "RESULT <name> N <us per barrier> us" (median of NREP
 * repetitions, each a timed loop of back-to-back barriers, warm-up first). Verification: every
 * process counts its episodes and checks at each one that `arrived` reached N * episode.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>

#include "raw_util.h"
#include <unistd.h>

#define NREP 5

struct shared {
    _Alignas(64) _Atomic uint64_t arrived;
    _Alignas(64) _Atomic uint32_t generation; /* futex word: episodes completed (mod 2^32) */
    _Atomic uint32_t sleepers;
    _Alignas(64) _Atomic int failed;
    double times[NREP];
};

static void futex(_Atomic uint32_t *w, int op, uint32_t v)
{
    syscall(SYS_futex, (uint32_t *)w, op, v, NULL, NULL, 0);
}

/* Episode `e` (1, 2, ...) of the barrier among `n` processes. */
static int wait_spin; /* polls before sleeping in the futex variant */

static void barrier(struct shared *s, int n, uint64_t e, int use_futex)
{
    uint64_t a = atomic_fetch_add(&s->arrived, 1) + 1;
    if (a == (uint64_t)n * e) {
        atomic_store_explicit(&s->generation, (uint32_t)e, memory_order_release);
        if (use_futex && atomic_load(&s->sleepers) > 0)
            futex(&s->generation, FUTEX_WAKE, INT_MAX);
        return;
    }
    int polls = 0;
    for (;;) {
        uint32_t g = atomic_load_explicit(&s->generation, memory_order_acquire);
        if ((int32_t)(g - (uint32_t)e) >= 0)
            break;
        if (!use_futex) {
            sched_yield();
        } else if (++polls > wait_spin) {
            atomic_fetch_add(&s->sleepers, 1);
            futex(&s->generation, FUTEX_WAIT, g); /* returns at once if g changed */
            atomic_fetch_sub(&s->sleepers, 1);
        }
    }
    if (atomic_load(&s->arrived) < (uint64_t)n * e)
        s->failed = 1;
}

/* Runs warm-up and NREP timed loops in every process; returns the median on process 0. */
static double measure(struct shared *s, int n, int rank, long iters, int use_futex,
                      uint64_t *episode)
{
    for (long i = 0; i < iters / 10 + 1; i++)
        barrier(s, n, ++*episode, use_futex);
    for (int r = 0; r < NREP; r++) {
        double t0 = now();
        for (long i = 0; i < iters; i++)
            barrier(s, n, ++*episode, use_futex);
        if (rank == 0)
            s->times[r] = (now() - t0) / iters;
    }
    if (rank != 0)
        return 0;
    qsort(s->times, NREP, sizeof s->times[0], cmp);
    return s->times[NREP / 2];
}

int main(int argc, char **argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 2;
    double factor = argc > 2 ? atof(argv[2]) : 1.0;
    if (n < 1 || factor <= 0) {
        fprintf(stderr, "usage: barrier N [factor]\n");
        return 2;
    }
    long iters = (long)(20000 * factor / n) + 1;
    wait_spin = n > sysconf(_SC_NPROCESSORS_ONLN) ? 0 : 2000;
    struct shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
                            MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    int rank = 0;
    for (int i = 1; i < n; i++) {
        pid_t p = fork();
        if (p < 0) {
            perror("fork");
            return 1;
        }
        if (p == 0) {
            rank = i;
            break;
        }
    }
    uint64_t episode = 0;
    double tf = measure(s, n, rank, iters, 1, &episode);
    double ty = measure(s, n, rank, iters, 0, &episode);
    if (rank != 0)
        _exit(0);
    int status, bad = 0;
    while (wait(&status) > 0)
        bad |= !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    if (bad || s->failed) {
        printf("VERIFY FAILED raw barrier released a process early\n");
        return 1;
    }
    printf("RESULT raw_barrier_futex %d %.6e us\n", n, tf * 1e6);
    printf("RESULT raw_barrier_yield %d %.6e us\n", n, ty * 1e6);
    return 0;
}
