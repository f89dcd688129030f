/*
    What the recorder's files share: its state (the process's, each
    thread's, and the closed place and empty cache that send a thread's
    events to the slow path) and its lock. It calls nothing of the other
    files, so that they all use it and none of them uses another back:
    trace.c (buffers, the slow path, the API) uses trace_file.c (the file)
    and trace_signal.c (exit, signals, fork, exec), which use this and
    trace_file.c. See trace_impl.h.
    SPDX-License-Identifier: MIT
*/
#if !defined(_WIN32) /* Windows: trace_none.c */

#include "trace_impl.h"

#include <sched.h>

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

#else
typedef int prof_impl_trace_state_posix_only; /* ISO C: no empty translation unit */
#endif /* !_WIN32 */
