/*
    The paired comparison of two targets: their epochs alternate (a b, b a,
    ...) so that both see the same phases of the machine, and each round
    gives one ratio; the median ratio gets a distribution-free interval and
    the sign test a p-value.
    SPDX-License-Identifier: MIT
*/
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
    prof_impl_run run;
    profile_target_t f;
    void * arg;
} side;

static void epoch_unless_done(side * s)
{
    if (s->run.phase != PH_DONE)
        prof_impl_run_epoch(&s->run, s->f, s->arg);
}

/* Rounds: a then b, then b then a, so neither always goes first. */
static void alternate(side * a, side * b)
{
    int i;
    prof_impl_run_calibrate(&a->run, a->f, a->arg);
    prof_impl_run_calibrate(&b->run, b->f, b->arg);
    for (i = 0; a->run.phase != PH_DONE || b->run.phase != PH_DONE; i++)
    {
        epoch_unless_done(i % 2 == 0 ? a : b);
        epoch_unless_done(i % 2 == 0 ? b : a);
    }
}

/* The ratios b/a of the n rounds into ratio (sorted), the interval of
   their median and the sign test. */
static void paired_figures(prof_comparison * c, const double * sa,
        const double * sb, int n, double * ratio)
{
    int i, k, above = 0, below = 0;
    for (i = 0; i < n; i++)
    {
        /* a's epoch at 0 (work below the counter overhead): b/a is
           infinite, or 1 if b's is 0 too. NaN here made the ratio NaN
           and qsort's order undefined (NaN compares as equal to all). */
        ratio[i] = sa[i] > 0.0 ? sb[i] / sa[i] : sb[i] > 0.0 ? INFINITY : 1.0;
        above += sb[i] > sa[i];
        below += sb[i] < sa[i];
    }
    c->rounds = n;
    c->ratio = prof_impl_median(ratio, n);
    prof_impl_median_interval(ratio, n, PROF_CI_LEVEL, &c->ci_low,
                              &c->ci_high, &c->ci_level);
    /* two-sided sign test; ties carry no sign and are dropped */
    k = above < below ? above : below;
    c->p_value = above + below == 0 ? 1.0
               : 2.0 * prof_impl_binom_cdf_half(above + below, k);
    if (c->p_value > 1.0)
        c->p_value = 1.0;
    c->significant = c->ci_low > 1.0 || c->ci_high < 1.0;
}

/* The comparison's line, in markdown output only: a text line in a CSV or
   JSON output made the file unreadable (the results are written after
   it). */
static void print_line(const prof_bench * b, const prof_comparison * c,
        const char * name_a, const char * name_b)
{
    if (b->format != PROF_FORMAT_MD || b->out == NULL || c->rounds == 0)
        return;
    fprintf(b->out, "%s: %.4g %s/%s vs %s: %.4g: ratio %.4f [%.4f, %.4f] "
            "over %d rounds, sign test p = %.3g: %s\n",
            name_a, c->median_a_ns / b->time_unit_ns, b->time_unit,
            b->s.unit, name_b, c->median_b_ns / b->time_unit_ns, c->ratio,
            c->ci_low, c->ci_high, c->rounds, c->p_value,
            c->significant ? (c->ratio > 1.0 ? "b is slower, significant"
                                             : "b is faster, significant")
                           : "no significant difference");
    fflush(b->out);
}

prof_comparison prof_bench_compare(prof_bench * b,
        const char * name_a, profile_target_t a, void * arg_a,
        const char * name_b, profile_target_t b_target, void * arg_b)
{
    prof_comparison c;
    side sa, sb;
    double * ratio;
    int n;

    memset(&c, 0, sizeof c);
    c.median_a_ns = c.median_b_ns = c.ratio = c.ci_low = c.ci_high = NAN;
    c.ci_level = c.p_value = NAN;
    if (b == NULL || a == NULL || b_target == NULL)
    {
        prof_impl_warn("prof_bench_compare: the %s is NULL; nothing compared",
                       b == NULL ? "suite" : "target");
        return c;
    }
    sa.f = a, sa.arg = arg_a;
    sb.f = b_target, sb.arg = arg_b;
    prof_impl_run_init(&sa.run, name_a ? name_a : "a", &b->s,
                       PROF_IMPL_RUN_FUNCTION, prof_impl_suite_overhead(b));
    prof_impl_run_init(&sb.run, name_b ? name_b : "b", &b->s,
                       PROF_IMPL_RUN_FUNCTION, prof_impl_suite_overhead(b));
    alternate(&sa, &sb);
    n = sa.run.got < sb.run.got ? sa.run.got : sb.run.got;
    ratio = (double *) malloc((size_t) (n > 0 ? n : 1) * sizeof *ratio);
    if (ratio == NULL)
        prof_impl_warn("prof_bench_compare: out of memory");
    else if (n > 0)
    {
        paired_figures(&c, sa.run.samples, sb.run.samples, n, ratio);
        c.median_a_ns = prof_impl_median(sa.run.samples, sa.run.got);
        c.median_b_ns = prof_impl_median(sb.run.samples, sb.run.got);
    }
    print_line(b, &c, sa.run.name, sb.run.name);
    free(ratio);
    prof_impl_run_free(&sa.run);
    prof_impl_run_free(&sb.run);
    return c;
}
