/*
    The reports of prof-trace, written while the trace streams in (see
    trace_read.h): the summary (rows per thread, kind and name, merged at
    the end), Chrome JSON (X events as zones end; B/E events in order),
    raw event lines, Perfetto's protobuf (trace_perfetto.c), speedscope's
    format (trace_speedscope.c), collapsed stacks (trace_folded.c) and
    pprof's gzipped profile.proto of the samples (trace_pprof.c). The
    filters decide per zone; the outputs that keep begin/end order hold a
    zone's begin back until the zone is known to pass (a stack per thread,
    bounded by the nesting depth).
    SPDX-License-Identifier: MIT
*/
#include "trace_read.h"
#include "trace_folded.h"
#include "trace_json.h"
#include "trace_map.h"
#include "trace_perfetto.h"
#include "trace_pprof.h"
#include "trace_speedscope.h"
#include "trace_report.h"
#include "trace_res.h"
#include "trace_rows.h"
#include "trace_samples.h"
#include "trace_annots.h"
#include "internal.h"

#include <regex.h>
#include <stdlib.h>
#include <string.h>

typedef struct { pt_zone z; uint8_t pass, emitted; uint32_t node; } pt_ropen;
typedef struct
{
    pt_ropen * v;
    size_t depth, cap;
    size_t done;            /* v[0 .. done) hold no begin to emit */
    pt_map rows;
    uint64_t zones, events;    /* in the summary (what the filters kept) */
} pt_rthread;

struct pt_report
{
    FILE * out;
    pt_output kind;
    pt_filter f;
    int by_thread;
    int first;              /* no JSON element written yet */
    int hold_begins;        /* a dynamic filter: begins wait for the end */
    pt_rthread * th;
    size_t nth, thcap;
    pt_row * rows;
    size_t nrows, rowcap;
    pt_perfetto * pf;
    pt_folded * fold;
    pt_speedscope * ss;
    pt_samples * smp;       /* NULL: an output without samples */
    pt_res * res;           /* locks and allocations */
    int zones_first;        /* CSV, --folded: the zones' even with samples */
    pt_annots * an;         /* the summary's annotations (text, CSV) */
    int by_value;           /* --by-value: a row per zone name and value */
    int oom;                /* out of memory once: zones lost (sticky) */
};

/* ---- text helpers ------------------------------------------------------------ */

/* An X event's dur: whole ns less a picosecond per level of nesting (at
   most PT_TIE_LEVELS). A zone ending one tick before its parent often ends
   on its nanosecond, and speedscope (sorting ends by ts + dur) then closed
   the parent first; Perfetto rounds dur back to whole ns. */
#define PT_TIE_LEVELS 400
static void put_dur(FILE * out, int64_t ns, size_t depth)
{
    int64_t ps = depth < PT_TIE_LEVELS ? (int64_t) depth : PT_TIE_LEVELS;
    if (ps == 0 || ns <= 0)
    {
        pt_json_us(out, ns);
        return;
    }
    /* ns - 1 whole nanoseconds and 1000 - ps picoseconds (no product that
       could overflow: ns may be near 9e18) */
    fprintf(out, "%lld.%03lld%03lld", (long long) ((ns - 1) / 1000),
            (long long) ((ns - 1) % 1000), (long long) (1000 - ps));
}

static const char * kind_word(char kind)
{
    return kind == PT_KIND_ZONE ? "zone" : kind == PT_KIND_FUNC ? "function"
           : "instrumented";
}

/* ---- filters ------------------------------------------------------------------- */

static int thread_passes(pt_report * r, const pt_trace * t, uint32_t thread)
{
    const pt_thread * th = &t->threads[thread];
    int ok;
    if (r->f.thread_name == NULL && !r->f.thread_is_tid)
        return 1;
    ok = r->f.thread_is_tid ? th->tid == r->f.thread_tid
                            : strcmp(th->name, r->f.thread_name) == 0;
    r->f.thread_seen += ok;
    return ok;
}

