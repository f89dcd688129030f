/* bench: the statistical runner on a function target and on inline code,
   printed as a markdown table. Try --format=json or --filter=chain, and
   --counters (or PROFILER_COUNTERS=default) for instructions, cycles, IPC,
   branches, branch-miss %, page faults and context switches per operation;
   --counters=page-faults,task-clock counts only those. */
#include <stdint.h>
#include "profiler.h"

/* The code under test: a dependent chain of n multiply-adds. */
static uint64_t chain(uint64_t x, int n)
{
    int i;
    for (i = 0; i < n; i++)
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    return x;
}

/* A target in prof_repeat's shape: runs the code count times. */
static void chain_target(void * arg, ulong count)
{
    int n = *(int *) arg;
    uint64_t x = 1;
    ulong i;
    for (i = 0; i < count; i++)
    {
        x = chain(x, n);
        PROF_DO_NOT_OPTIMIZE(x);
    }
}

int main(int argc, char ** argv)
{
    prof_bench * b = prof_bench_new();
    int n100 = 100, n1000 = 1000;
    uint64_t x = 1;
    int rc;

    if (b == NULL || prof_bench_args(b, argc, argv) != 0)
    {
        prof_bench_free(b);   /* NULL is allowed */
        return 2;
    }
    prof_bench_run(b, "chain 100", chain_target, &n100);
    prof_bench_run(b, "chain 1000", chain_target, &n1000);

    /* inline code: one decrement and branch per iteration around it */
    PROF_BENCH_LOOP(b, "one multiply-add (inline)")
    {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        PROF_DO_NOT_OPTIMIZE(x);
    }
    rc = prof_bench_finish(b);  /* writes CSV/JSON output if chosen */
    prof_bench_free(b);
    return rc == 0 ? 0 : 1;     /* a lost result file fails the run */
}
