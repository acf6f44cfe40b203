/* ferrocaf.h: ferrocaf's notified-access extension for C code linked into a coarray program.
 * Images are 1-based indices of the current team. Sections are ISO_Fortran_binding descriptors
 * (CFI_cdesc_t), as Fortran passes them to bind(C) procedures; `stat` may be NULL (an error then
 * ends the program with a message). Every image must attach and detach alike. */
#ifndef FERROCAF_H
#define FERROCAF_H

#include <stdbool.h>
#include <ISO_Fortran_binding.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FERROCAF_ANY_SOURCE (-1)
#define FERROCAF_ANY_TAG (-1)
#define FERROCAF_ATTACH_PUTS 0
#define FERROCAF_ATTACH_PUTS_AND_GETS 1

/* Every later put into x on image j posts the event at `ev` on image j (mode may be NULL). */
void ferrocaf_event_attach(void *ev, const CFI_cdesc_t *x, int *stat, const int *mode);
/* Undo one ferrocaf_event_attach(ev, x). */
void ferrocaf_event_detach(void *ev, const CFI_cdesc_t *x, int *stat);
/* x[image] = src, then notify `image` with `tag` (>= 0). */
void ferrocaf_notify_put(const CFI_cdesc_t *x, int image, const CFI_cdesc_t *src, int tag, int *stat);
/* dst = x[image], then tell `image` (with `tag`) that its buffer was read. */
void ferrocaf_notify_get(const CFI_cdesc_t *dst, const CFI_cdesc_t *x, int image, int tag, int *stat);
/* A persistent request for `count` notifications from `source` with `tag` (or wildcards);
 * returns a handle, or -1 on error. */
int ferrocaf_notify_init(int source, int tag, int count, int *stat);
void ferrocaf_notify_start(int req, int *stat);
void ferrocaf_notify_test(int req, bool *flag, int *source, int *tag, int *stat);
void ferrocaf_notify_wait(int req, int *source, int *tag, int *stat);
void ferrocaf_notify_free(int req, int *stat);

#ifdef __cplusplus
}
#endif
#endif
