/* p-repeat: prof_repeat on fixed-cost kernels. Prints min/max per run, the
   ticks per run, what FLINT's fixed 3.1 GHz conversion would have printed,
   and how long each prof_repeat call took. */
#include <stdint.h>
#include <stdlib.h>
#include <time.h>
#include "profiler.h"

static double mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

__attribute__((noinline)) static uint64_t chain(uint64_t x, long n)
{
    long i;
    for (i = 0; i < n; i++)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x;
}

__attribute__((noinline)) static uint64_t sum(const uint64_t * a, long n)
{
    uint64_t s = 0;
    long i;
    for (i = 0; i < n; i++)
        s += a[i];
    return s;
}

static volatile uint64_t sink;
static uint64_t * array;

typedef struct { const char * name; int kind; long n; } kernel_t;

static void target(void * arg, ulong count)
{
    const kernel_t * k = (const kernel_t *) arg;
    ulong i;
    prof_start();
    for (i = 0; i < count; i++)
        sink = k->kind == 0 ? chain(sink, k->n) : sum(array, k->n);
    prof_stop();
}

int main(void)
{
    static const kernel_t kernels[] = {
        { "chain 10", 0, 10 }, { "chain 100", 0, 100 },
        { "chain 1000", 0, 1000 }, { "chain 10000", 0, 10000 },
        { "sum 2^10 uint64", 1, 1 << 10 }, { "sum 2^20 uint64", 1, 1 << 20 } };
    double rate = prof_tick_rate();
    size_t i;

    array = calloc((size_t) 1 << 20, sizeof *array);
    if (array == NULL)
        return 1;
    printf("tick rate %.6g ticks/s\n", rate);
    printf("%-16s %12s %12s %12s %14s %10s\n", "kernel", "min us", "max us",
           "ticks/run", "FLINT 3.1GHz", "call ms");
    for (i = 0; i < sizeof kernels / sizeof kernels[0]; i++)
    {
        double mn, mx, t0 = mono_ns(), took;
        prof_repeat(&mn, &mx, target, (void *) &kernels[i]);
        took = (mono_ns() - t0) * 1e-6;
        printf("%-16s %12.5g %12.5g %12.0f %14.5g %10.1f\n", kernels[i].name,
               mn, mx, mn / FLINT_CLOCK_SCALE_FACTOR, mn * rate / 3.1e9, took);
    }
    free(array);
    return 0;
}