/* What is known when a zone begins: thread, name, depth, begin. */
static int static_pass(pt_report * r, const pt_trace * t, const pt_zone * z)
{
    if (!thread_passes(r, t, z->thread))
        return 0;
    if (r->f.max_depth > 0 && z->depth >= r->f.max_depth)
        return 0;
    if (r->f.to_ns >= 0 && pt_whole_ns(t, z->begin) > r->f.to_ns)
        return 0;
    return r->f.name_re == NULL
           || regexec((const regex_t *) r->f.name_re, z->name, 0, NULL, 0) == 0;
}

/* What is known when it ends: duration, end. */
static int dynamic_pass(const pt_report * r, const pt_trace * t, const pt_zone * z)
{
    int64_t b = pt_whole_ns(t, z->begin), e = pt_whole_ns(t, z->end);
    return e - b >= r->f.min_duration_ns && e >= r->f.from_ns;
}

/* ---- summary rows ------------------------------------------------------------- */

static pt_rthread * thread_state(pt_report * r, uint32_t thread)
{
    if (thread >= r->nth)
    {
        if (prof_impl_grow(&r->th, &r->thcap, (size_t) thread + 1, sizeof *r->th) != 0)
        {
            r->oom = 1;
            return NULL;
        }
        memset(r->th + r->nth, 0, (thread + 1 - r->nth) * sizeof *r->th);
        r->nth = (size_t) thread + 1;
    }
    return &r->th[thread];
}

static void count_zone(pt_report * r, pt_rthread * th, const pt_zone * z)
{
    const char * name = r->by_value ? pt_annots_by_value(r->an, z) : z->name;
    uint64_t key = (uint64_t) (size_t) name << 8 | (unsigned char) z->kind;
    void ** slot = name != NULL ? pt_map_find(&th->rows, key, 1) : NULL;
    pt_row * row;
    int64_t d = z->end - z->begin;
    if (slot == NULL)
    {
        r->oom = 1;
        return;
    }
    if (*slot == NULL)
    {
        if (prof_impl_grow(&r->rows, &r->rowcap, r->nrows + 1, sizeof *r->rows) != 0)
        {
            r->oom = 1;
            return;
        }
        row = &r->rows[r->nrows];
        memset(row, 0, sizeof *row);
        row->kind = z->kind;
        row->name = name;
        row->thread = z->thread;
        row->min = INT64_MAX;
        *slot = (void *) (size_t) ++r->nrows;
        th->rows.n++;
    }
    row = &r->rows[(size_t) *slot - 1];
    th->zones++;
    th->events += z->flags ? 1 : 2; /* an unmatched zone has one event */
    if (z->flags)
    {
        row->unmatched++;
        return;
    }
    row->calls++;
    row->total = pt_add_ticks(row->total, d);
    row->self = pt_add_ticks(row->self, d - z->child);
    row->min = d < row->min ? d : row->min;
    row->max = d > row->max ? d : row->max;
}

/* ---- the outputs of one event ------------------------------------------------- */

/* One Chrome JSON event of zone z, depth levels inside the outermost: ph
   is 'X' (with dur), 'B', 'E' or 'i'. */
static void json_event(pt_report * r, const pt_trace * t, const pt_zone * z,
                       char ph, size_t depth)
{
    int64_t b = pt_whole_ns(t, z->begin), e = pt_whole_ns(t, z->end);
    int open = 0;
    pt_json_sep(r->out, &r->first);
    fputs("{\"name\":", r->out);
    prof_impl_json_string(r->out, z->name);
    fprintf(r->out, ",\"cat\":\"%s\",\"ph\":\"%c\",", kind_word(z->kind), ph);
    if (ph == 'i')
        fputs("\"s\":\"t\",", r->out);
    fputs("\"ts\":", r->out);
    pt_json_us(r->out, ph == 'E' ? e : b);
    if (ph == 'X')
    {
        fputs(",\"dur\":", r->out);
        put_dur(r->out, e - b, depth);
    }
    fprintf(r->out, ",\"pid\":%u,\"tid\":%u", t->pid, t->threads[z->thread].tid);
    if (ph == 'i' || ((z->flags & PT_NO_END) && ph != 'B'))
        fprintf(r->out, ",\"args\":{\"unmatched\":\"%s without %s\"", ph == 'i'
                ? "end" : "begin", ph == 'i' ? "begin" : "end"), open = 1;
    if (ph != 'B' && ph != 'X') /* the value and text: known at the end */
        open = pt_json_zone_args(r->out, z, open);
    fputs(open ? "}}" : "}", r->out);
    if (ph == 'X') /* beside it: speedscope keys an X's frame by its args */
        pt_json_zone_values(r->out, t, z);
}

