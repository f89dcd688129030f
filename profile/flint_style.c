/* flint_style: a profile program written as FLINT's own are (p-*.c in
   FLINT's source): targets in prof_repeat's shape, their operands built
   on every run outside prof_start/prof_stop or inside the timed loop,
   and 33 prof_repeat calls, one line of output each. It uses nothing but
   profiler.h, so the same file builds against this library and against
   FLINT's profiler (p-repeat-load builds and runs both, and compares
   their wall times).

   Usage: flint_style [SCALE]: the operand sizes are multiplied by SCALE
   (default 1). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "profiler.h"

#define MAX_N 4096
typedef unsigned long long word;

static word state = 88172645463325252ULL;

static word rand_word(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
}

/* The work timed: a chain of n dependent multiply-adds over a[]. */
__attribute__((noinline)) static word work(const word * a, int n)
{
    word x = 1;
    int i;
    for (i = 0; i < n; i++)
        x = x * a[i] + (word) i;
    return x;
}

static volatile word sink;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

/* Operands built on every run, between the runs' pairs: the set-up takes
   twice the time of the work. */
static void sample_setup_per_run(void * arg, ulong count)
{
    static word a[MAX_N];
    int n = *(int *) arg, i, k;
    ulong j;
    for (j = 0; j < count; j++)
    {
        for (k = 0; k < 2; k++)
            for (i = 0; i < n; i++)
                a[i] = rand_word() | 1;
        prof_start();
        sink = work(a, n);
        prof_stop();
    }
}

/* As FLINT's p-xgcd: one pair around the loop, the operands made inside
   it. */
static void sample_loop(void * arg, ulong count)
{
    static word a[MAX_N];
    int n = *(int *) arg, i;
    ulong j;
    prof_start();
    for (j = 0; j < count; j++)
    {
        for (i = 0; i < n; i++)
            a[i] = rand_word() | 1;
        sink = work(a, n);
    }
    prof_stop();
}

/* A large set-up once per call, outside the pair around the loop. */
static void sample_setup_per_call(void * arg, ulong count)
{
    int n = *(int *) arg, i;
    word * a = malloc(sizeof(word) * MAX_N * 16);
    ulong j;
    if (a == NULL)
        abort();
    for (i = 0; i < MAX_N * 16; i++)
        a[i] = rand_word() | 1;
    prof_start();
    for (j = 0; j < count; j++)
        sink = work(a + (j % 16) * MAX_N, n);
    prof_stop();
    free(a);
}

int main(int argc, char ** argv)
{
    static const struct { const char * name; profile_target_t f; } t[3] = {
        { "setup per run", sample_setup_per_run },
        { "loop", sample_loop },
        { "setup per call", sample_setup_per_call } };
    int scale = argc > 1 ? atoi(argv[1]) : 1, k, n;
    if (scale < 1 || scale > 8)
        scale = 1;
    for (k = 0; k < 3; k++)
        for (n = 4; n * scale <= MAX_N; n *= 2)
        {
            double min, max;
            int size = n * scale;
            double t0 = now_ms();
            prof_repeat(&min, &max, t[k].f, &size);
            printf("%s, n = %d: min %.4g us, max %.4g us (%.0f ms)\n",
                   t[k].name, size, min, max, now_ms() - t0);
        }
    return 0;
}
