/* The accessor fault guard's per-thread marker (src/abi/accessor/guard.rs): 1 + the 0-based
   target image while this thread runs an accessor, else 0. Initial-exec TLS, so reading or
   writing it is one instruction; Rust's thread_local! in a shared library goes through
   __tls_get_addr, which cost a quarter of a coindexed scalar read. On x86-64 guard.rs reads and
   writes `ferrocaf_accessor_marker` itself (inline assembly, no call); elsewhere through the two
   functions below. Read by the SIGSEGV/SIGBUS handler (a plain load of a thread-local is
   async-signal-safe). */

#include <stddef.h>

__attribute__ ((visibility ("hidden"), tls_model ("initial-exec"))) __thread size_t
  ferrocaf_accessor_marker;

#if !defined(__x86_64__)
/* Sets the marker to `target`; returns the previous value (nested accessor calls). */
__attribute__ ((visibility ("hidden"))) size_t
ferrocaf_accessor_enter (size_t target)
{
  size_t was = ferrocaf_accessor_marker;
  ferrocaf_accessor_marker = target;
  return was;
}

/* Puts back the value `ferrocaf_accessor_enter` returned. */
__attribute__ ((visibility ("hidden"))) void
ferrocaf_accessor_leave (size_t was)
{
  ferrocaf_accessor_marker = was;
}
#endif

/* The marker. */
__attribute__ ((visibility ("hidden"))) size_t
ferrocaf_accessor_mark (void)
{
  return ferrocaf_accessor_marker;
}
