/*
    The zone summary's rows: see trace_rows.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_rows.h"
#include "trace_annots.h"

#include <stdlib.h>
#include <string.h>

static int cmp_row_name(const void * a, const void * b)
{
    const pt_row * x = (const pt_row *) a, * y = (const pt_row *) b;
    int c;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    c = strcmp(x->name, y->name);
    return c != 0 ? c : (x->kind > y->kind) - (x->kind < y->kind);
}

static int cmp_row_total(const void * a, const void * b)
{
    const pt_row * x = (const pt_row *) a, * y = (const pt_row *) b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    return strcmp(x->name, y->name);
}

size_t pt_rows_merge(pt_row * v, size_t n)
{
    size_t i, k = 0;
    if (n == 0)
        return 0;
    qsort(v, n, sizeof *v, cmp_row_name);
    for (i = 1; i < n; i++)
    {
        pt_row * r = &v[k];
        if (cmp_row_name(r, &v[i]) != 0)
        {
            v[++k] = v[i];
            continue;
        }
        r->calls += v[i].calls;
        r->unmatched += v[i].unmatched;
        r->total += v[i].total;
        r->self += v[i].self;
        r->min = v[i].min < r->min ? v[i].min : r->min;
        r->max = v[i].max > r->max ? v[i].max : r->max;
    }
    qsort(v, k + 1, sizeof *v, cmp_row_total);
    return k + 1;
}

void pt_rows_put(FILE * out, const pt_row * r, double ns, pt_summary_format f)
{
    double avg = r->calls ? (double) r->total * ns / (double) r->calls : 0;
    double mn = r->calls ? (double) r->min * ns : 0, mx = (double) r->max * ns;
    if (f == PT_SUMMARY_CSV)
    {
        /* the name as it is: the unmatched column says what '*' says */
        fprintf(out, "%c,", r->kind);
        pt_put_csv(out, r->name);
        fprintf(out, ",%llu,%.0f,%.1f,%.0f,%.0f,%.0f,%llu\n",
                (unsigned long long) r->calls,
                (double) r->total * ns, avg, mn, mx, (double) r->self * ns,
                (unsigned long long) r->unmatched);
        return;
    }
    fprintf(out, "%-4c %10llu %14.0f %12.1f %12.0f %12.0f %14.0f %9llu  ",
            r->kind, (unsigned long long) r->calls, (double) r->total * ns,
            avg, mn, mx, (double) r->self * ns, (unsigned long long) r->unmatched);
    pt_put_text(out, r->name);
    fputs(r->unmatched ? " *\n" : "\n", out);
}

void pt_rows_head(FILE * out, pt_summary_format f, int by_thread)
{
    if (f == PT_SUMMARY_CSV)
        fprintf(out, "%skind,name,calls,total_ns,avg_ns,min_ns,max_ns,self_ns,"
                "unmatched\n", by_thread ? "thread,thread_name," : "");
    else
        fprintf(out, "%-4s %10s %14s %12s %12s %12s %14s %9s  %s\n", "kind",
                "calls", "total_ns", "avg_ns", "min_ns", "max_ns", "self_ns",
                "unmatched", "name (* = has unmatched begin/end)");
}
