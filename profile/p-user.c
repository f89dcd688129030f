/* p-user: what user counters and user measures cost.
   - prof_user_count on the fast path, timed by the runner: a loop of a
     64-bit LCG step per iteration (a dependent multiply-add, ~1 ns), the
     same loop with one add per iteration (its extra time is the add's
     cost in a loop that does work), both again with a memory clobber per
     iteration (PROF_DO_NOT_OPTIMIZE: the compiler must load and store the
     slot at every add), adds alone with a clobber after each (a chain of
     load, add, store: the worst case), and for contrast a lookup by name
     per add.
   - A measure's cost per epoch (two calls of each callback and the
     bookkeeping, outside the timed interval) and the user counters' per-
     epoch work (reset and read of the slots), timed directly.
   Rounds alternate the variants; printed are medians over the rounds.
   Usage: p-user [rounds] (default 9). */
#include "bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static int handle;

/* x kept in a register, or (PROF_DO_NOT_OPTIMIZE) with all memory
   clobbered: then the slot is loaded and stored at every add. */
#define KEEP_REG(x) __asm__ __volatile__ ("" : : "r" (x))
#define LCG(x) ((x) * 6364136223846793005ULL + 1442695040888963407ULL)

/* A target that runs body count times, with an LCG state x and the
   counter's handle h. */
#define LOOP_TARGET(name, body) \
    static void name(void * arg, ulong count) \
    { \
        unsigned long long x = (unsigned long long) (size_t) arg; \
        int h = handle; \
        ulong i; \
        (void) h; \
        for (i = 0; i < count; i++) \
        { \
            body \
        } \
        KEEP_REG(x); \
    }

LOOP_TARGET(lcg, x = LCG(x); KEEP_REG(x);)
LOOP_TARGET(lcg_add, x = LCG(x); KEEP_REG(x); prof_user_count(h, 8.0);)
LOOP_TARGET(lcg_clobber, x = LCG(x); PROF_DO_NOT_OPTIMIZE(x);)
LOOP_TARGET(lcg_clobber_add, x = LCG(x); PROF_DO_NOT_OPTIMIZE(x);
            prof_user_count(h, 8.0);)
LOOP_TARGET(adds_only, prof_user_count(h, 8.0); PROF_CLOBBER();)

static void lookup_add(void * arg, ulong count)
{
    ulong i;
    (void) arg;
    for (i = 0; i < count; i++)
        prof_user_count(prof_user_counter("bytes", 0), 8.0);
}

static double reading;
static double read_it(void * arg)
{
    (void) arg;
    return reading += 1.0;
}

/* ns per epoch of n measures' start and stop, and of the slots' reset
   and read. */
static double measures_ns(int n, int slots)
{
    prof_impl_settings s;
    prof_impl_run_user u;
    prof_impl_measure m[PROF_MEASURES_MAX];
    double raw[PROF_IMPL_USER_RAW], t0, t1;
    int k, reps = 200000;
    for (k = 0; k < n; k++)
    {
        m[k].start = m[k].stop = read_it;
        m[k].arg = NULL;
    }
    s.measures = m;
    s.nmeasures = n;
    prof_impl_user_init(&u, &s);
    t0 = prof_impl_now_ns();
    for (k = 0; k < reps; k++)
    {
        prof_impl_measures_start(&u);
        if (slots)
            prof_impl_user_reset();
        PROF_CLOBBER();
        if (slots)
            prof_impl_user_harvest(raw);
        prof_impl_measures_stop(&u);
    }
    t1 = prof_impl_now_ns();
    PROF_DO_NOT_OPTIMIZE(raw[0]);
    return (t1 - t0) / reps;
}

int main(int argc, char ** argv)
{
    enum { MAXR = 101, V = 6, M = 5 };
    static const char * names[V] = { "LCG step", "LCG step + add",
                                      "LCG step, clobber",
                                      "LCG step, clobber + add",
                                      "adds alone, clobber",
                                      "lookup by name + add" };
    profile_target_t targets[V] = { lcg, lcg_add, lcg_clobber,
                                    lcg_clobber_add, adds_only, lookup_add };
    static const int mcount[M] = { 0, 1, 2, 8, -1 };
    double t[V][MAXR], mt[M][MAXR], med[V];
    int rounds = argc > 1 ? atoi(argv[1]) : 9, i, v;
    if (rounds < 1 || rounds > MAXR)
        rounds = 9;
    handle = prof_user_counter("bytes", 0);
    for (i = 0; i < rounds; i++)
    {
        prof_bench * b = prof_bench_new();
        prof_bench_set_format(b, PROF_FORMAT_NONE);
        for (v = 0; v < V; v++)
        {
            int w = i % 2 ? V - 1 - v : v;  /* alternate the order */
            const prof_result * r = prof_bench_run(b, names[w], targets[w],
                                                   (void *) 7);
            t[w][i] = r ? r->median_ns : NAN;
        }
        prof_bench_free(b);
        for (v = 0; v < M; v++)
            mt[v][i] = mcount[v] >= 0 ? measures_ns(mcount[v], 0)
                                      : measures_ns(0, 1);
    }
    printf("user counters: ns per iteration, medians over %d rounds\n\n",
           rounds);
    printf("| loop                      |   ns/iter |\n"
           "|:--------------------------|----------:|\n");
    for (v = 0; v < V; v++)
    {
        med[v] = prof_impl_median(t[v], rounds);
        printf("| %-25s | %9.3f |\n", names[v], med[v]);
    }
    printf("\none add in a loop that works: %.3f ns (slot in a register), "
           "%.3f ns (slot through memory: a clobber per iteration); adds "
           "back to back through memory: %.3f ns each\n", med[1] - med[0],
           med[3] - med[2], med[4]);
    printf("\nper epoch, outside the timed interval (ns):\n\n"
           "| what                                |  ns/epoch |\n"
           "|:------------------------------------|----------:|\n");
    for (v = 0; v < M; v++)
    {
        char what[64];
        if (mcount[v] >= 0)
            snprintf(what, sizeof what, "%d measure%s (start + stop)",
                     mcount[v], mcount[v] == 1 ? "" : "s");
        else
            snprintf(what, sizeof what, "user counters' slots (reset + read)");
        printf("| %-35s | %9.2f |\n", what, prof_impl_median(mt[v], rounds));
    }
    return 0;
}