/* One raw line: thread, ticks and ns since the start, begin or end, kind,
   name. */
static void raw_line(pt_report * r, const pt_trace * t, const pt_zone * z, int end)
{
    int64_t ticks = end ? z->end : z->begin;
    fprintf(r->out, "%u\t%lld\t%lld\t%s\t%c\t", t->threads[z->thread].tid,
            (long long) ticks, (long long) pt_whole_ns(t, ticks),
            end ? "end" : "begin", z->kind);
    pt_put_text(r->out, z->name);
    fputc('\n', r->out);
}

/* The begin ('B'), end ('E') or instant ('i': an end without a begin) of z
   in the ordered outputs. */
static void emit(pt_report * r, const pt_trace * t, const pt_zone * z, char what)
{
    switch (r->kind)
    {
    case PT_OUT_JSON_BE:
        json_event(r, t, z, what, 0);
        break;
    case PT_OUT_RAW:
        if (!(what == 'E' && (z->flags & PT_NO_END))) /* no such event */
            raw_line(r, t, z, what != 'B');
        break;
    case PT_OUT_PERFETTO:
        pt_perfetto_event(r->pf, t, z, what);
        break;
    case PT_OUT_SPEEDSCOPE:
        pt_speedscope_event(r->ss, t, z, what);
        break;
    default:
        break;
    }
}

static int ordered(const pt_report * r)
{
    return r->kind == PT_OUT_JSON_BE || r->kind == PT_OUT_RAW
           || r->kind == PT_OUT_PERFETTO || r->kind == PT_OUT_SPEEDSCOPE;
}

/* ---- the handler ------------------------------------------------------------- */

/* --folded: o->node, the path of a kept zone (its parent's and its name),
   of a dropped one its parent's (its self time goes there); none in a
   thread the filters drop. */
static void fold_begin(pt_report * r, const pt_trace * t, pt_rthread * th,
                       pt_ropen * o)
{
    uint32_t up = th->depth > 1 ? th->v[th->depth - 2].node
                : thread_passes(r, t, o->z.thread)
                ? pt_folded_root(r->fold, o->z.thread) : PT_FOLDED_NONE;
    o->node = o->pass && up != PT_FOLDED_NONE
            ? pt_folded_enter(r->fold, up, o->z.name, o->z.kind) : up;
    if (o->pass && up != PT_FOLDED_NONE && o->node == PT_FOLDED_NONE)
        r->oom = 1;
}

static void on_begin(void * ctx, const pt_trace * t, const pt_zone * z)
{
    pt_report * r = (pt_report *) ctx;
    pt_rthread * th = thread_state(r, z->thread);
    pt_ropen * o;
    pt_samples_begin(r->smp, t, z);
    if (th == NULL)
        return;
    if (prof_impl_grow(&th->v, &th->cap, th->depth + 1, sizeof *th->v) != 0)
    {
        r->oom = 1;
        return;
    }
    o = &th->v[th->depth++];
    o->z = *z;
    o->pass = (uint8_t) static_pass(r, t, z);
    o->emitted = 0;
    if (r->fold != NULL)
        fold_begin(r, t, th, o);
    if (o->pass && !r->hold_begins && ordered(r))
    {
        emit(r, t, z, 'B');
        o->emitted = 1;
    }
}

/* A zone that passed: its begin (and the held begins of the zones around
   it) in the ordered outputs, then its end; X events; the summary. */
static void passed(pt_report * r, const pt_trace * t, pt_rthread * th,
                   const pt_zone * z, int emitted)
{
    size_t i;
    if (ordered(r))
    {
        /* the zones below done were looked at already: each open zone
           once, however deep the nesting (linear, not quadratic) */
        for (i = th->done; i < th->depth; i++)
            if (th->v[i].pass && !th->v[i].emitted)
            {
                emit(r, t, &th->v[i].z, 'B');
                th->v[i].emitted = 1;
            }
        th->done = th->depth;
        if (!emitted)
            emit(r, t, z, 'B');
        emit(r, t, z, 'E');
    }
    else if (r->kind == PT_OUT_JSON)
        json_event(r, t, z, 'X', th->depth);
    else
        count_zone(r, th, z);
}

