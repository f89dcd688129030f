/*
    The markdown table: nanobench's columns plus the interval, the event
    counters per unit, and a sparkline of the epochs at a terminal; the
    context line once, a header whenever the columns change.
    SPDX-License-Identifier: MIT
*/
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void prof_impl_md_init(prof_impl_md_writer * w, FILE * out)
{
    memset(w, 0, sizeof *w);
    w->out = out;
}

static void md_context(FILE * out, const prof_impl_report_ctx * c)
{
    prof_impl_sysinfo si;
    const char * w[2];
    int i, n = prof_impl_build_warnings(c, w);
    prof_impl_sysinfo_read(&si);
    fprintf(out, "%s, %d cores, counter %.4g GHz (read: %.3g ns), %s%s%s, "
            "%s\n\n", si.cpu, si.cores, prof_impl_read_rate() * 1e-9,
            c->overhead_ns, c->compiler, c->flags[0] ? " " : "", c->flags,
            si.date);
    for (i = 0; i < n; i++)
    {
        fprintf(out, "**warning**: %s\n\n", w[i]);
        prof_impl_warn("%s", w[i]);
    }
}

/* ---- counter columns ----------------------------------------------------- */

/* The markdown columns of a result's counters: nanobench's ins, cyc, IPC,
   bra, miss% first, then the other events in the order asked for. */
enum { COL_EVENT, COL_IPC, COL_MISS };
typedef struct { int kind, ev; char head[40]; } counter_col;

static const char * short_name(const char * event)
{
    static const char * names[][2] = {
        { "instructions", "ins" }, { "cycles", "cyc" }, { "branches", "bra" },
        { "branch-misses", "brmiss" }, { "page-faults", "faults" },
        { "context-switches", "ctx" }, { "cpu-migrations", "migr" },
        { "task-clock", "task-ns" }, { "ref-cycles", "refcyc" },
        { "cache-references", "cref" }, { "cache-misses", "cmiss" } };
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(event, names[i][0]) == 0)
            return names[i][1];
    return event;
}

static int counter_cols(const prof_result * r, counter_col * cols)
{
    int ins = prof_impl_result_event_index(r, "instructions");
    int cyc = prof_impl_result_event_index(r, "cycles");
    int bra = prof_impl_result_event_index(r, "branches");
    int miss = prof_impl_result_event_index(r, "branch-misses");
    int k, n = 0;
#define ADD(kind_, ev_, ...) \
    (cols[n].kind = (kind_), cols[n].ev = (ev_), \
     snprintf(cols[n].head, sizeof cols[n].head, __VA_ARGS__), n++)
    if (ins >= 0) ADD(COL_EVENT, ins, "ins/%s", r->unit);
    if (cyc >= 0) ADD(COL_EVENT, cyc, "cyc/%s", r->unit);
    if (ins >= 0 && cyc >= 0) ADD(COL_IPC, -1, "IPC");
    if (bra >= 0) ADD(COL_EVENT, bra, "bra/%s", r->unit);
    if (bra >= 0 && miss >= 0) ADD(COL_MISS, miss, "miss%%");
    for (k = 0; k < r->ncounters && n < PROF_COUNTERS_MAX + 2; k++)
        if (k != ins && k != cyc && k != bra && (k != miss || bra < 0))
            ADD(COL_EVENT, k, "%s/%s", short_name(r->counter_names[k]), r->unit);
#undef ADD
    return n;
}

/* ---- markdown ------------------------------------------------------------ */

/* 48780487.8 -> "48,780,487.80" */
static void grouped(char * out, double v)
{
    char digits[64];
    int n, i, j = 0, lead;
    if (!(v < 1e18) || v != v)
    {
        sprintf(out, "%.4g", v);
        return;
    }
    sprintf(digits, "%.2f", v);
    n = (int) (strchr(digits, '.') - digits);
    lead = n % 3 == 0 ? 3 : n % 3;
    for (i = 0; i < n; i++)
    {
        if (i > 0 && (i - lead) % 3 == 0)
            out[j++] = ',';
        out[j++] = digits[i];
    }
    strcpy(out + j, digits + n);
}

/* The interval column's title: what the interval covers. */
static void interval_head(char * out, size_t size, const prof_result * r)
{
    int pct = !(r->ci_level < PROF_CI_LEVEL) ? (int) (100 * PROF_CI_LEVEL + 0.5)
            : (int) floor(100.0 * r->ci_level);
    if (r->processes > 1)
        snprintf(out, size, "%d%% interval, %d processes", pct, r->processes);
    else
        snprintf(out, size, "%d%% run interval", pct);
}

/* The context once, the counters' line once, and a header whenever the
   columns (relative, interval, counters) change. */
