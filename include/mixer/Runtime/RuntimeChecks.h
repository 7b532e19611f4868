/*===- RuntimeChecks.h - failures of the run-time checks --------*- C -*-===*/
/*
 * Compiled code checks, before each mixer op, what the verifier could not:
 * dynamic sizes that must agree, indices in range, eps > 0, ... (the pass
 * mixer-insert-runtime-checks). A failed check does not run the op and calls
 * mixerRuntimeCheckFailed, which records the first failure of the calling
 * thread. A caller of compiled code clears the record before a call and
 * reads it after: null means every check held. The C API and Python do this
 * themselves; an application linking an object of mixer-compile links
 * libMixerRuntime.a and does it itself.
 *
 * The library is plain C and links nothing but libc.
 */

#ifndef MIXER_RUNTIME_RUNTIMECHECKS_H
#define MIXER_RUNTIME_RUNTIMECHECKS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Called by compiled code when a check fails. `message` may hold {0} and
 * {1}, replaced by `a` and `b`. Only the first failure since the last
 * clear is kept. */
void mixerRuntimeCheckFailed(const char *message, int64_t a, int64_t b);

/* The message of the first failed check on this thread since the last
 * clear, or null if there was none. Valid until the next clear. */
const char *mixerRuntimeGetCheckFailure(void);

/* Forgets the failure recorded on this thread. */
void mixerRuntimeClearCheckFailure(void);

#ifdef __cplusplus
}
#endif

#endif /* MIXER_RUNTIME_RUNTIMECHECKS_H */
