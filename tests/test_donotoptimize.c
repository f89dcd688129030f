/* PROF_DO_NOT_OPTIMIZE and PROF_CLOBBER keep work the optimiser would
   delete: compiled with -O2 (tests/CMakeLists.txt), each body below is dead
   code without the macro, so it would time ~0 ns; with it, the time is that
   of the work. Bounds are 5-15x below the work's real cost here. */
#include "check.h"
#include "profiler.h"

#include <stdint.h>

int main(void)
{
    prof_bench * b = prof_bench_new();
    const prof_result * r;
    static uint64_t word;
    uint64_t * counter = &word;
    prof_bench_set_format(b, PROF_FORMAT_NONE);

    /* 1000 dependent multiply-adds (~1 ns each): result unused but for the
       macro */
    PROF_BENCH_LOOP(b, "chain kept")
    {
        uint64_t x = 12345;
        int i;
        for (i = 0; i < 1000; i++)
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        PROF_DO_NOT_OPTIMIZE(x);
    }
    r = prof_bench_result(b, 0);
    /* > 20 ns: clang may fold pairs of steps (a shorter chain), but a
       deleted chain times 0 */
    CHECK(r && r->median_ns > 20.0 && !(r->flags & PROF_RESULT_RESOLUTION),
          "chain of 1000 took %g ns: deleted?",
          r ? r->median_ns : 0);

    /* a counter in memory: without PROF_CLOBBER the loop of increments
       becomes one addition of the count (~0 ns per iteration); with it each
       iteration loads, adds and stores (~1.5 ns here) */
    PROF_BENCH_LOOP(b, "increments kept")
    {
        *counter += 1;
        PROF_CLOBBER();
    }
    r = prof_bench_result(b, 1);
    CHECK(r && r->median_ns > 0.1 && !(r->flags & PROF_RESULT_RESOLUTION),
          "an increment took %g ns: merged?", r ? r->median_ns : 0);

    /* a value, not an lvalue, works too (gcc and clang) */
    PROF_DO_NOT_OPTIMIZE(1 + 2);
    prof_bench_free(b);
    return check_report("test_donotoptimize");
}