static void md_header(prof_impl_md_writer * w, const prof_impl_report_ctx * c,
        const prof_result * r, const counter_col * cols, int ncols,
        int relative)
{
    char tu[48], ru[48], heads[512], ci[64];
    int k, wide;
    if (!w->header_done)
        md_context(w->out, c);
    if (ncols > 0 && !w->counters_done)
    {
        if (c->counters_line[0] != '\0')
            fprintf(w->out, "%s\n\n", c->counters_line);
        w->counters_done = 1;
    }
    interval_head(ci, sizeof ci, r);
    snprintf(heads, sizeof heads, "%s|", ci);
    for (k = 0; k < ncols; k++)
    {
        size_t len = strlen(heads);
        snprintf(heads + len, sizeof heads - len, " %10s |", cols[k].head);
    }
    if (w->header_done == 1 + relative && strcmp(heads, w->cols) == 0)
        return;
    wide = (int) strlen(ci) > 25 ? (int) strlen(ci) : 25;
    w->ci_width = wide;
    sprintf(tu, "%s/%s", c->time_unit, r->unit);
    sprintf(ru, "%s/s", r->unit);
    if (w->header_done)
        fputc('\n', w->out);
    fprintf(w->out, "%s| %12s | %20s | %7s | %*s | %12s |%s %9s | "
            "benchmark\n", relative ? "| relative " : "", tu, ru, "err%",
            wide, ci, "min", strchr(heads, '|') + 1, "total");
    fprintf(w->out, "%s|-------------:|---------------------:|--------:|",
            relative ? "|---------:" : "");
    for (k = 0; k < wide + 1; k++)
        fputc('-', w->out);
    fputs(":|-------------:|", w->out);
    for (k = 0; k < ncols; k++)
        fputs("-----------:|", w->out);
    fputs("----------:|:----------\n", w->out);
    w->header_done = 1 + relative;
    prof_impl_copy(w->cols, sizeof w->cols, heads);
}

/* The counter cells of a row. */
static void md_counter_cells(FILE * out, const prof_result * r,
        const counter_col * cols, int ncols)
{
    int k;
    for (k = 0; k < ncols; k++)
    {
        double v = cols[k].kind == COL_IPC ? r->ipc
                 : cols[k].kind == COL_MISS ? r->branch_miss_pct
                 : r->counters[cols[k].ev];
        char cell[48];
        if (isnan(v))
            strcpy(cell, "n/a");
        else if (cols[k].kind == COL_IPC)
            snprintf(cell, sizeof cell, "%.3f", v);
        else if (cols[k].kind == COL_MISS)
            snprintf(cell, sizeof cell, "%.2f%%", v);
        else if (v >= 100.0 || v == 0.0)
            snprintf(cell, sizeof cell, "%.1f", v);
        else        /* 4 significant digits: 0.0002 faults/op is not 0 */
            snprintf(cell, sizeof cell, "%.4g", v);
        fprintf(out, " %10s |", cell);
    }
}

void prof_impl_md_row(prof_impl_md_writer * w, const prof_impl_report_ctx * c,
        const prof_impl_result * ir, int relative)
{
    const prof_result * r = &ir->pub;
    char rate[64], ci[64];
    char spark[3 * 64 + 1] = "";     /* the first 64 epochs at most */
    double scale = c->time_unit_ns;
    counter_col cols[PROF_COUNTERS_MAX + 2];
    int ncols = counter_cols(r, cols);

    if (w->out == NULL)
        return;
    md_header(w, c, r, cols, ncols, relative);
    if (r->median_ns > 0.0)
        grouped(rate, 1e9 / r->median_ns);
    else
        strcpy(rate, "inf");
    if (!isnan(r->ci_low_ns))
        sprintf(ci, "[%.2f, %.2f]", r->ci_low_ns / scale, r->ci_high_ns / scale);
    else
        strcpy(ci, "n/a");
    if (relative && isnan(r->relative_pct))
        fprintf(w->out, "| %8s ", "n/a");
    else if (relative)
        fprintf(w->out, "| %7.1f%% ", r->relative_pct);
    fprintf(w->out, "| %12.2f | %20s | %6.1f%% | %*s | %12.2f |",
            r->median_ns / scale, rate, r->err_pct, w->ci_width, ci,
            r->min_ns / scale);
    md_counter_cells(w->out, r, cols, ncols);
    if (prof_impl_is_terminal(c->terminal, w->out))
        prof_impl_sparkline(spark, sizeof spark, r->samples_ns, r->epochs);
    fprintf(w->out, " %9.3f | "
            "`%s`%s%s%s%s%s%s\n", r->total_s, r->name,
            spark[0] ? " " : "", spark,
            (r->flags & PROF_RESULT_UNSTABLE) ? " :wavy_dash: unstable" : "",
            (r->flags & PROF_RESULT_BIMODAL) ? " :warning: bimodal" : "",
            (r->flags & (PROF_RESULT_BUDGET | PROF_RESULT_FEW_EPOCHS))
                ? " :warning: few epochs" : "",
            (r->flags & PROF_RESULT_RESOLUTION) ? " :warning: no work?" : "");
    fflush(w->out);
}
