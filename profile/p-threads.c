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
#include "../src/internal.h"
#include "kernels.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG (1UL << 22)         /* 32 MiB of uint64_t per thread */

static uint64_t * arrays[2];
static pthread_t runner;

/* A sum over the first N numbers of this thread's array (the runner's
   thread reads arrays[0], the other one arrays[1]); N comes as arg, a
   const ulong (the sweep's shape). */
static void sum_n(void * arg, ulong count)
{
    const uint64_t * a = arrays[pthread_equal(pthread_self(), runner) ? 0 : 1];
    long n = (long) *(const ulong *) arg;
    ulong i;
    for (i = 0; i < count; i++)
    {
        uint64_t s = kernel_sum(a, n);
        PROF_DO_NOT_OPTIMIZE(s);
    }
}

static void chain(void * arg, ulong count)
{
    uint64_t x = 7;
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
    {
        x = kernel_chain(x, 1000);
        PROF_DO_NOT_OPTIMIZE(x);
    }
}

int main(int argc, char ** argv)
{
    enum { MAXR = 51, K = 3 };
    static const char * names[K] = { "chain 1000", "sum 2 KiB",
                                      "sum 32 MiB" };
    static const ulong sizes[K] = { 0, 256, BIG };     /* 2 KiB, 32 MiB */
    profile_target_t targets[K] = { chain, sum_n, sum_n };
    double t[K][2][MAXR], cpu[K][2][MAXR];
    int rounds = argc > 1 ? atoi(argv[1]) : 5, i, k, j;
    prof_bench * b;
    ulong n;
    if (rounds < 1 || rounds > MAXR)
        rounds = 5;
    runner = pthread_self();
    for (j = 0; j < 2; j++)
    {
        arrays[j] = (uint64_t *) malloc(BIG * sizeof **arrays);
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
                        targets[k], (void *) &sizes[k], threads);
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
        double t1 = prof_impl_median(t[k][0], rounds);
        double t2 = prof_impl_median(t[k][1], rounds);
        printf("| %-10s | %14.1f | %15.1f | %8.2f | %11.1f | %11.1f |\n",
               names[k], t1, t2, t1 / t2, prof_impl_median(cpu[k][0], rounds),
               prof_impl_median(cpu[k][1], rounds));
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