static void on_zone(void * ctx, const pt_trace * t, const pt_zone * z)
{
    pt_report * r = (pt_report *) ctx;
    pt_rthread * th = thread_state(r, z->thread);
    int pass, emitted = 0;
    if (th == NULL)
        return;
    if (z->flags & PT_NO_BEGIN)
    {
        if (!static_pass(r, t, z) || !dynamic_pass(r, t, z))
            return;
        if (ordered(r))
            emit(r, t, z, 'i');
        else if (r->kind == PT_OUT_JSON)
            json_event(r, t, z, 'i', 0);
        else
            count_zone(r, th, z);
        return;
    }
    pt_samples_zone(r->smp, t, z);
    if (th->depth == 0 || th->v[th->depth - 1].z.seq != z->seq)
        return; /* its begin was not seen (out of memory) */
    th->depth--;
    th->done = th->done < th->depth ? th->done : th->depth;
    if (r->fold != NULL)    /* the time filters do not apply */
        pt_folded_add(r->fold, th->v[th->depth].node, z->end - z->begin - z->child);
    pass = th->v[th->depth].pass && dynamic_pass(r, t, z);
    emitted = th->v[th->depth].emitted;
    if (pass)
        passed(r, t, th, z, emitted);
}

/* A sample: kept by the filters of thread and time. */
static void on_sample(void * ctx, const pt_trace * t, const pt_sample * s)
{
    pt_report * r = (pt_report *) ctx;
    int64_t ns = pt_whole_ns(t, s->ticks);
    if (r->smp != NULL && thread_passes(r, t, s->thread) && ns >= r->f.from_ns
        && (r->f.to_ns < 0 || ns <= r->f.to_ns))
        pt_samples_add(r->smp, t, s);
}

/* An annotation: kept by the filters of thread and time; a lock or
   allocation record: for pt_res (trace_res.c), whatever the filters. */
static void on_annot(void * ctx, const pt_trace * t, const pt_annot * a)
{
    pt_report * r = (pt_report *) ctx;
    int64_t ns = pt_whole_ns(t, a->ticks);
    if (a->kind >= PROF_TF_EXT_LOCK_WAIT)
    {
        pt_res_annot(r->res, t, a); /* the zone filters do not apply */
        if (r->kind == PT_OUT_RAW)
            pt_raw_annot(r->out, t, a);
        return;
    }
    if (!thread_passes(r, t, a->thread) || ns < r->f.from_ns
        || (r->f.to_ns >= 0 && ns > r->f.to_ns))
        return;
    if (r->an != NULL)
        pt_annots_add(r->an, t, a);
    else if (r->kind == PT_OUT_JSON || r->kind == PT_OUT_JSON_BE)
        pt_json_annot(r->out, t, a, &r->first);
    else if (r->kind == PT_OUT_RAW)
        pt_raw_annot(r->out, t, a);
    else if (r->kind == PT_OUT_PERFETTO)
        pt_perfetto_annot(r->pf, t, a);
}

pt_handler pt_report_handler(pt_report * r)
{
    pt_handler h;
    pt_handler_init(&h, r);
    h.begin = on_begin;
    h.zone = on_zone;
    h.sample = on_sample;
    h.annot = on_annot;
    return h;
}

