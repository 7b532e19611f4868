/*===- RuntimeChecks.c - failures of the run-time checks ------------------===*/

#include "mixer/Runtime/RuntimeChecks.h"

#include <stdio.h>
#include <string.h>

/* One record per thread: compiled code runs its checks on the calling
 * thread, before any parallel loop. */
static _Thread_local char failure[512];
static _Thread_local int hasFailure;

void mixerRuntimeCheckFailed(const char *message, int64_t a, int64_t b) {
  if (hasFailure)
    return;
  hasFailure = 1;
  size_t used = 0;
  for (const char *p = message; *p && used + 1 < sizeof(failure); ++p) {
    if (p[0] == '{' && (p[1] == '0' || p[1] == '1') && p[2] == '}') {
      int n = snprintf(failure + used, sizeof(failure) - used, "%lld",
                       (long long)(p[1] == '0' ? a : b));
      if (n > 0)
        used += (size_t)n < sizeof(failure) - used ? (size_t)n
                                                   : sizeof(failure) - used - 1;
      p += 2;
      continue;
    }
    failure[used++] = *p;
  }
  failure[used] = '\0';
}

const char *mixerRuntimeGetCheckFailure(void) {
  return hasFailure ? failure : NULL;
}

void mixerRuntimeClearCheckFailure(void) { hasFailure = 0; }
