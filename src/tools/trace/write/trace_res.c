/*
    prof-trace's reports of locks and allocations (trace_locks.h), for
    trace_report.c: the lock and allocation records of the annotations
    into pt_locks and pt_allocs, and out as each output has them:
      - text summary: the lock table and one line of allocations after
        the zones' table; CSV: a row per lock and one of allocations;
      - --raw: each record's line, as the other annotations';
      - --alloc: the allocations by zone and the leaks;
      - Chrome JSON (X and B/E forms): each wait and hold as an async
        slice ("b", "e"; category "lock", one id per lock and thread,
        since holds of two locks need not nest with each other or with
        the zones), the live bytes as a counter ("C");
      - Perfetto: the slices on a track per lock and thread, under the
        thread's; the live bytes on a counter track under the process.
    The zone filters do not apply to them: they are the whole trace's.
    SPDX-License-Identifier: MIT
*/
#include "trace_res.h"
#include "trace_json.h"
#include "trace_perfetto.h"
#include "internal.h"

#include <stdlib.h>

struct pt_res
{
    pt_output kind;
    FILE * out;
    pt_perfetto * pf;
    int * first;          /* the report's: no JSON element written yet */
    const pt_trace * t;   /* during the live-bytes replay */
    pt_locks * locks;
    pt_allocs * allocs;
    int oom;
};

/* The live bytes' counter: its name (its track's key in --perfetto). */
static const char live_name[] = "live bytes";

pt_res * pt_res_new(pt_output kind, FILE * out, pt_perfetto * pf, int * first)
{
    pt_res * r = (pt_res *) calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->kind = kind;
    r->out = out;
    r->pf = pf;
    r->first = first;
    r->locks = pt_locks_new();
    r->allocs = pt_allocs_new();
    if (r->locks == NULL || r->allocs == NULL)
    {
        pt_res_free(r);
        return NULL;
    }
    return r;
}

void pt_res_free(pt_res * r)
{
    if (r == NULL)
        return;
    pt_locks_free(r->locks);
    pt_allocs_free(r->allocs);
    free(r);
}

/* An async event of slice s: ph 'b' at its begin or 'e' at its end. */
static void json_slice(pt_res * r, const pt_trace * t, const pt_lock_slice * s,
                       char ph)
{
    pt_json_sep(r->out, r->first);
    fputs("{\"name\":", r->out);
    prof_impl_json_string(r->out, s->what == 'w' ? "wait" : "hold");
    fprintf(r->out, ",\"cat\":\"lock\",\"ph\":\"%c\",\"id\":\"%u.%u\",\"ts\":",
            ph, (unsigned) s->lock_index, t->threads[s->thread].tid);
    pt_json_us(r->out, pt_whole_ns(t, ph == 'b' ? s->begin : s->end));
    fprintf(r->out, ",\"pid\":%u,\"tid\":%u", t->pid, t->threads[s->thread].tid);
    if (ph == 'b')
    {
        fputs(",\"args\":{\"lock\":", r->out);
        prof_impl_json_string(r->out, s->name != NULL ? s->name : "lock");
        fprintf(r->out, ",\"address\":\"0x%llx\"}", (unsigned long long) s->lock);
    }
    fputc('}', r->out);
}

void pt_res_annot(pt_res * r, const pt_trace * t, const pt_annot * a)
{
    pt_lock_slice s;
    int rc = pt_locks_annot(r->locks, t, a, &s);
    if (rc > 0 && (r->kind == PT_OUT_JSON || r->kind == PT_OUT_JSON_BE))
    {
        json_slice(r, t, &s, 'b');
        json_slice(r, t, &s, 'e');
    }
    else if (rc > 0 && r->kind == PT_OUT_PERFETTO)
        pt_perfetto_lock_slice(r->pf, t, &s);
    if (rc < 0 || pt_allocs_annot(r->allocs, t, a) != 0)
        r->oom = 1;
}

static void live_point(void * ctx, int64_t ticks, uint64_t live)
{
    pt_res * r = (pt_res *) ctx;
    if (r->kind == PT_OUT_PERFETTO)
    {
        pt_perfetto_counter(r->pf, r->t, live_name, ticks, (double) live);
        return;
    }
    pt_json_sep(r->out, r->first);
    fputs("{\"name\":", r->out);
    prof_impl_json_string(r->out, live_name);
    fputs(",\"ph\":\"C\",\"ts\":", r->out);
    pt_json_us(r->out, pt_whole_ns(r->t, ticks));
    fprintf(r->out, ",\"pid\":%u,\"args\":{\"bytes\":%llu}}", r->t->pid,
            (unsigned long long) live);
}

int pt_res_finish(pt_res * r, const pt_trace * t)
{
    int counter = r->kind == PT_OUT_JSON || r->kind == PT_OUT_JSON_BE
                  || r->kind == PT_OUT_PERFETTO;
    if (r->kind != PT_OUT_TEXT && r->kind != PT_OUT_CSV
        && r->kind != PT_OUT_ALLOC && !counter)
        return r->oom ? -1 : 0;
    r->t = t;
    if (pt_allocs_count(r->allocs) > 0
        && pt_allocs_replay(r->allocs, r, counter ? live_point : NULL) != 0)
        r->oom = 1;
    if (r->kind == PT_OUT_TEXT)
    {
        pt_locks_write(r->locks, r->out, t, 0);
        pt_allocs_write(r->allocs, r->out, t, 1);
    }
    else if (r->kind == PT_OUT_CSV)
    {
        pt_locks_write(r->locks, r->out, t, 1);
        pt_allocs_write_csv(r->allocs, r->out, t);
    }
    else if (r->kind == PT_OUT_ALLOC)
        pt_allocs_write(r->allocs, r->out, t, 0);
    return r->oom ? -1 : 0;
}