pt_report * pt_report_new(FILE * out, pt_output kind, const pt_filter * f,
                          int by_thread)
{
    pt_report * r = (pt_report *) calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->out = out;
    r->kind = kind;
    if (f != NULL)
        r->f = *f;
    else
        r->f.to_ns = -1;
    r->by_thread = by_thread;
    r->first = 1;
    r->hold_begins = r->f.min_duration_ns > 0 || r->f.from_ns > 0;
    if ((kind == PT_OUT_PERFETTO && (r->pf = pt_perfetto_new(out)) == NULL)
        || (kind == PT_OUT_FOLDED && (r->fold = pt_folded_new()) == NULL)
        || (kind == PT_OUT_SPEEDSCOPE && (r->ss = pt_speedscope_new()) == NULL)
        || ((kind == PT_OUT_TEXT || kind == PT_OUT_CSV)
            && (r->an = pt_annots_new()) == NULL)
        || (kind != PT_OUT_JSON && kind != PT_OUT_JSON_BE && kind != PT_OUT_RAW
            && kind != PT_OUT_ALLOC && (r->smp = pt_samples_new(NULL, 1, kind)) == NULL)
        || (r->res = pt_res_new(kind, out, r->pf, &r->first)) == NULL)
    {
        pt_annots_free(r->an);
        pt_samples_free(r->smp);
        pt_speedscope_free(r->ss);
        pt_perfetto_free(r->pf);
        pt_folded_free(r->fold);
        free(r);
        return NULL;
    }
    if (kind == PT_OUT_RAW)
        fputs("thread\ttick\tns\tevent\tkind\tname\n", out);
    return r;
}

void pt_report_samples(pt_report * r, const char * const * binaries,
                       int resolve, int zones_first)
{
    int want = r->smp != NULL;
    pt_samples_free(r->smp);
    r->smp = want ? pt_samples_new(binaries, resolve, r->kind) : NULL;
    r->oom |= want && r->smp == NULL;
    r->zones_first = zones_first;
}

void pt_report_by_value(pt_report * r, int on)
{
    r->by_value = on && r->an != NULL;
}

unsigned long pt_report_thread_matches(const pt_report * r)
{
    return r->f.thread_seen;
}

/* ---- the end: summary tables, names, closing --------------------------------- */

/* Rows v[0..n) (thread index ti's, or all merged: ti < 0). */
static void put_table(pt_report * r, const pt_trace * t, const pt_row * v,
                      size_t n, long ti)
{
    pt_summary_format f = r->kind == PT_OUT_CSV ? PT_SUMMARY_CSV : PT_SUMMARY_TEXT;
    const pt_thread * th = ti >= 0 ? &t->threads[ti] : NULL;
    size_t i;
    if (f == PT_SUMMARY_TEXT && th != NULL)
    {
        fprintf(r->out, "\nthread %u", th->tid);
        if (th->name[0] != '\0')
            fputs(" ", r->out), pt_put_text(r->out, th->name);
        fprintf(r->out, ": %llu events\n", (unsigned long long) r->th[ti].events);
        pt_rows_head(r->out, f, 0);
    }
    for (i = 0; i < n; i++)
    {
        if (f == PT_SUMMARY_CSV && r->by_thread)
        {
            if (th != NULL)
                fprintf(r->out, "%u,", th->tid), pt_put_csv(r->out, th->name);
            else
                fputs("all,", r->out);
            fputc(',', r->out);
        }
        pt_rows_put(r->out, &v[i], 1e9 / t->tick_rate, f);
    }
}

static int filtering(const pt_filter * f)
{
    return f->min_duration_ns > 0 || f->from_ns > 0 || f->to_ns >= 0
           || f->max_depth > 0 || f->name_re != NULL || f->thread_is_tid
           || f->thread_name != NULL;
}

/* The text summary's first line: what its tables count (the zones the
   filters kept, their threads and events), the trace's span and rate. */
static void summary_line(const pt_report * r, const pt_trace * t)
{
    uint64_t zones = 0, events = 0;
    size_t i, threads = 0;
    for (i = 0; i < r->nth; i++)
    {
        zones += r->th[i].zones;
        events += r->th[i].events;
        threads += r->th[i].zones > 0;
    }
    fprintf(r->out, "%llu zones in %zu threads, %llu events, %.6g s traced "
            "(%.6g ticks/s)", (unsigned long long) zones, threads,
            (unsigned long long) events, (double) t->span / t->tick_rate,
            t->tick_rate);
    if (filtering(&r->f))
        fprintf(r->out, "; the filters dropped %llu of %zu zones",
                (unsigned long long) (t->nzones - zones), t->nzones);
    fputs(t->lost ? ", EVENTS LOST\n" : "\n", r->out);
}

