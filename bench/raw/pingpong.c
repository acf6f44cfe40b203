/*
 * pingpong.c: the physical limit of intra-node shared-memory communication on this machine,
 * as a reference for the coarray micro-benchmarks.
 *
 * Two processes (fork) share one MAP_SHARED anonymous mapping. Each direction has a mailbox:
 * a payload area and a 64-bit flag on its own cache line. A sender writes the payload, then
 * stores the sequence number into the flag with release ordering; the receiver spin-waits
 * (with a pause hint and an occasional sched_yield, never sleeping) until the flag equals the sequence number, acquires, and
 * reads the payload. Parent sends seq, child answers with seq; one iteration is a round trip
 * and the value reported is half of it, median of NREP repetitions:
 *   raw_pingpong_8B      8-byte payload (copied with plain loads/stores)
 *   raw_pingpong_256KiB  256 KiB payload copied in and out with memcpy (private buffer ->
 *                        shared mailbox -> private buffer), plus
 *   raw_copy_256KiB_bw   the bytes copied per second in that ping-pong (two 256 KiB copies per
 *                        half round trip), in GB/s (1e9 bytes/s): the memcpy bandwidth between
 *                        private and shared memory that a put or get can at best reach.
 * Every received payload is checked; a mismatch prints "VERIFY FAILED" and exits 1.
 * Output: "RESULT <name> 2 <value> <unit>", the format of bench/micro/.
 * Usage: pingpong [2 [factor]]: the process count (always 2) and a time factor (e.g. 0.1)
 * scaling the iteration counts.
 * Two spinning processes on 2 cores is fine; the sched_yield keeps it usable when other
 * processes compete for the cores (see wait_for).
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "raw_util.h"

#define NREP 5
#define BIG (256 * 1024)

struct mailbox {
    _Alignas(64) _Atomic uint64_t flag;
    _Alignas(64) unsigned char data[BIG];
};

struct shared {
    struct mailbox to_child, to_parent;
    _Atomic int failed;
};

/* Spin with a pause hint. Every YIELD_EVERY polls the core is offered to others with
 * sched_yield (never a sleep): irrelevant while the partner runs on the other core, but it
 * keeps the reference meaningful when other work shares the cores. */
#define YIELD_EVERY 4096
static void wait_for(struct mailbox *m, uint64_t seq)
{
    unsigned polls = 0;
    while (atomic_load_explicit(&m->flag, memory_order_acquire) != seq) {
        cpu_relax();
        if (++polls % YIELD_EVERY == 0)
            sched_yield();
    }
}

static void post(struct mailbox *m, uint64_t seq)
{
    atomic_store_explicit(&m->flag, seq, memory_order_release);
}

/* One side of `iters` round trips with `bytes` of payload; seq numbers continue from *seq. */
static void run(struct shared *s, int parent, size_t bytes, long iters, uint64_t *seq,
                unsigned char *buf)
{
    struct mailbox *out = parent ? &s->to_child : &s->to_parent;
    struct mailbox *in = parent ? &s->to_parent : &s->to_child;
    for (long i = 0; i < iters; i++) {
        uint64_t q = ++*seq;
        if (parent) {
            if (bytes == 8)
                *(volatile uint64_t *)out->data = q;
            else {
                memcpy(buf, &q, sizeof q);
                memcpy(out->data, buf, bytes);
            }
            post(out, q);
            wait_for(in, q);
            if (bytes == 8) {
                if (*(volatile uint64_t *)in->data != ~q)
                    s->failed = 1;
            } else {
                memcpy(buf, in->data, bytes);
                uint64_t r;
                memcpy(&r, buf, sizeof r);
                if (r != ~q || buf[bytes - 1] != (unsigned char)(bytes - 1))
                    s->failed = 1;
            }
        } else {
            wait_for(in, q);
            if (bytes == 8) {
                uint64_t v = *(volatile uint64_t *)in->data;
                if (v != q)
                    s->failed = 1;
                *(volatile uint64_t *)out->data = ~v;
            } else {
                memcpy(buf, in->data, bytes);
                uint64_t v;
                memcpy(&v, buf, sizeof v);
                if (v != q)
                    s->failed = 1;
                v = ~v;
                memcpy(buf, &v, sizeof v);
                memcpy(out->data, buf, bytes);
            }
            post(out, q);
        }
    }
}

/* Median half-round-trip time in seconds for `bytes`, both processes running this. */
static double measure(struct shared *s, int parent, size_t bytes, long iters, uint64_t *seq)
{
    unsigned char *buf = malloc(BIG);
    double t[NREP];
    if (!buf)
        exit(1);
    for (size_t i = 0; i < BIG; i++)
        buf[i] = (unsigned char)i;
    run(s, parent, bytes, iters / 10 + 1, seq, buf); /* warm-up */
    for (int r = 0; r < NREP; r++) {
        double t0 = now();
        run(s, parent, bytes, iters, seq, buf);
        t[r] = (now() - t0) / (2.0 * iters);
    }
    free(buf);
    qsort(t, NREP, sizeof t[0], cmp);
    return t[NREP / 2];
}

int main(int argc, char **argv)
{
    double factor = argc > 2 ? atof(argv[2]) : 1.0;
    if (argc > 1 && atoi(argv[1]) != 2) {
        fprintf(stderr, "pingpong: always 2 processes\n");
        return 2;
    }
    if (factor <= 0)
        factor = 1.0;
    long small_iters = (long)(200000 * factor) + 1, big_iters = (long)(2000 * factor) + 1;

    struct shared *s = mmap(NULL, sizeof *s, PROT_READ | PROT_WRITE,
                            MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (s == MAP_FAILED) {
        perror("mmap");
        return 1;
    }
    pid_t child = fork();
    if (child < 0) {
        perror("fork");
        return 1;
    }
    int parent = child != 0;
    uint64_t seq = 0;
    double t8 = measure(s, parent, 8, small_iters, &seq);
    double tbig = measure(s, parent, BIG, big_iters, &seq);
    if (!parent)
        _exit(s->failed ? 1 : 0);

    int status;
    waitpid(child, &status, 0);
    if (s->failed || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        printf("VERIFY FAILED raw pingpong payload mismatch\n");
        return 1;
    }
    printf("RESULT raw_pingpong_8B 2 %.6e us\n", t8 * 1e6);
    printf("RESULT raw_pingpong_256KiB 2 %.6e us\n", tbig * 1e6);
    printf("RESULT raw_copy_256KiB_bw 2 %.6e GB/s\n", 2.0 * BIG / tbig / 1e9);
    return 0;
}
