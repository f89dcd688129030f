/* flint_nmod: a FLINT profile program (as FLINT's own p-*.c are) on
   FLINT's own functions: a vector times a scalar mod n, a vector's sum mod
   n, and a gcd of two integers, each at four sizes: 12 prof_repeat calls,
   one line each. Its targets build their operands once a call, outside
   prof_start/prof_stop, and time the loop. It uses FLINT and profiler.h,
   so the same file builds against this library (ahead of FLINT's headers
   and -lflint) and against FLINT's own profiler: p-repeat-load builds and
   runs both where FLINT is installed. */
#include <stdio.h>
#include <time.h>
#include "flint.h"
#include "fmpz.h"
#include "nmod_vec.h"
#include "profiler.h"

typedef struct { slong len; int reduce; } info_t;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* A vector times a scalar mod a 30-bit prime, or (reduce) a vector of
   full words reduced mod a 20-bit one. */
static void sample_nmod_vec(void * arg, ulong count)
{
    const info_t * info = (const info_t *) arg;
    slong len = info->len;
    flint_rand_t state;
    nmod_t mod;
    mp_ptr a, b;
    ulong i;

    flint_randinit(state);
    nmod_init(&mod, info->reduce ? UWORD(1000003) : UWORD(1000000007));
    a = _nmod_vec_init(len);
    b = _nmod_vec_init(len);
    for (i = 0; i < (ulong) len; i++)
        a[i] = info->reduce ? n_randtest(state) : n_randint(state, mod.n);
    prof_start();
    for (i = 0; i < count; i++)
        if (info->reduce)
            _nmod_vec_reduce(b, a, len, mod);
        else
            _nmod_vec_scalar_mul_nmod(b, a, len, UWORD(123456789), mod);
    prof_stop();
    _nmod_vec_clear(a);
    _nmod_vec_clear(b);
    flint_randclear(state);
}

static void sample_gcd(void * arg, ulong count)
{
    slong bits = ((info_t *) arg)->len;
    flint_rand_t state;
    fmpz_t a, b, g;
    ulong i;

    flint_randinit(state);
    fmpz_init(a);
    fmpz_init(b);
    fmpz_init(g);
    fmpz_randbits(a, state, bits);
    fmpz_randbits(b, state, bits);
    prof_start();
    for (i = 0; i < count; i++)
        fmpz_gcd(g, a, b);
    prof_stop();
    fmpz_clear(a);
    fmpz_clear(b);
    fmpz_clear(g);
    flint_randclear(state);
}

int main(void)
{
    static const struct { const char * name; profile_target_t f; slong n0; }
        t[3] = { { "nmod_vec scalar mul, len", sample_nmod_vec, 16 },
                 { "nmod_vec reduce, len", sample_nmod_vec, 16 },
                 { "fmpz gcd, bits", sample_gcd, 64 } };
    int k, j;
    for (k = 0; k < 3; k++)
        for (j = 0; j < 4; j++)
        {
            info_t info;
            double min, max, t0 = now_ms();
            info.len = t[k].n0 << (3 * j);
            info.reduce = k == 1;
            prof_repeat(&min, &max, t[k].f, &info);
            printf("%s %ld: min %.4g us, max %.4g us (%.0f ms)\n", t[k].name,
                   (long) info.len, min, max, now_ms() - t0);
        }
    return 0;
}
