/*
    The counter behind the clocks: clock storage, tick-rate calibration,
    the cost of reading the counter, and the time sources used elsewhere.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <math.h>
#include <stdlib.h>

#if defined(_WIN32)
# include <windows.h>
#else
# include <time.h>
# include <sys/resource.h>
#endif

/* one set per thread (profiler.h: PROF_IMPL_TLS) */
PROF_IMPL_TLS double clock_last[FLINT_NUM_CLOCKS];
PROF_IMPL_TLS double clock_accum[FLINT_NUM_CLOCKS];
PROF_IMPL_TLS double prof_impl_longest_pair;

double (*prof_impl_fake_read)(void);
double prof_impl_fake_rate;

void prof_impl_set_fake_clock(double (*read)(void), double ticks_per_second)
{
    prof_impl_fake_read = read;
    prof_impl_fake_rate = ticks_per_second;
}

long (*prof_impl_fake_switches)(void);
long (*prof_impl_fake_waits)(void);

long prof_impl_switch_counts(long * waits)
{
    *waits = 0;
    if (prof_impl_fake_read != NULL)
    {
        *waits = prof_impl_fake_waits ? prof_impl_fake_waits() : 0;
        return prof_impl_fake_switches ? prof_impl_fake_switches() : 0;
    }
#if defined(RUSAGE_THREAD) || defined(RUSAGE_SELF)
    {
        struct rusage ru;
# if defined(RUSAGE_THREAD)
        if (getrusage(RUSAGE_THREAD, &ru) == 0)
# else
        if (getrusage(RUSAGE_SELF, &ru) == 0)
# endif
        {
            *waits = ru.ru_nvcsw;
            return ru.ru_nivcsw;
        }
    }
#endif
    return 0;
}

long prof_impl_switches(void)
{
    long waits;
    return prof_impl_switch_counts(&waits);
}

double (*prof_impl_fake_cpu_ns)(void);

void prof_impl_sched_read(prof_impl_sched * s)
{
    s->switches = prof_impl_switches();
    if (prof_impl_fake_read != NULL)
        s->cpu_ns = prof_impl_fake_cpu_ns ? prof_impl_fake_cpu_ns()
                  : prof_impl_fake_read() * (1e9 / prof_impl_fake_rate);
    else
        s->cpu_ns = prof_impl_thread_cpu_ns();
}

double prof_impl_read_rate(void)
{
    return prof_impl_fake_read ? prof_impl_fake_rate : prof_tick_rate();
}

double prof_impl_ns_per_tick(void)
{
    return 1e9 / prof_impl_read_rate();
}

double prof_impl_bad_clock(int n, const char * func)
{
    prof_impl_warn("%s(%d): clock number out of range 0..%d; ignored",
                   func, n, FLINT_NUM_CLOCKS - 1);
    return NAN;
}

#if defined(_WIN32)
double prof_impl_now_ns(void)
{
    static LARGE_INTEGER freq;
    LARGE_INTEGER now;
    if (freq.QuadPart == 0)
        QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&now);
    return (double) now.QuadPart * (1e9 / (double) freq.QuadPart);
}

double prof_impl_cpu_ns(void)
{
    return (double) clock() * (1e9 / CLOCKS_PER_SEC);
}

double prof_impl_thread_cpu_ns(void)
{
    return prof_impl_cpu_ns();
}
#else
static double timespec_ns(clockid_t id)
{
    struct timespec ts;
    if (clock_gettime(id, &ts) != 0)
        return NAN;
    return (double) ts.tv_sec * 1e9 + (double) ts.tv_nsec;
}

double prof_impl_now_ns(void)
{
    return timespec_ns(CLOCK_MONOTONIC);
}

double prof_impl_cpu_ns(void)
{
# if defined(CLOCK_PROCESS_CPUTIME_ID)
    double ns = timespec_ns(CLOCK_PROCESS_CPUTIME_ID);
    if (ns == ns)
        return ns;
# endif
    return (double) clock() * (1e9 / CLOCKS_PER_SEC);
}

double prof_impl_thread_cpu_ns(void)
{
# if defined(CLOCK_THREAD_CPUTIME_ID)
    double ns = timespec_ns(CLOCK_THREAD_CPUTIME_ID);
    if (ns == ns)
        return ns;
# endif
    return prof_impl_cpu_ns();
}
#endif

/* ---- tick rate ---------------------------------------------------------- */

/* The fit of the counter against the kernel's clock, pure functions of
   their readings (the tests give them numbers). Each bracket i is a
   counter read a[i], the clock ns[i], a counter read b[i]: the tightest
   bracket (least b - a) puts the clock's reading at the middle of its two
   counter reads. */
void prof_impl_tick_sync(const double * a, const double * ns,
        const double * b, int n, double * ticks, double * at_ns)
{
    double best_width = INFINITY;
    int i;
    *ticks = *at_ns = NAN;
    for (i = 0; i < n; i++)
    {
        if (b[i] - a[i] < best_width)
        {
            best_width = b[i] - a[i];
            *ticks = a[i] + (b[i] - a[i]) / 2;
            *at_ns = ns[i];
        }
    }
}

