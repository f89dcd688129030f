/* A FLINT-style profile program (as in FLINT's src/<module>/profile/p-*.c)
   that includes FLINT's headers before profiler.h: slong and ulong come from
   FLINT, the prof_repeat target calls prof_start/prof_stop around each run,
   and the result is printed in "cycles" with min/FLINT_CLOCK_SCALE_FACTOR. */
#include <stdlib.h>
#include "flint.h"
#include "fmpz.h"
#include "profiler.h"

typedef struct { slong bits; } info_t;

static void sample(void * arg, ulong count)
{
    info_t * info = (info_t *) arg;
    flint_rand_t state;
    fmpz_t a, b, c;
    ulong i;

    flint_randinit(state);
    fmpz_init(a); fmpz_init(b); fmpz_init(c);
    fmpz_randbits(a, state, info->bits);
    fmpz_randbits(b, state, info->bits);
    for (i = 0; i < count; i++)
    {
        prof_start();
        fmpz_mul(c, a, b);
        prof_stop();
    }
    fmpz_clear(a); fmpz_clear(b); fmpz_clear(c);
    flint_randclear(state);
}

int main(void)
{
    info_t info;
    double min, max;
    slong bits;
    int bad = 0;

    for (bits = 64; bits <= 4096; bits *= 4)
    {
        info.bits = bits;
        prof_repeat(&min, &max, sample, (void *) &info);
        flint_printf("bits = %wd: min %.3g us, max %.3g us, %.0f cycles\n",
                     bits, min, max, min / FLINT_CLOCK_SCALE_FACTOR);
        if (!(min > 0 && min <= max && max < 1e5))
            bad = 1;
    }
    return bad;
}
