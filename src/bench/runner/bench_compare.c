/*
    The paired comparison of two targets: their epochs alternate (a b, b a,
    ...) so that both see the same phases of the machine, and each round
    gives one ratio; the median ratio gets a distribution-free interval and
    the sign test a p-value.
    SPDX-License-Identifier: MIT
*/
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct
{
    prof_impl_run run;
    const char * name;
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
        PROF_IMPL_INTERRUPT_POLL();
    }
}

/* The ratios b/a of the rounds (epoch i of a and of b in one process)
   into ratio (sorted), the interval of their median and the sign test. */
static void paired_figures(prof_comparison * c, const prof_impl_epochs * a,
        const prof_impl_epochs * b, double * ratio)
{
    int i = 0, j = 0, k, n = 0, above = 0, below = 0;
    while (i < a->got && j < b->got)
    {
        /* both are in process order: round k of a process pairs a's and
           b's k-th epochs there */
        int pa = a->process ? a->process[i] : 0;
        int pb = b->process ? b->process[j] : 0;
        double sa = a->samples[i], sb = b->samples[j];
        if (pa != pb)
        {
            i += pa < pb;
            j += pb < pa;
            continue;
        }
        /* a's epoch at 0 (work below the counter overhead): b/a is
           infinite, or 1 if b's is 0 too. NaN here made the ratio NaN
           and qsort's order undefined (NaN compares as equal to all). */
        ratio[n++] = sa > 0.0 ? sb / sa : sb > 0.0 ? INFINITY : 1.0;
        above += sb > sa;
        below += sb < sa;
        i++;
        j++;
    }
    if (n == 0)
        return;
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
    c->median_a_ns = prof_impl_median(a->samples, a->got);
    c->median_b_ns = prof_impl_median(b->samples, b->got);
}

/* The comparison's line, in markdown output only: a text line in a CSV or
   JSON output made the file unreadable (the results are written after
   it). */
static void print_line(prof_bench * b, const prof_comparison * c,
        const char * name_a, const char * name_b)
{
    FILE * out = b->console.f;
    const char * unit;
    double scale;
    char ta[32], tb[32];
    if (b->console.format != PROF_FORMAT_MD || out == NULL || c->rounds == 0)
        return;
    /* both sides in a's unit, as the table would show a's row */
    prof_impl_table_unit(c->median_a_ns, b->s.time_unit_fixed
                         ? b->s.time_unit : NULL, &unit, &scale);
    fprintf(out, "%s: %s %s/%s vs %s: %s %s/%s: ratio %.4f [%.4f, %.4f] "
            "over %d rounds, sign test p = %.3g: %s\n",
            name_a, prof_impl_four_digits(ta, 32, c->median_a_ns / scale), unit,
            b->s.unit, name_b, prof_impl_four_digits(tb, 32, c->median_b_ns / scale),
            unit, b->s.unit, c->ratio, c->ci_low, c->ci_high, c->rounds,
            c->p_value,
            c->significant ? (c->ratio > 1.0 ? "b is slower, significant"
                                             : "b is faster, significant")
                           : "no significant difference");
    fflush(out);
    prof_impl_md_break(&b->console.md);     /* the next row: a header */
}

/* Run a and b alternately in this process: their epochs. */
static void run_here(prof_bench * b, side * sa, side * sb,
        prof_impl_epochs * ea, prof_impl_epochs * eb)
{
    prof_impl_run_init(&sa->run, sa->name, &b->s, PROF_IMPL_RUN_FUNCTION,
                       prof_impl_suite_overhead(b));
    prof_impl_run_init(&sb->run, sb->name, &b->s, PROF_IMPL_RUN_FUNCTION,
                       prof_impl_suite_overhead(b));
    alternate(sa, sb);
    prof_impl_run_take(&sa->run, ea);
    prof_impl_run_take(&sb->run, eb);
}

prof_comparison prof_bench_compare(prof_bench * b,
        const char * name_a, profile_target_t a, void * arg_a,
        const char * name_b, profile_target_t b_target, void * arg_b)
{
    prof_comparison c;
    side sa, sb;
    prof_impl_epochs ea, eb;
    double * ratio;
    int index;

    memset(&c, 0, sizeof c);
    c.median_a_ns = c.median_b_ns = c.ratio = c.ci_low = c.ci_high = NAN;
    c.ci_level = c.p_value = NAN;
    if (b == NULL || a == NULL || b_target == NULL)
    {
        prof_impl_warn("prof_bench_compare: the %s is NULL; nothing compared",
                       b == NULL ? "suite" : "target");
        return c;
    }
    sa.name = name_a ? name_a : "a";
    sb.name = name_b ? name_b : "b";
    if (b->list_only)
    {
        char both[512];
        snprintf(both, sizeof both, "%s vs %s", sa.name, sb.name);
        prof_impl_listed(b, both);
        return c;
    }
    sa.f = a;
    sa.arg = arg_a;
    sb.f = b_target;
    sb.arg = arg_b;
    index = b->nbench++;
    if (prof_impl_workers_ready(b))
    {
        if (prof_impl_workers_take_compare(b, index, sa.name, sb.name, &ea,
                                           &eb) != 0)
            return c;
    }
    else
    {
        prof_impl_worker_begin(b, index, sa.name);
        run_here(b, &sa, &sb, &ea, &eb);
        prof_impl_worker_send(b, index, &ea, &eb);
    }
    ratio = (double *) malloc((size_t) (ea.got + 1) * sizeof *ratio);
    if (ratio == NULL)
        prof_impl_warn("prof_bench_compare: out of memory");
    else
        paired_figures(&c, &ea, &eb, ratio);
    print_line(b, &c, sa.name, sb.name);
    free(ratio);
    prof_impl_epochs_free(&ea);
    prof_impl_epochs_free(&eb);
    return c;
}
