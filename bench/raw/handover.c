/*
 * handover.c: how long this host takes to hand one cache line from one CPU to another.
 *
 * On the 2-core test VM a whole benchmark run is sometimes 3-5x slower than the next, for
 * every runtime alike, exactly when this probe reads ~160 ns instead of ~30 ns (bench/NOTES.md,
 * "The idle 2-image slow mode"): the host, not the program, decides it. compare.py runs this
 * probe just before and just after every idle run and records the slower reading with the
 * run, so the report can say which cells had runs in the host's slow mode.
 *
 * Two threads, pinned to two CPUs (default 0 and 1), pass a counter in one cache line back
 * and forth with acquire/release atomics: BATCHES batches of ROUND_TRIPS round trips. The
 * value is the median batch's time per one-way hand-over in ns.
 * Output: "HANDOVER <ns>". Usage: handover [cpu_a cpu_b].
 * Errors (one line on stderr, exit 1): fewer than two usable CPUs, pinning refused, or a batch
 * longer than BATCH_LIMIT_S (another process held one of the CPUs, so the probe would
 * measure the scheduler, not the hand-over).
 * Both threads spin for the ~10 ms the probe takes; it is meant for an otherwise idle machine.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "raw_util.h"

#define BATCHES 5
#define ROUND_TRIPS 20000
#define BATCH_LIMIT_S 1.0

/* The counter, alone on its cache line: even values are the first thread's turn. */
static _Alignas(64) _Atomic uint64_t turn;
static _Atomic int abandoned;

/* Pins the calling thread to `cpu`; 0 or an errno. */
static int pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

/* Waits until `turn` reaches `want`; 0, or -1 once the other side abandoned the probe. */
static int wait_turn(uint64_t want)
{
    while (atomic_load_explicit(&turn, memory_order_acquire) != want) {
        if (atomic_load_explicit(&abandoned, memory_order_relaxed))
            return -1;
        cpu_relax();
    }
    return 0;
}

/* The second thread: answers every odd turn until the probe ends. */
static void *answer(void *cpu)
{
    if (pin(*(int *)cpu) != 0) {
        atomic_store(&abandoned, 1);
        return (void *)1;
    }
    for (uint64_t t = 1; t < 2ULL * BATCHES * ROUND_TRIPS; t += 2) {
        if (wait_turn(t) != 0)
            return NULL;
        atomic_store_explicit(&turn, t + 1, memory_order_release);
    }
    return NULL;
}

static int parse_cpu(const char *s, int *cpu)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v < 0 || v >= CPU_SETSIZE)
        return -1;
    *cpu = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    int cpus[2] = {0, 1};
    if (argc != 1 && argc != 3) {
        fprintf(stderr, "handover: usage: handover [cpu_a cpu_b]\n");
        return 1;
    }
    if (argc == 3 && (parse_cpu(argv[1], &cpus[0]) || parse_cpu(argv[2], &cpus[1]) ||
                      cpus[0] == cpus[1])) {
        fprintf(stderr, "handover: the CPUs must be two different numbers, got %s and %s\n",
                argv[1], argv[2]);
        return 1;
    }
    int err = pin(cpus[0]);
    if (err != 0) {
        fprintf(stderr, "handover: cannot run on CPU %d: %s\n", cpus[0], strerror(err));
        return 1;
    }
    pthread_t other;
    if ((err = pthread_create(&other, NULL, answer, &cpus[1])) != 0) {
        fprintf(stderr, "handover: cannot start the second thread: %s\n", strerror(err));
        return 1;
    }
    double per_handover[BATCHES];
    int failed = 0;
    for (int b = 0; b < BATCHES && !failed; b++) {
        double start = now();
        for (uint64_t i = 0; i < ROUND_TRIPS; i++) {
            uint64_t t = 2 * ((uint64_t)b * ROUND_TRIPS + i);
            atomic_store_explicit(&turn, t + 1, memory_order_release);
            if (wait_turn(t + 2) != 0) {
                failed = 1;
                break;
            }
            if ((i & 1023) == 0 && now() - start > BATCH_LIMIT_S) {
                failed = 2;
                break;
            }
        }
        per_handover[b] = (now() - start) * 1e9 / (2.0 * ROUND_TRIPS);
    }
    if (failed)
        atomic_store(&abandoned, 1);
    void *pinned;
    pthread_join(other, &pinned);
    if (pinned != NULL) {
        fprintf(stderr, "handover: cannot run on CPU %d\n", cpus[1]);
        return 1;
    }
    if (failed) {
        fprintf(stderr, "handover: a batch took over %g s: CPU %d or %d is busy\n",
                BATCH_LIMIT_S, cpus[0], cpus[1]);
        return 1;
    }
    qsort(per_handover, BATCHES, sizeof per_handover[0], cmp);
    printf("HANDOVER %.1f\n", per_handover[BATCHES / 2]);
    return 0;
}
