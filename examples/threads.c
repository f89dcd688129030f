/* Multi-threaded benchmarks: the same target on 1 and 2 threads at once,
   each thread the same iterations per epoch. The times are per operation
   over all threads (Google Benchmark's real_time): work that scales takes
   half as long per operation on 2 free cores; work that contends for one
   cache line (an atomic counter) does not. --wide adds the time one
   thread takes per operation.

       ./build/examples/threads [benchmark options, e.g. --wide] */
#include "profiler.h"

/* 100 dependent multiply-adds: each thread on its own. */
static void private_work(void * arg, ulong count)
{
    unsigned long long x = (unsigned long long) (size_t) arg;
    ulong i;
    int k;
    for (i = 0; i < count; i++)
    {
        for (k = 0; k < 100; k++)
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        PROF_DO_NOT_OPTIMIZE(x);
    }
}

/* One atomic increment of a counter all threads share. */
static unsigned long shared;

static void shared_counter(void * arg, ulong count)
{
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
        __atomic_fetch_add(&shared, 1, __ATOMIC_RELAXED);
}

int main(int argc, char ** argv)
{
    prof_bench * b = prof_bench_new();
    int rc;
    if (b == NULL || prof_bench_args(b, argc, argv) != 0)
    {
        prof_bench_free(b);   /* NULL is allowed */
        return 2;
    }
    prof_bench_run(b, "private work", private_work, (void *) 7);
    prof_bench_run_threads(b, "private work", private_work, (void *) 7, 2);
    prof_bench_run(b, "shared counter", shared_counter, NULL);
    prof_bench_set_threads(b, 2);      /* for the benchmarks after this */
    prof_bench_run(b, "shared counter", shared_counter, NULL);
    rc = prof_bench_finish(b);
    prof_bench_free(b);
    return rc == 0 ? 0 : 1;
}
