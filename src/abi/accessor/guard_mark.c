/* The accessor fault guard's per-thread marker (src/abi/accessor/guard.rs): 1 + the 0-based
   target image while this thread runs an accessor, else 0. Initial-exec TLS, so reading or
   writing it is one instruction; Rust's thread_local! in a shared library goes through
   __tls_get_addr, which cost a quarter of a coindexed scalar read. Read by the SIGSEGV/SIGBUS
   handler (a plain load of a thread-local is async-signal-safe). */

#include <stddef.h>

static __thread size_t mark __attribute__ ((tls_model ("initial-exec")));

/* Sets the marker to `target`; returns the previous value (nested accessor calls). */
__attribute__ ((visibility ("hidden"))) size_t
ferrocaf_accessor_enter (size_t target)
{
  size_t was = mark;
  mark = target;
  return was;
}

/* Puts back the value `ferrocaf_accessor_enter` returned. */
__attribute__ ((visibility ("hidden"))) void
ferrocaf_accessor_leave (size_t was)
{
  mark = was;
}

/* The marker. */
__attribute__ ((visibility ("hidden"))) size_t
ferrocaf_accessor_mark (void)
{
  return mark;
}
