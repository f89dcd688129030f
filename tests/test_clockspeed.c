/* A program that defines FLINT_CLOCKSPEED (and DURATION_*) before including
   the header: its values win in get_clock and in prof_repeat. The target
   fakes clock 0, so the expected results are exact. */
#define FLINT_CLOCKSPEED 1e9
#define DURATION_TARGET 2000.0
#define DURATION_THRESHOLD 1000.0
#include "check.h"
#include "profiler.h"

#include <math.h>

/* Each run "takes" 3000 ticks = 3 us at the program's 1e9 ticks/s. */
static void fake_target(void * arg, ulong count)
{
    ulong * calls = (ulong *) arg;
    (*calls)++;
    clock_last[0] = 0.0;
    clock_accum[0] = 3000.0 * (double) count;
}

int main(void)
{
    double mn = -1, mx = -1;
    ulong calls = 0;

    CHECK(FLINT_CLOCK_SCALE_FACTOR == 1e-3, "scale %g", FLINT_CLOCK_SCALE_FACTOR);
    clock_accum[4] = 5000.0;
    CHECK(get_clock(4) == 5.0, "get_clock %g us for 5000 ticks at 1e9/s", get_clock(4));

    prof_repeat(&mn, &mx, fake_target, &calls);
    CHECK(mn == 3.0 && mx == 3.0, "min %g max %g, expected 3 us", mn, mx);
    CHECK(calls >= 5 && calls < 40, "%lu calls", (unsigned long) calls);

    /* Through a function pointer, the library's defaults apply (measured
       rate): still a positive, equal pair for this constant target. */
    {
        void (*f)(double *, double *, profile_target_t, void *) = &prof_repeat;
        mn = mx = -1;
        f(&mn, &mx, fake_target, &calls);
        CHECK(fabs(mn - 3000.0 * 1e6 / prof_tick_rate()) < 1e-9 && mn == mx,
              "min %g max %g via &prof_repeat", mn, mx);
    }
    return check_report("test_clockspeed");
}
