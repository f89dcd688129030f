/* FLINT programs #undef and redefine TIMEIT_END_REPEAT, or write their own
   TIMEIT_* variants with the internal names __timer, __reps, __timeit_k:
   TIMEIT_STOP and TIMEIT_STOP_VALUES must pick the override up by name. */
#include "check.h"
#include "profiler.h"

/* FLINT 2 style override: ends in "while (0);", stops at 100 reps. */
#undef TIMEIT_END_REPEAT
#define TIMEIT_END_REPEAT(__timer, __reps) \
            } \
            timeit_stop(__timer); \
            if (__reps >= 100) \
                break; \
            __reps *= 10; \
        } \
    } while (0);

/* A program's own variant that closes the braces itself. */
#define TIMEIT_STOP_REPS(reps_out) \
        TIMEIT_END_REPEAT(__timer, __reps); \
        (reps_out) = __reps; \
    } while (0);

static long count_runs_flint2(double * tcpu)
{
    long runs = 0;
    double twall;
    TIMEIT_START
        runs++;
    TIMEIT_STOP_VALUES(*tcpu, twall)
    (void) twall;
    return runs;
}

/* FLINT 3 style override: no trailing semicolon, stops at 1000 reps. */
#undef TIMEIT_END_REPEAT
#define TIMEIT_END_REPEAT(__timer, __reps) \
            } \
            timeit_stop(__timer); \
            if (__reps >= 1000) \
                break; \
            __reps *= 10; \
        } \
    } while (0)

int main(void)
{
    capture_t cap;
    const char * out;
    long runs;
    slong reps = 0;
    double tcpu = -1;

    runs = count_runs_flint2(&tcpu);
    CHECK(runs == 111, "override 1: body ran %ld times, expected 1+10+100", runs);
    CHECK(tcpu >= 0, "tcpu %g", tcpu);

    runs = 0;
    capture_begin(&cap, 1);
    TIMEIT_START
        runs++;
    TIMEIT_STOP
    out = capture_end(&cap);
    CHECK(runs == 1111, "override 2: body ran %ld times, expected 1111", runs);
    CHECK(strncmp(out, "cpu/wall(s): ", 13) == 0, "printed [%s]", out);

    runs = 0;
    TIMEIT_START
        runs++;
        __timeit_k += 0; /* the loop index is reachable by that name */
    TIMEIT_STOP_REPS(reps)
    CHECK(reps == 1000 && runs == 1111, "reps %ld runs %ld", (long) reps, runs);
    return check_report("test_macros_override");
}
