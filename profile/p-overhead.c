/* p-overhead: what reading the time costs. Medians over 10^6 back-to-back
   pairs, in ticks and ns, of: the raw counter instruction, get_cycle_counter,
   the interval a start_clock/stop_clock pair records around nothing (and the
   pair's whole cost), and clock_gettime(CLOCK_MONOTONIC).
   Targets: get_cycle_counter within 1 tick of the raw instruction; the pair
   within 2 ns of two raw reads. */
#include <stdlib.h>
#include <time.h>
#include "profiler.h"

enum { PAIRS = 1000000 };

static double raw(void)
{
#if defined(__GNUC__) && defined(__x86_64__)
    unsigned int lo, hi;
    __asm__ __volatile__ ("rdtsc" : "=a" (lo), "=d" (hi));
    return (double) (long long) (((unsigned long long) hi << 32) | lo);
#elif defined(__GNUC__) && defined(__aarch64__)
    unsigned long long v;
    __asm__ __volatile__ ("mrs %0, cntvct_el0" : "=r" (v));
    return (double) (long long) v;
#else
    return get_cycle_counter();
#endif
}

static double mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int cmp(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median(double * d, int n)
{
    qsort(d, n, sizeof d[0], cmp);
    return d[n / 2];
}

int main(void)
{
    double * d = malloc(PAIRS * sizeof(double));
    double rate = prof_tick_rate(), ns = 1e9 / rate;
    double m_raw, m_gcc, m_pair, m_pair_total, m_gettime;
    int i;

    if (d == NULL)
        return 1;
    for (i = 0; i < 1000; i++)
        (void) raw(), (void) get_cycle_counter(), (void) mono_ns();

    for (i = 0; i < PAIRS; i++)
    {
        double a = raw(), b = raw();
        d[i] = b - a;
    }
    m_raw = median(d, PAIRS);

    for (i = 0; i < PAIRS; i++)
    {
        double a = get_cycle_counter(), b = get_cycle_counter();
        d[i] = b - a;
    }
    m_gcc = median(d, PAIRS);

    for (i = 0; i < PAIRS; i++)
    {
        init_clock(1);
        start_clock(1);
        stop_clock(1);
        d[i] = clock_accum[1];
    }
    m_pair = median(d, PAIRS);

    for (i = 0; i < PAIRS; i++)
    {
        double a = raw(), b;
        start_clock(1);
        stop_clock(1);
        b = raw();
        d[i] = b - a;
    }
    m_pair_total = median(d, PAIRS);

    for (i = 0; i < PAIRS; i++)
    {
        double a = mono_ns(), b = mono_ns();
        d[i] = b - a;
    }
    m_gettime = median(d, PAIRS);

    printf("tick rate %.6g ticks/s; medians of %d back-to-back pairs\n", rate, PAIRS);
    printf("%-44s %8s %8s\n", "what", "ticks", "ns");
    printf("%-44s %8.1f %8.2f\n", "raw counter instruction, two reads", m_raw, m_raw * ns);
    printf("%-44s %8.1f %8.2f\n", "get_cycle_counter, two reads", m_gcc, m_gcc * ns);
    printf("%-44s %8.1f %8.2f\n", "start_clock/stop_clock: interval recorded", m_pair, m_pair * ns);
    printf("%-44s %8.1f %8.2f\n", "start_clock/stop_clock: whole pair (raw-raw)", m_pair_total, m_pair_total * ns);
    printf("%-44s %8.1f %8.2f\n", "clock_gettime(CLOCK_MONOTONIC), two reads", m_gettime / ns, m_gettime);
    printf("get_cycle_counter - raw: %+.1f ticks (target: within 1)\n", m_gcc - m_raw);
    printf("pair interval - two raw reads: %+.2f ns (target: within 2)\n", (m_pair - m_raw) * ns);
    free(d);
    return 0;
}
