/*
    What the recorder's files share: its state (the process's, each
    thread's, and the closed place and empty cache that send a thread's
    events to the slow path), its lock and its settings. It calls nothing of the other
    files, so that they all use it and none of them uses another back:
    trace.c (buffers, the slow path, the API) uses trace_file.c (the file)
    and trace_signal.c (exit, signals, fork, exec), which use this and
    trace_file.c. See trace_impl.h.
    SPDX-License-Identifier: MIT
*/
#if !defined(_WIN32) /* Windows: trace_none.c */

#include "trace_impl.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

/* Before a thread has a buffer: pos == end sends every event to the slow
   path, and the fast path's cache lookup reads this. */
const prof_impl_trace_slot prof_impl_trace_empty_cache[PROF_IMPL_TRACE_SLOTS];
prof_impl_trace_place prof_impl_trace_closed;
__thread prof_impl_trace_fast prof_impl_trace_tls =
    { &prof_impl_trace_closed, prof_impl_trace_empty_cache };
__thread prof_impl_trace_mine prof_impl_trace_me;
prof_impl_trace_shared prof_impl_trace_g = {
    .fd = -1,
    .buffer_events = DEFAULT_BUFFER_KB * 1024 / sizeof(word_t), /* read_settings */
    .memory_cap = (size_t) DEFAULT_MEMORY_KB * 1024, /* read_settings */
    .writer_mutex = PTHREAD_MUTEX_INITIALIZER,
    .writer_cond = PTHREAD_COND_INITIALIZER,
    .use_writer = 1,
};

/* ---- lock ------------------------------------------------------------------ */

/* ME.holds_lock is set before the lock word is taken and cleared after it
   is released, so that a signal handler on this thread never sees the
   word taken by its own thread with the mark clear: it would wait for a
   release that cannot come before it returns. (A handler that comes while
   this thread waits sees the mark and gives up too: safe.) */
NOINST void prof_impl_tr_lock(void)
{
    ME.holds_lock = 1;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    while (__atomic_exchange_n(&TR.lock_word, 1, __ATOMIC_ACQUIRE))
        sched_yield();
}

NOINST int prof_impl_tr_lock_api(void)
{
    if (ME.holds_lock)
        return 0;
    prof_impl_tr_lock();
    return 1;
}

/* From a signal handler: 0 at once when the interrupted code (this thread)
   holds the lock, which it cannot release before the handler returns;
   else wait for another thread's write to finish, at most a second. */
NOINST int prof_impl_tr_lock_from_signal(void)
{
    double t0 = 0;
    long i;
    if (ME.holds_lock)
        return 0;
    ME.holds_lock = 1;      /* first, as in prof_impl_tr_lock */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    for (i = 0; __atomic_exchange_n(&TR.lock_word, 1, __ATOMIC_ACQUIRE); i++)
    {
        if (i == 0)
            t0 = prof_impl_now_ns(); /* clock_gettime: async-signal-safe */
        else if (i % 64 == 0 && !(prof_impl_now_ns() - t0 <= 1e9))
        {
            __atomic_signal_fence(__ATOMIC_SEQ_CST);
            ME.holds_lock = 0;
            return 0; /* a second, or no clock */
        }
        sched_yield();
    }
    return 1;
}

NOINST void prof_impl_tr_unlock(void)
{
    __atomic_store_n(&TR.lock_word, 0, __ATOMIC_RELEASE);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    ME.holds_lock = 0;
}

/* ---- settings -------------------------------------------------------------- */

/* A whole number of KiB in lo..hi from environment variable name, or def
   (with a message when it is set to anything else). */
static NOINST size_t env_kib(const char * name, long lo, long hi, long def)
{
    const char * env = getenv(name);
    prof_impl_range r = { 0, 0, 0, 0, 0, 1, PROF_IMPL_PLAIN, NULL };
    double v;
    if (env == NULL || env[0] == '\0')
        return (size_t) def;
    r.lo = (double) lo;
    r.hi = (double) hi;
    /* digits only, as documented (the core parser also takes a sign, a
       point and an exponent), then the core parser for the range */
    if (env[strspn(env, "0123456789")] != '\0'
        || prof_impl_option_number(NULL, name, env, &r, &v) != 0)
    {
        prof_impl_warn("trace: %s=%s is not a whole number of KiB in %ld..%ld; "
                       "using %ld", name, env, lo, hi, def);
        return (size_t) def;
    }
    return (size_t) v;
}

/* PROF_TRACE_BUFFER_KB (at most 2 GiB: a full buffer is written as one
   chunk, whose size field is 32 bits) and PROF_TRACE_MEMORY_KB. A buffer
   that does not fit under the memory cap is made to fit, and said so. */
NOINST void prof_impl_tr_read_settings(void)
{
    size_t kb = env_kib("PROF_TRACE_BUFFER_KB", 4, 1L << 21, DEFAULT_BUFFER_KB);
    const char * cap_env = getenv("PROF_TRACE_MEMORY_KB");
    TR.memory_cap = env_kib("PROF_TRACE_MEMORY_KB", 4, 1L << 30,
                            DEFAULT_MEMORY_KB) * 1024;
    if (kb * 1024 + sizeof(trace_rec) > TR.memory_cap)
    {
        size_t fit = TR.memory_cap > sizeof(trace_rec) + 4096
                     ? (TR.memory_cap - sizeof(trace_rec)) / 1024 : 4;
        prof_impl_warn("trace: PROF_TRACE_BUFFER_KB=%zu is more than the memory "
                       "cap of all buffers, PROF_TRACE_MEMORY_KB=%zu%s: buffers "
                       "of %zu KiB (later threads get %zu KiB ones)", kb,
                       TR.memory_cap / 1024, cap_env != NULL && cap_env[0] != '\0'
                       ? "" : " (the default)", fit, MIN_BUFFER_KB);
        kb = fit;
    }
    TR.buffer_events = kb * 1024 / sizeof(word_t);
    {
        const char * w = getenv("PROF_TRACE_WRITER");
        TR.use_writer = !(w != NULL && strcmp(w, "0") == 0);
    }
}

#else
typedef int prof_impl_trace_state_posix_only; /* ISO C: no empty translation unit */
#endif /* !_WIN32 */