static void write_summary(pt_report * r, const pt_trace * t)
{
    pt_row * merged = NULL;
    size_t i, n = r->nrows, k;
    if (r->kind == PT_OUT_TEXT)
        summary_line(r, t);
    pt_rows_head(r->out, r->kind == PT_OUT_CSV ? PT_SUMMARY_CSV : PT_SUMMARY_TEXT,
               r->by_thread);
    if (n > 0 && (merged = (pt_row *) malloc(n * sizeof *merged)) == NULL)
        r->oom = 1;
    if (merged != NULL)
    {
        memcpy(merged, r->rows, n * sizeof *merged);
        for (i = 0; i < n; i++)
            merged[i].thread = 0;
        put_table(r, t, merged, pt_rows_merge(merged, n), -1);
    }
    free(merged);
    if (!r->by_thread)
        return;
    n = pt_rows_merge(r->rows, r->nrows);
    for (i = 0; i < n; i = k)
    {
        for (k = i; k < n && r->rows[k].thread == r->rows[i].thread; k++)
            ;
        put_table(r, t, r->rows + i, k - i, (long) r->rows[i].thread);
    }
}

int pt_report_finish(pt_report * r, const pt_trace * t)
{
    size_t i;
    int rc, samples;
    if (r == NULL)
        return -1;
    samples = t != NULL && pt_samples_count(r->smp) > 0;
    if (t != NULL && r->kind != PT_OUT_TEXT && r->kind != PT_OUT_CSV)
        r->oom |= pt_res_finish(r->res, t) != 0; /* before the JSON's end */
    if (samples && (r->kind == PT_OUT_TEXT || r->kind == PT_OUT_CSV
                    || r->kind == PT_OUT_FOLDED) && !r->zones_first
        && (r->kind != PT_OUT_TEXT || t->nzones == 0))
    {
        if ((r->kind == PT_OUT_FOLDED ? pt_samples_write_folded(r->smp, r->out, t)
             : pt_samples_write_top(r->smp, r->out, t, r->kind == PT_OUT_CSV,
                                    r->by_thread)) != 0)
            r->oom = 1;
    }
    else if (t != NULL && (r->kind == PT_OUT_TEXT || r->kind == PT_OUT_CSV))
    {
        write_summary(r, t);
        if (pt_annots_write(r->an, r->out, t, r->kind == PT_OUT_CSV) != 0)
            r->oom = 1;
        if (samples && r->kind == PT_OUT_TEXT && (fputc('\n', r->out),
            pt_samples_write_top(r->smp, r->out, t, 0, r->by_thread)) != 0)
            r->oom = 1;
    }
    else if (t != NULL && (r->kind == PT_OUT_JSON || r->kind == PT_OUT_JSON_BE))
        pt_json_tail(r->out, &r->first, t);
    else if ((t != NULL && r->kind == PT_OUT_FOLDED
              && pt_folded_write(r->fold, r->out, t) != 0)
             || (t != NULL && r->kind == PT_OUT_SPEEDSCOPE
                 && pt_speedscope_finish(r->ss, r->out, t, r->smp) != 0)
             || (t != NULL && r->kind == PT_OUT_PPROF
                 && pt_pprof_write(r->out, t, r->smp) != 0)
             || (t != NULL && r->kind == PT_OUT_PERFETTO
                 && pt_perfetto_finish(r->pf, t, r->smp) != 0))
        r->oom = 1;
    if (t != NULL && (r->kind == PT_OUT_TEXT || r->kind == PT_OUT_CSV))
        r->oom |= pt_res_finish(r->res, t) != 0; /* after the tables */
    rc = r->oom ? -1 : 0;
    if (r->oom)
        prof_impl_warn("prof-trace: out of memory while writing the report: "
                       "zones were lost");
    pt_perfetto_free(r->pf);
    pt_folded_free(r->fold);
    pt_speedscope_free(r->ss);
    pt_samples_free(r->smp);
    pt_annots_free(r->an);
    pt_res_free(r->res);
    for (i = 0; i < r->nth; i++)
    {
        free(r->th[i].v);
        pt_map_free(&r->th[i].rows, 0);
    }
    free(r->th);
    free(r->rows);
    free(r);
    return rc;
}
