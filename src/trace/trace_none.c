/*
    The recorder where there is none: Windows, which lacks the POSIX signals,
    threads and write(2) that trace.c is built on. The API and the markers
    still compile and link; nothing is recorded, every event counts as lost,
    and the first use says so once.
    SPDX-License-Identifier: MIT
*/
#if defined(_WIN32)

#define PROF_IMPL_TRACE_INTERNAL 1
#include "internal.h"

#if defined(__GNUC__)
/* pos == end: every event goes to prof_impl_trace_slow; the fast path's
   cache lookup reads this */
static const prof_impl_trace_slot empty_cache[PROF_IMPL_TRACE_SLOTS];
static prof_impl_trace_place closed;
__thread prof_impl_trace_fast prof_impl_trace_tls = { &closed, empty_cache };
#endif

static unsigned long long lost;
static int warned;

static void unavailable(void)
{
    if (!warned)
        prof_impl_warn("tracing is not available on this system (it needs "
                       "POSIX signals and threads): nothing is recorded");
    warned = 1;
}

void prof_impl_trace_slow(unsigned type, const void * key, unsigned long long ticks)
{
    (void) type;
    (void) key;
    (void) ticks;
    unavailable();
    lost++;
}

void prof_impl_trace_ext(unsigned kind, const char * name,
                         const unsigned long long * w, size_t n,
                         const char * s, size_t len)
{
    (void) kind;
    (void) name;
    (void) w;
    (void) n;
    (void) s;
    (void) len;
    unavailable();
    lost++;
}

int prof_trace_open(const char * path)
{
    (void) path;
    unavailable();
    return -1;
}

int prof_trace_flush(void)
{
    return lost ? -1 : 0;
}

void prof_trace_thread_name(const char * name)
{
    (void) name;
}

unsigned long long prof_trace_lost(void)
{
    return lost;
}

#else
typedef int prof_impl_trace_windows_only; /* ISO C: no empty translation unit */
#endif
