/*
    CSV: one row per result with every figure of prof_result, the samples
    of its epochs, the percentiles of their times (p10, ...) and its counts
    per unit (an empty field where an event is unavailable).
    SPDX-License-Identifier: MIT
*/
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ",value", or "," alone for NaN (an empty field, not "nan") */
static void csv_number(FILE * out, double v, const char * fmt)
{
    fputc(',', out);
    if (v == v)
        fprintf(out, fmt, v);
}

/* names[0 .. *n) with name added unless it is there already (at most
   max names). */
static void add_field(const char ** names, int * n, int max,
        const char * name)
{
    int j;
    for (j = 0; j < *n && strcmp(names[j], name) != 0; j++)
        ;
    if (j == *n && *n < max)
        names[(*n)++] = name;
}

/* The counter fields of the results written: every event name any of them
   counted, in order of first appearance, and whether IPC and branch-miss %
   can be derived (PROF_IMPL_HAS_* bits in *derived). Returns the number of
   names. */
static int counter_fields(prof_impl_result * const * results, int from,
        int n, const char ** names, int * derived)
{
    int i, k, nf = 0;
    *derived = 0;
    for (i = from; i < n; i++)
    {
        const prof_result * r = &results[i]->pub;
        for (k = 0; k < r->ncounters; k++)
            add_field(names, &nf, 2 * PROF_COUNTERS_MAX, r->counter_names[k]);
        *derived |= prof_impl_derive(r->counter_names, r->ncounters, NULL,
                                     NULL, NULL);
    }
    return nf;
}

/* The user fields: every user measure's and counter's name of the
   results written, in order of first appearance. Returns their number. */
static int user_fields(prof_impl_result * const * results, int from, int n,
        const char ** names)
{
    int i, k, nf = 0;
    for (i = from; i < n; i++)
        for (k = 0; k < results[i]->nuser; k++)
            add_field(names, &nf, 2 * PROF_IMPL_USER_COLS,
                      results[i]->user_names[k]);
    return nf;
}

typedef struct
{
    const char * ev[2 * PROF_COUNTERS_MAX];
    int nev, derived;
    const char * user[2 * PROF_IMPL_USER_COLS];
    int nuser;
    int threads;            /* a result ran on several threads */
    const double * p;       /* the percentiles, and the most epochs any */
    int np, need;           /* of them needs, and room for the epochs */
    double * work;
} csv_fields;

static void csv_row(FILE * out, const prof_impl_result * ir,
        const csv_fields * f, int many)
{
    const prof_result * r = &ir->pub;
    double sc = ir->time_unit_ns;
    int k;
    prof_impl_csv_string(out, r->name);
    fprintf(out, ",%d,%lu", r->epochs, (unsigned long) r->iterations);
    csv_number(out, r->median_ns / sc, "%.9g");
    csv_number(out, r->mean_ns / sc, "%.9g");
    csv_number(out, r->min_ns / sc, "%.9g");
    csv_number(out, r->max_ns / sc, "%.9g");
    for (k = 0; k < f->np; k++)     /* empty out of memory (said) */
        csv_number(out, f->work == NULL ? NAN : prof_impl_percentile_of(
                       r->samples_ns, r->epochs, f->p[k], f->work) / sc,
                   "%.9g");
    if (f->np > 0)      /* the epochs they need, where the row has fewer */
        csv_number(out, r->epochs < f->need ? f->need : NAN, "%.0f");
    csv_number(out, r->err_pct, "%.4f");
    csv_number(out, r->ci_low_ns / sc, "%.9g");
    csv_number(out, r->ci_high_ns / sc, "%.9g");
    csv_number(out, r->ci_level, "%.4f");
    csv_number(out, r->next_low_ns / sc, "%.9g");
    csv_number(out, r->next_high_ns / sc, "%.9g");
    csv_number(out, r->next_level, "%.4f");
    fprintf(out, ",%d", r->next_runs);
    csv_number(out, r->cpu_ns / sc, "%.9g");
    fprintf(out, ",%s,", ir->time_unit);
    prof_impl_csv_string(out, r->unit);
    csv_number(out, r->batch, "%.9g");
    csv_number(out, r->total_s, "%.6f");
    csv_number(out, r->overhead_ns, "%.4g");
    csv_number(out, r->complexity_n, "%.9g");
    csv_number(out, r->relative_pct, "%.4f");
    fprintf(out, ",%d", r->flags);
    csv_number(out, r->load_avg, "%.2f");
    fputc(',', out);
    prof_impl_csv_string(out, r->warning);
    fputs(",\"", out);
    for (k = 0; k < r->epochs; k++)
        fprintf(out, "%s%.9g", k ? ";" : "", r->samples_ns[k] / sc);
    fputc('"', out);
    if (many)
    {
        fprintf(out, ",%d", r->processes);
        csv_number(out, r->between_pct, "%.4f");
        csv_number(out, r->within_pct, "%.4f");
    }
    if (f->threads)
        fprintf(out, ",%d", r->threads);
    for (k = 0; k < f->nev; k++)
        csv_number(out, prof_impl_result_event(r, f->ev[k]), "%.9g");
    if (f->derived & PROF_IMPL_HAS_IPC)
        csv_number(out, r->ipc, "%.6g");
    if (f->derived & PROF_IMPL_HAS_MISS)
        csv_number(out, r->branch_miss_pct, "%.6g");
    for (k = 0; k < f->nuser; k++)
        csv_number(out, prof_result_user(r, f->user[k]), "%.9g");
    fputc('\n', out);
}

