/*
    The reports of a trace read whole (pt_read): its zones handed to a
    report again as the reader streamed them, per thread in the order they
    began (trace_report.c writes them).
    SPDX-License-Identifier: MIT
*/
#include "trace_read.h"
#include "internal.h"

#include <stdlib.h>

static int cmp_thread_seq(const void * a, const void * b)
{
    const pt_zone * x = *(const pt_zone * const *) a, * y = *(const pt_zone * const *) b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Hand t's zones to r again, as the reader did: per thread, in the order
   they began, each ended before the next zone at its depth or above. */
static int replay(pt_report * r, const pt_trace * t)
{
    pt_handler h = pt_report_handler(r);
    const pt_zone ** z = t->nzones ? (const pt_zone **) malloc(t->nzones * sizeof *z) : NULL;
    const pt_zone ** open = t->nzones ? (const pt_zone **) malloc(t->nzones * sizeof *open) : NULL;
    size_t i, n = 0;
    int rc = t->nzones > 0 && (z == NULL || open == NULL) ? -1 : 0;
    for (i = 0; z != NULL && open != NULL && i < t->nzones; i++)
        z[i] = &t->zones[i];
    if (z != NULL && open != NULL)
        qsort(z, t->nzones, sizeof *z, cmp_thread_seq);
    for (i = 0; z != NULL && open != NULL && i < t->nzones; i++)
    {
        while (n > 0 && (open[n - 1]->thread != z[i]->thread
                         || open[n - 1]->depth >= z[i]->depth))
            h.zone(h.ctx, t, open[--n]);
        if (z[i]->flags & PT_NO_BEGIN)
            h.zone(h.ctx, t, z[i]);
        else
        {
            h.begin(h.ctx, t, z[i]);
            open[n++] = z[i];
        }
    }
    while (n > 0)
        h.zone(h.ctx, t, open[--n]);
    free(z);
    free(open);
    return rc;
}

int pt_write_report(FILE * out, const pt_trace * t, pt_output kind)
{
    pt_report * r = pt_report_new(out, kind, NULL, 0);
    if (r == NULL)
    {
        prof_impl_warn("prof-trace: out of memory");
        return -1;
    }
    if (replay(r, t) != 0)
    {
        prof_impl_warn("prof-trace: out of memory while writing the report: "
                       "zones were lost");
        pt_report_finish(r, NULL);
        return -1;
    }
    return pt_report_finish(r, t);
}

int pt_write_summary(FILE * out, const pt_trace * t, pt_summary_format f)
{
    return pt_write_report(out, t, f == PT_SUMMARY_CSV ? PT_OUT_CSV : PT_OUT_TEXT);
}

int pt_write_json(FILE * out, const pt_trace * t, pt_json_format f)
{
    return pt_write_report(out, t, f == PT_JSON_X ? PT_OUT_JSON : PT_OUT_JSON_BE);
}
