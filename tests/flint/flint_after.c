/* profiler.h included before FLINT's headers (many FLINT programs do so):
   FLINT's slong/ulong macros take over after it. Also TIMEIT_STOP_VALUES,
   a target timed around its loop, get_clock(0) accumulation, a timer array
   printed with %wd, and a target that never calls prof_start (FLINT's own
   prof_repeat never returns for it: this one ending shows ours is linked). */
#include "profiler.h"
#include <stdlib.h>
#include "flint.h"
#include "fmpz.h"
#include "fmpz_poly.h"

static void sample_poly(void * arg, ulong count)
{
    slong len = *(slong *) arg;
    fmpz_poly_t a, b, c;
    ulong i;
    fmpz_poly_init(a); fmpz_poly_init(b); fmpz_poly_init(c);
    for (i = 0; i < (ulong) len; i++)
    {
        fmpz_poly_set_coeff_ui(a, i, i + 1);
        fmpz_poly_set_coeff_ui(b, i, 3 * i + 1);
    }
    prof_start();
    for (i = 0; i < count; i++)
        fmpz_poly_mul(c, a, b);
    prof_stop();
    fmpz_poly_clear(a); fmpz_poly_clear(b); fmpz_poly_clear(c);
}

static void untimed(void * arg, ulong count)
{
    fmpz_t x;
    ulong i;
    (void) arg;
    fmpz_init_set_ui(x, 7);
    for (i = 0; i < count; i++)
        fmpz_mul_ui(x, x, 3), fmpz_fdiv_q_ui(x, x, 2);
    fmpz_clear(x);
}

int main(void)
{
    slong len = 100;
    double min, max, tcpu, twall, t = 0.0;
    timeit_t timers[2];
    fmpz_t a, b;
    int i, bad = 0;

    prof_repeat(&min, &max, sample_poly, &len);
    flint_printf("fmpz_poly_mul len %wd: %.3g us (%.0f cycles)\n", len, min,
                 min / FLINT_CLOCK_SCALE_FACTOR);
    bad |= !(min > 0 && min <= max);

    fmpz_init(a);
    fmpz_init_set_ui(b, 12345);
    fmpz_pow_ui(b, b, 50);
    TIMEIT_START
        fmpz_mul(a, b, b);
    TIMEIT_STOP_VALUES(tcpu, twall)
    flint_printf("TIMEIT_STOP_VALUES: cpu %g s, wall %g s\n", tcpu, twall);
    bad |= !(tcpu >= 0 && twall > 0);

    for (i = 0; i < 3; i++)
    {
        init_clock(0);
        prof_start();
        fmpz_mul(a, b, b);
        prof_stop();
        t += get_clock(0);
    }
    flint_printf("get_clock(0) total: %g us\n", t);
    bad |= !(t > 0);
    fmpz_clear(a);
    fmpz_clear(b);

    for (i = 0; i < 2; i++)
    {
        timeit_start(timers[i]);
        untimed(NULL, 100000);
        timeit_stop(timers[i]);
        flint_printf("timer %d: cpu %wd ms, wall %wd ms\n", i, timers[i]->cpu, timers[i]->wall);
    }

    prof_repeat(&min, &max, untimed, NULL);
    flint_printf("untimed target: %.3g us\n", min);
    bad |= !(min > 0);

    print_memory_usage();
    return bad;
}
