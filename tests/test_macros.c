/* TIMEIT_* macros: FLINT 2 and FLINT 3 spellings, exact repetition counts,
   termination for bodies that take no processor time. */
#include "check.h"
#include "profiler.h"

#include <math.h>

#define LINE_RE "^cpu/wall\\(s\\): [-+.e0-9]+ [-+.e0-9]+\n$"

int main(void)
{
    capture_t cap;
    const char * out;
    long runs;
    double tcpu = -1, twall = -1;

    /* FLINT 3 spelling: semicolons after the macros. */
    runs = 0;
    capture_begin(&cap, 1);
    TIMEIT_START
        runs++;
        spin_cpu_ms(0.5);
    TIMEIT_STOP;
    out = capture_end(&cap);
    CHECK(check_matches(out, LINE_RE), "printed [%s]", out);
    CHECK(runs == 1 || runs == 11 || runs == 111 || runs == 1111,
          "body ran %ld times, not 1 + 10 + ... + reps", runs);

    /* FLINT 2 spelling: no semicolon. */
    capture_begin(&cap, 1);
    TIMEIT_START
        spin_cpu_ms(20);
    TIMEIT_STOP
    out = capture_end(&cap);
    CHECK(check_matches(out, LINE_RE), "printed [%s]", out);

    /* TIMEIT_STOP_VALUES: seconds per repetition. */
    TIMEIT_START
        spin_cpu_ms(30);
    TIMEIT_STOP_VALUES(tcpu, twall)
    CHECK(tcpu >= 0.025 && tcpu <= 0.5, "tcpu %g s", tcpu);
    CHECK(twall >= 0.025 && twall <= 5, "twall %g s", twall);

    /* TIMEIT_ONCE_*: exactly once. */
    runs = 0;
    capture_begin(&cap, 1);
    TIMEIT_ONCE_START
        runs++;
    TIMEIT_ONCE_STOP
    TIMEIT_ONCE_START
        runs++;
    TIMEIT_ONCE_STOP;
    out = capture_end(&cap);
    CHECK(runs == 2, "ONCE ran %ld times", runs);
    CHECK(check_matches(out, "^(cpu/wall\\(s\\): [-+.e0-9]+ [-+.e0-9]+\n){2}$"), "printed [%s]", out);

    /* TIMEIT_REPEAT with the caller's variables; the last round takes at
       least 100 ms of processor time. */
    {
        timeit_t timer;
        slong reps;
        runs = 0;
        TIMEIT_REPEAT(timer, reps)
            runs++;
            spin_cpu_ms(3);
        TIMEIT_END_REPEAT(timer, reps)
        CHECK(timer->cpu >= 100, "last round %ld ms", (long) timer->cpu);
        CHECK(reps == 10 || reps == 100, "reps %ld", (long) reps);
        CHECK(runs == (reps == 10 ? 11 : 111), "runs %ld, reps %ld", runs, (long) reps);
    }

    /* An empty body: rounds take no time; the loop still ends. */
    {
        timeit_t timer;
        slong reps;
        TIMEIT_REPEAT(timer, reps)
        TIMEIT_END_REPEAT(timer, reps);
        slong p = 1;
        while (p < reps && p <= PROF_TIMEIT_MAX_REPS)
            p *= 10;
        CHECK(reps >= 1 && p == reps, "reps %ld: overflowed?", (long) reps);
    }

    /* A body that sleeps: no processor time, yet the loop ends once a round
       takes a second of wall time (FLINT's never ends). */
    {
        timeit_t timer;
        slong reps;
        double t0 = mono_ns();
        TIMEIT_REPEAT(timer, reps)
            sleep_ms(150);
        TIMEIT_END_REPEAT(timer, reps)
        CHECK(reps == 10, "reps %ld", (long) reps);
        CHECK(timer->wall >= 1000, "wall %ld", (long) timer->wall);
        CHECK(mono_ns() - t0 < 30e9, "took %g s", (mono_ns() - t0) * 1e-9);
    }
    return check_report("test_macros");
}
