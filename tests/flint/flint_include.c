/* FLINT example style: <flint/...> includes, FLINT 2.x macro spelling
   (no semicolons), #ifdef FLINT_NUM_CLOCKS as a feature test, NULL min/max. */
#include <flint/flint.h>
#include <flint/profiler.h>
#include <flint/ulong_extras.h>

static void target(void * arg, ulong count)
{
    ulong i, x = 1;
    (void) arg;
    prof_start();
    for (i = 0; i < count; i++)
        x = n_mulmod2_preinv(x, 3, 1000003, n_preinvert_limb(1000003));
    prof_stop();
    if (x == 0)
        flint_printf("impossible\n");
}

int main(void)
{
    ulong r = 0;
    TIMEIT_START
        r += n_gcd(12345678, 87654321);
    TIMEIT_STOP
    TIMEIT_ONCE_START
        r += n_nextprime(1000000, 1);
    TIMEIT_ONCE_STOP
#ifdef FLINT_NUM_CLOCKS
    prof_repeat(NULL, NULL, target, NULL);
    flint_printf("clocks: %d, rate %g ticks/s\n", FLINT_NUM_CLOCKS, FLINT_CLOCKSPEED);
#endif
    return r == 0;
}
