/* p-threads: multi-threaded benchmarks and a size sweep.
   - Three kernels on 1 and 2 threads (prof_bench_run_threads): a
     dependent chain of 1000 multiply-adds (compute: 2 threads should do
     twice the operations per second on 2 free cores), a sum over 2 KiB
     (in the core's cache: the same), and a sum over 32 MiB per thread
     (memory-bound: the two threads share the memory bandwidth, so the
     speed-up stays well under 2). Each thread reads its own array. ROUNDS
     rounds alternate the order; printed are the medians of the time per
     operation over all threads (Google Benchmark's real_time), the
     speed-up in operations per second (time on 1 / time on 2), and the
     processor time per operation.
   - One call of prof_bench_run_range sweeping the sum over 1 KiB..32 MiB
     (x8) on one thread: the rows and the complexity the runner prints.
   Usage: p-threads [rounds] (default 5). */
#include "profiler.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG (1UL << 22)         /* 32 MiB of uint64_t per thread */
#define SMALL 256UL             /* 2 KiB */

static unsigned long long * arrays[2];
static pthread_t runner;

/* This thread's array: the runner's thread reads arrays[0], the other
   one arrays[1]. */
static const unsigned long long * mine(void)
{
    return arrays[pthread_equal(pthread_self(), runner) ? 0 : 1];
}

static unsigned long long sum_of(const unsigned long long * a, ulong n)
{
    unsigned long long s = 0;
    ulong k;
    for (k = 0; k < n; k++)
        s += a[k];
    return s;
}

static void sum_big(void * arg, ulong count)
{
    const unsigned long long * a = mine();
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
    {
        unsigned long long s = sum_of(a, BIG);
        PROF_DO_NOT_OPTIMIZE(s);
    }
}

static void sum_small(void * arg, ulong count)
{
    const unsigned long long * a = mine();
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
    {
        unsigned long long s = sum_of(a, SMALL);
        PROF_DO_NOT_OPTIMIZE(s);
    }
}

static void chain(void * arg, ulong count)
{
    unsigned long long x = (unsigned long long) (size_t) arg;
    ulong i;
    int k;
    for (i = 0; i < count; i++)
    {
        for (k = 0; k < 1000; k++)
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        PROF_DO_NOT_OPTIMIZE(x);
    }
}

/* The sweep's target: a sum over the first N numbers of this thread's
   array. */
static void sum_n(void * arg, ulong count)
{
    const unsigned long long * a = mine();
    ulong n = *(const ulong *) arg, i;
    for (i = 0; i < count; i++)
    {
        unsigned long long s = sum_of(a, n);
        PROF_DO_NOT_OPTIMIZE(s);
    }
}

static int cmp(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median(double * d, int n)
{
    qsort(d, (size_t) n, sizeof d[0], cmp);
    return n % 2 ? d[n / 2] : 0.5 * (d[n / 2 - 1] + d[n / 2]);
}

int main(int argc, char ** argv)
{
    enum { MAXR = 51, K = 3 };
    static const char * names[K] = { "chain 1000", "sum 2 KiB",
                                      "sum 32 MiB" };
    profile_target_t targets[K] = { chain, sum_small, sum_big };
    double t[K][2][MAXR], cpu[K][2][MAXR];
    int rounds = argc > 1 ? atoi(argv[1]) : 5, i, k, j;
    prof_bench * b;
    ulong n;
    if (rounds < 1 || rounds > MAXR)
        rounds = 5;
    runner = pthread_self();
    for (j = 0; j < 2; j++)
    {
        arrays[j] = (unsigned long long *) malloc(BIG * sizeof **arrays);
        if (arrays[j] == NULL)
            return 1;
        for (n = 0; n < BIG; n++)
            arrays[j][n] = n ^ (ulong) j;
    }
    for (i = 0; i < rounds; i++)
    {
        b = prof_bench_new();
        prof_bench_set_format(b, PROF_FORMAT_NONE);
        for (k = 0; k < K; k++)
            for (j = 0; j < 2; j++)
            {
                int threads = (i + j) % 2 + 1;  /* alternate the order */
                const prof_result * r = prof_bench_run_threads(b, names[k],
                        targets[k], (void *) 7, threads);
                t[k][threads - 1][i] = r ? r->median_ns : -1.0;
                cpu[k][threads - 1][i] = r ? r->cpu_ns : -1.0;
            }
        prof_bench_free(b);
    }
    printf("1 and 2 threads (each thread the same iterations), medians over "
           "%d rounds:\ntime per operation over all threads, speed-up in "
           "operations per second, processor time per operation\n\n"
           "| kernel     | 1 thread ns/op | 2 threads ns/op | speed-up | "
           "cpu ns/op 1 | cpu ns/op 2 |\n"
           "|:-----------|---------------:|----------------:|---------:|"
           "------------:|------------:|\n", rounds);
    for (k = 0; k < K; k++)
    {
        double t1 = median(t[k][0], rounds), t2 = median(t[k][1], rounds);
        printf("| %-10s | %14.1f | %15.1f | %8.2f | %11.1f | %11.1f |\n",
               names[k], t1, t2, t1 / t2, median(cpu[k][0], rounds),
               median(cpu[k][1], rounds));
    }
    printf("\na size sweep in one call: prof_bench_run_range(b, \"sum\", "
           "sum_n, 128, 1 << 22, 8)\n\n");
    fflush(stdout);
    b = prof_bench_new();
    prof_bench_set_terminal(b, PROF_TERMINAL_NEVER);
    prof_bench_run_range(b, "sum", sum_n, 128, 1UL << 22, 8);
    prof_bench_free(b);
    free(arrays[0]);
    free(arrays[1]);
    return 0;
}
