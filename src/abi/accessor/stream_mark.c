/* The header of the image whose object this thread's receiver writes, or 0 (src/abi/accessor/
   stream.rs): then the `memcpy` libferrocaf exports copies large blocks with streaming stores.
   Initial-exec TLS, as the fault guard's marker (guard_mark.c): read on every large memcpy of
   the process, so one instruction, and valid before any code of the library has run. */

#include <stddef.h>

static __thread size_t streaming __attribute__ ((tls_model ("initial-exec")));

/* Sets the mark to `on`; returns the previous value (nested accessor calls). */
__attribute__ ((visibility ("hidden"))) size_t
ferrocaf_stream_enter (size_t on)
{
  size_t was = streaming;
  streaming = on;
  return was;
}

/* Puts back the value `ferrocaf_stream_enter` returned. */
__attribute__ ((visibility ("hidden"))) void
ferrocaf_stream_leave (size_t was)
{
  streaming = was;
}

/* The mark. */
__attribute__ ((visibility ("hidden"))) size_t
ferrocaf_streaming (void)
{
  return streaming;
}
