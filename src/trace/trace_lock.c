/*
    Locks and allocations in the trace (trace_format.h, kinds 6-10): the
    entry points of PROF_LOCK_WAIT / _ACQUIRED / _RELEASED / _NAME,
    prof_mutex_lock / prof_mutex_unlock, PROF_ALLOC and PROF_FREE
    (profiler.h), and the one the allocation archive (src/alloc/) records
    through. Each marker is one extension record written as the inline
    annotations write theirs (prof_impl_trace_ext_rec, profiler.h): into
    the thread's buffer at once, or through prof_impl_trace_ext
    (trace_annot.c) when the name is not cached yet, the buffer has no room
    or the gap is long, with the slow path's buffer, room and signal rules.

    A lock record is NAME (the lock's name) and the lock's address. Names
    come from PROF_LOCK_NAME, kept in a fixed table of LOCK_NAMES slots
    (open addressing; a slot's lock is claimed once by compare-and-swap,
    its name stored after it), read without a lock, so that a marker in a
    signal handler or a fork child is as safe as a zone's. A lock never
    named is recorded as "lock" (prof-trace shows its address).
    SPDX-License-Identifier: MIT
*/
#define PROF_IMPL_TRACE_INTERNAL 1
#include "internal.h"
#include "trace_format.h"

#include <errno.h>
#include <pthread.h>
#include <stdint.h>

#if !defined(_WIN32)
# include "trace_impl.h"
#else
# define NOINST
#endif

/* Named locks the table holds; PROF_LOCK_NAME past that is said once and
   those locks stay "lock". */
enum { LOCK_NAME_BITS = 9, LOCK_NAMES = 1 << LOCK_NAME_BITS };

static struct { const void * lock; const char * name; } names[LOCK_NAMES];
static const char unnamed[] = "lock";
static const char null_name[] = "(null)";

static NOINST size_t first_slot(const void * lock)
{
    uint64_t k = (uint64_t) (uintptr_t) lock * UINT64_C(0x9E3779B97F4A7C15);
    return (size_t) (k >> (64 - LOCK_NAME_BITS));
}

/* The name of lock: PROF_LOCK_NAME's, or "lock". */
static NOINST const char * lock_name(const void * lock)
{
    size_t i = first_slot(lock), n;
    for (n = 0; n < LOCK_NAMES; n++, i = (i + 1) & (LOCK_NAMES - 1))
    {
        const void * l = __atomic_load_n(&names[i].lock, __ATOMIC_ACQUIRE);
        if (l == lock)
        {
            const char * s = __atomic_load_n(&names[i].name, __ATOMIC_ACQUIRE);
            return s != NULL ? s : unnamed;
        }
        if (l == NULL)
            break;
    }
    return unnamed;
}

NOINST void prof_impl_trace_lock_name(const void * lock, const char * name)
{
    static int warned;
    size_t i = first_slot(lock), n;
    if (lock == NULL)
        return;
    for (n = 0; n < LOCK_NAMES; n++, i = (i + 1) & (LOCK_NAMES - 1))
    {
        const void * l = NULL;
        if (__atomic_compare_exchange_n(&names[i].lock, &l, lock, 0,
                                        __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)
            || l == lock)
        {
            __atomic_store_n(&names[i].name, name != NULL ? name : null_name,
                             __ATOMIC_RELEASE);
            return;
        }
    }
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
        prof_impl_warn("trace: more than %d locks named (PROF_LOCK_NAME): the "
                       "later ones are shown as \"%s\" and their address",
                       LOCK_NAMES, unnamed);
}

/* One lock record of kind for lock. */
static NOINST void lock_record(unsigned kind, const void * lock)
{
    prof_impl_trace_ext_rec(kind, lock_name(lock), 1,
                            (unsigned long long) (uintptr_t) lock, 0);
}

NOINST void prof_impl_trace_lock_wait(const void * lock)
{
    lock_record(PROF_TF_EXT_LOCK_WAIT, lock);
}

NOINST void prof_impl_trace_lock_acquired(const void * lock)
{
    lock_record(PROF_TF_EXT_LOCK_ACQUIRED, lock);
}

NOINST void prof_impl_trace_lock_released(const void * lock)
{
    lock_record(PROF_TF_EXT_LOCK_RELEASED, lock);
}

#if !defined(_WIN32) /* Windows: pthread's own (profiler.h), no libpthread */
/* A lock taken at once costs one record; a wait is recorded only when
   trylock finds the mutex held (the wait's start, then its end when
   pthread_mutex_lock returns). A failed lock records no acquisition. */
NOINST int prof_impl_mutex_lock(void * m)
{
    pthread_mutex_t * mutex = (pthread_mutex_t *) m;
    int rc = pthread_mutex_trylock(mutex);
    if (rc == EBUSY)
    {
        lock_record(PROF_TF_EXT_LOCK_WAIT, m);
        rc = pthread_mutex_lock(mutex);
    }
    if (rc == 0)
        lock_record(PROF_TF_EXT_LOCK_ACQUIRED, m);
    return rc;
}

/* The release is recorded before the unlock: after it, another thread's
   acquisition could be stamped before this release. */
NOINST int prof_impl_mutex_unlock(void * m)
{
    lock_record(PROF_TF_EXT_LOCK_RELEASED, m);
    return pthread_mutex_unlock((pthread_mutex_t *) m);
}
#endif

/* ---- allocations ------------------------------------------------------------ */

NOINST void prof_impl_trace_alloc(const void * p, size_t size)
{
    if (p != NULL)
        prof_impl_trace_ext_rec(PROF_TF_EXT_ALLOC, NULL, 2,
                                (unsigned long long) (uintptr_t) p, size);
}

NOINST void prof_impl_trace_free(const void * p)
{
    if (p != NULL)
        prof_impl_trace_ext_rec(PROF_TF_EXT_FREE, NULL, 1,
                                (unsigned long long) (uintptr_t) p, 0);
}

#if !defined(_WIN32)
/* The allocation archive's hook: the recorder's own allocations (its
   set-up, buffers, label tables, the writer thread, its fork handlers, all
   under its slow path or its lock) are not the program's: not recorded. */
NOINST int prof_impl_trace_alloc_hook_ok(void)
{
    return !ME.in_slow_path && !ME.holds_lock;
}
#endif
