/* FLINT's profiler.h includes flint.h, and some FLINT 2.9 headers rely on
   that: gmpcompat.h uses FLINT_BITS, flint_malloc and slong without
   including flint.h. A FLINT program that includes profiler.h and then
   such a header must build unchanged against this profiler.h, in both
   spellings: "profiler.h" with FLINT's include/flint on the path, and
   <flint/profiler.h> (compat/flint) with only FLINT's include/ there
   (FLINT_SUBDIR). */
#if defined(FLINT_SUBDIR)
# include <flint/profiler.h>
# include <flint/gmpcompat.h>
#else
# include "profiler.h"
# include "gmpcompat.h"
#endif

static void target(void * arg, ulong count)
{
    mpz_ptr z = (mpz_ptr) arg;
    ulong i;
    prof_start();
    for (i = 0; i < count; i++)
        flint_mpz_add_ui(z, z, 3);
    prof_stop();
}

int main(void)
{
    mpz_t z;
    double min, max;
    int bad;

    mpz_init(z);
    flint_mpz_set_si(z, -5);
    prof_repeat(&min, &max, target, z);
    flint_printf("flint_mpz_add_ui: %.3g us (FLINT_BITS %d)\n", min, FLINT_BITS);
    bad = !(min > 0 && min <= max) || mpz_sgn(z) <= 0;
    mpz_clear(z);
    return bad;
}