int prof_impl_csv_write(FILE * out, const prof_impl_report_ctx * c,
        prof_impl_result * const * results, int from, int n)
{
    int i, k, many = 0, most = 1;
    csv_fields f;
    /* the rows carry all CSV says, but for a last line when partial */
    f.nev = counter_fields(results, from, n, f.ev, &f.derived);
    f.nuser = user_fields(results, from, n, f.user);
    f.threads = 0;
    f.np = prof_impl_report_percentiles(c, &f.p);
    f.need = prof_impl_percentiles_epochs(c);
    f.work = NULL;
    for (i = from; i < n; i++)
        most = results[i]->pub.epochs > most ? results[i]->pub.epochs : most;
    if (f.np > 0 && (f.work = (double *) malloc((size_t) most
                                                * sizeof *f.work)) == NULL)
        prof_impl_warn("writing CSV: out of memory; the percentiles are "
                       "missing");
    for (i = from; i < n; i++)
    {
        many |= results[i]->pub.processes > 1;
        f.threads |= results[i]->pub.threads > 1;
    }
    fputs("name,epochs,iterations,median,mean,min,max", out);
    /* the percentiles of the epochs' times, and the epochs they need
       where a row has fewer (empty: enough) */
    for (k = 0; k < f.np; k++)
    {
        char name[32];
        prof_impl_percentile_name(name, sizeof name, f.p[k]);
        fprintf(out, ",%s", name);
    }
    fputs(f.np > 0 ? ",percentile_epochs_needed" : "", out);
    fprintf(out, ",err_pct,ci_low,"
            "ci_high,ci_level,next_low,next_high,next_level,next_runs,cpu_time,time_unit,unit,batch,total_s,"
            "overhead_ns,complexity_n,relative_pct,flags,load_avg_1m,warning,"
            "samples");
    /* with worker processes: how many, and their spread */
    fputs(many ? ",processes,between_pct,within_pct" : "", out);
    /* with several threads: how many (the times are over all of them) */
    fputs(f.threads ? ",threads" : "", out);
    /* counters per unit: an empty field where unavailable */
    for (k = 0; k < f.nev; k++)
        fprintf(out, ",%s", f.ev[k]);
    fputs(f.derived & PROF_IMPL_HAS_IPC ? ",ipc" : "", out);
    fputs(f.derived & PROF_IMPL_HAS_MISS ? ",branch_miss_pct" : "", out);
    /* user measures and counters, per unit (per second for a rate) */
    for (k = 0; k < f.nuser; k++)
        fprintf(out, ",%s", f.user[k]);
    fputc('\n', out);
    for (i = from; i < n; i++)
        csv_row(out, results[i], &f, many);
    if (c->partial != NULL)
        fprintf(out, "# partial: %s: the %d benchmark%s that finished\n",
                c->partial, n - from, n - from == 1 ? "" : "s");
    free(f.work);
    return f.np > 0 && f.work == NULL ? -1 : 0;
}
