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
   - For reference, what the machine gives now without the runner: two
     plain pthreads each running a chain, against one (the speed-up the
     runner's figures can show; other load on a shared machine lowers it).
   - One call of prof_bench_run_range sweeping the sum over 1 KiB..32 MiB
     (x8) on one thread: the rows and the complexity the runner prints.
   Usage: p-threads [rounds] (default 5). */
#include "internal.h"
#include "kernels.h"

#include <math.h>
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

/* The machine's parallelism now, without the runner: the time of a
   chain of multiply-adds on this thread alone, then on this thread and
   one more at once; the speed-up in work per second (2 x t1 / t2). */
static void * raw_chain(void * arg)
{
    *(uint64_t *) arg = kernel_chain(*(uint64_t *) arg, 20000000);
    return NULL;
}

static double raw_speedup(void)
{
    uint64_t x = 7, y = 9;
    pthread_t th;
    double t0, t1, t2;
    t0 = prof_impl_now_ns();
    raw_chain(&x);
    t1 = prof_impl_now_ns();
    if (pthread_create(&th, NULL, raw_chain, &y) != 0)
        return NAN;
    raw_chain(&x);
    pthread_join(th, NULL);
    t2 = prof_impl_now_ns();
    PROF_DO_NOT_OPTIMIZE(x);
    return 2.0 * (t1 - t0) / (t2 - t1);
}

int main(int argc, char ** argv)
{
    enum { MAXR = 51, K = 3 };
    static const char * names[K] = { "chain 1000", "sum 2 KiB",
                                      "sum 32 MiB" };
    static const ulong sizes[K] = { 0, 256, BIG };     /* 2 KiB, 32 MiB */
    profile_target_t targets[K] = { chain, sum_n, sum_n };
    double t[K][2][MAXR], cpu[K][2][MAXR], raw[MAXR];
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
        raw[i] = raw_speedup();
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
    printf("\nthe machine now, without the runner: 2 threads of a chain of "
           "multiply-adds (pthread_create) do %.2fx the work per second of "
           "1\n", prof_impl_median(raw, rounds));
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
