/* p-gate: the benchmark program behind p-compare-gate.sh. Two kernels: the
   dependent multiply-add chain of --n steps (default 1000) and the sum of
   2^10 uint64_t, each named the same whatever --n is, so that a file made
   with --n=1050 reads to prof-compare as a 5% slower "chain". The runner's
   options (--format, --out, --filter) go to prof_bench_args. */
#include <stdlib.h>
#include <string.h>
#include "profiler.h"
#include "kernels.h"

int main(int argc, char ** argv)
{
    kernel_t chain = { "chain", 1, 1000 }, sum = { "sum 2^10", 2, 1 << 10 };
    prof_bench * b;
    int i;

    for (i = 1; i < argc; i++)
        if (strncmp(argv[i], "--n=", 4) == 0)
            chain.n = atol(argv[i] + 4);
    if (chain.n <= 0 || kernels_init() != 0 || (b = prof_bench_new()) == NULL)
        return 2;
    if (prof_bench_init(b, &argc, argv) != 0)    /* --n= stays ours */
        return 2;
    prof_bench_run(b, chain.name, kernel_target(&chain), &chain);
    prof_bench_run(b, sum.name, kernel_target(&sum), &sum);
    prof_bench_free(b);
    return 0;
}