double prof_impl_tick_rate_fit(double ticks0, double ns0, double ticks1,
        double ns1)
{
    double rate = (ticks1 - ticks0) * 1e9 / (ns1 - ns0);
    if (!(rate > 1e6 && rate < 1e11))
    {
        prof_impl_warn("tick rate measured as %g ticks/s, which is not "
                       "plausible; using 1e9", rate);
        rate = 1e9;
    }
    return rate;
}

#if defined(FLINT_HAVE_get_cycle_counter) && !defined(__aarch64__) \
    && !defined(_WIN32)
/* x86-64: no architectural way to read the TSC rate on every CPU, so measure
   it against the kernel's clock. Each end point is a clock_gettime call
   bracketed by two counter reads; the tightest of a few brackets is kept, so
   the error at each end is a few tens of ns against a 1 ms span (~50 ppm,
   far under any epoch's spread: 5 ms gave ~10 ppm at 5x the cost, paid
   by every benchmark process). */
#define TICK_RATE_SPAN_NS 1e6
typedef struct { double ticks, ns; } sync_point;

static double raw_ns(void)
{
# if defined(CLOCK_MONOTONIC_RAW)
    return timespec_ns(CLOCK_MONOTONIC_RAW);
# else
    return timespec_ns(CLOCK_MONOTONIC);
# endif
}

#define SYNC_READS 7

static sync_point sync_now(void)
{
    double a[SYNC_READS], ns[SYNC_READS], b[SYNC_READS];
    sync_point p;
    int i;
    for (i = 0; i < SYNC_READS; i++)
    {
        a[i] = get_cycle_counter();
        ns[i] = raw_ns();
        b[i] = get_cycle_counter();
    }
    prof_impl_tick_sync(a, ns, b, SYNC_READS, &p.ticks, &p.ns);
    return p;
}

static double measure_tick_rate(void)
{
    const double span_ns = TICK_RATE_SPAN_NS;
    sync_point s0 = sync_now(), s1;

    while (raw_ns() - s0.ns < span_ns)
        ;
    s1 = sync_now();
    return prof_impl_tick_rate_fit(s0.ticks, s0.ns, s1.ticks, s1.ns);
}
#elif defined(FLINT_HAVE_get_cycle_counter) && defined(__aarch64__) \
    && defined(__GNUC__)
static double measure_tick_rate(void)
{
    unsigned long long f;
    __asm__ __volatile__ ("mrs %0, cntfrq_el0" : "=r" (f));
    if (f == 0)
    {
        prof_impl_warn("cntfrq_el0 reads 0; assuming 1e9 ticks/s");
        return 1e9;
    }
    return (double) f;
}
#elif defined(FLINT_HAVE_get_cycle_counter) && defined(_WIN32)
static double measure_tick_rate(void)
{
    /* Windows: measure against QueryPerformanceCounter over 1 ms. */
    double t0 = get_cycle_counter(), n0 = prof_impl_now_ns(), n1;
    while ((n1 = prof_impl_now_ns()) - n0 < 1e6)
        ;
    return (get_cycle_counter() - t0) * 1e9 / (n1 - n0);
}
#else
static double measure_tick_rate(void)
{
    return 1e9; /* get_cycle_counter counts nanoseconds */
}
#endif

static double tick_rate;
static int tick_rate_state; /* 0: not measured, 1: measuring, 2: ready */

double prof_tick_rate(void)
{
#if defined(__GNUC__)
    int expected = 0;
    if (__atomic_load_n(&tick_rate_state, __ATOMIC_ACQUIRE) == 2)
        return tick_rate;
    if (__atomic_compare_exchange_n(&tick_rate_state, &expected, 1, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
        tick_rate = measure_tick_rate();
        __atomic_store_n(&tick_rate_state, 2, __ATOMIC_RELEASE);
    }
    else
        while (__atomic_load_n(&tick_rate_state, __ATOMIC_ACQUIRE) != 2)
            ;
    return tick_rate;
#else
    if (tick_rate_state != 2)
    {
        tick_rate = measure_tick_rate();
        tick_rate_state = 2;
    }
    return tick_rate;
#endif
}

/* ---- overhead ----------------------------------------------------------- */

/* Median of back-to-back differences of read() over pairs pairs, after
   warmup reads (the first pay for cold caches and, on some systems, a
   trap). Inlined with the read it is given, so that nothing but the two
   reads lies between them. */
#if defined(__GNUC__)
__attribute__((always_inline))
#endif
static inline double read_pairs_median(double (*read)(void), int warmup,
        double * d, int pairs)
{
    int i;
    for (i = 0; i < warmup; i++)
        (void) read();
    for (i = 0; i < pairs; i++)
    {
        double a = read();
        double b = read();
        d[i] = b - a;
    }
    return prof_impl_median(d, pairs);
}

double prof_tick_overhead(void)
{
    double d[1001];
    return read_pairs_median(get_cycle_counter, 100, d, 1001);
}

double prof_impl_read_overhead(void)
{
    double d[101];
    return read_pairs_median(prof_impl_read, 20, d, 101);
}
