/*
    timeit timers: processor time and monotonic wall time in milliseconds
    (or wall microseconds), and their FLINT-format printout.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <math.h>

/* Floor of a non-negative clock reading in the given unit, as FLINT
   truncates each gettimeofday/clock reading. */
static slong whole(double ns, double ns_per_unit)
{
    return (slong) floor(ns / ns_per_unit);
}

static int null_timer(const void * t, const char * func)
{
    if (t != NULL)
        return 0;
    prof_impl_warn("%s: timer is NULL; ignored", func);
    return 1;
}

void timeit_start(timeit_t t)
{
    if (null_timer(t, "timeit_start"))
        return;
    t->cpu = -whole(prof_impl_cpu_ns(), 1e6);
    t->wall = -whole(prof_impl_now_ns(), 1e6);
}

void timeit_stop(timeit_t t)
{
    if (null_timer(t, "timeit_stop"))
        return;
    t->wall += whole(prof_impl_now_ns(), 1e6);
    t->cpu += whole(prof_impl_cpu_ns(), 1e6);
}

slong timeit_query_wall(timeit_t t)
{
    if (null_timer(t, "timeit_query_wall"))
        return 0;
    return t->wall + whole(prof_impl_now_ns(), 1e6);
}

void timeit_start_us(timeit_t t)
{
    if (null_timer(t, "timeit_start_us"))
        return;
    t->wall = -whole(prof_impl_now_ns(), 1e3);
}

void timeit_stop_us(timeit_t t)
{
    if (null_timer(t, "timeit_stop_us"))
        return;
    t->wall += whole(prof_impl_now_ns(), 1e3);
}

void timeit_print(timeit_t t, ulong reps)
{
    if (null_timer(t, "timeit_print"))
        return;
    if (reps == 0)
    {
        prof_impl_warn("timeit_print: reps is 0; printing the total time");
        reps = 1;
    }
    printf("cpu/wall(s): %g %g\n", t->cpu * 0.001 / reps,
           t->wall * 0.001 / reps);
}

#if defined(_WIN32) && !defined(__CYGWIN__) && !defined(_MSC_VER)
# include <windows.h>
# include <sys/time.h>

int gettimeofday(struct timeval * p, void * tz)
{
    /* FILETIME: 100 ns units since 1601-01-01; the epoch is 11644473600 s
       later. */
    FILETIME ft;
    unsigned long long t;
    (void) tz;
    GetSystemTimeAsFileTime(&ft);
    t = ((unsigned long long) ft.dwHighDateTime << 32) | ft.dwLowDateTime;
    t -= 116444736000000000ULL;
    p->tv_sec = (long) (t / 10000000ULL);
    p->tv_usec = (long) ((t / 10ULL) % 1000000ULL);
    return 0;
}
#endif
