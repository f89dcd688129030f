/*
    The trace reader's zones, names and warnings: see trace_zones.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_zones.h"
#include "internal.h"
#include "trace_format.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- warnings ---------------------------------------------------------------- */

/* The warnings of one kind printed at most. */
static unsigned max_warnings(const pt_state * s)
{
    return s->o->max_warnings_per_kind ? s->o->max_warnings_per_kind
                                       : PT_MAX_WARNINGS;
}

void pt_warn(pt_trace * t, int kind, const char * fmt, ...)
{
    pt_state * s = t->st;
    va_list ap;
    t->warnings++;
    if (++s->wcount[kind] > max_warnings(s) || s->o->warn == NULL)
        return;
    fputs("prof-trace: ", s->o->warn);
    va_start(ap, fmt);
    vfprintf(s->o->warn, fmt, ap);
    va_end(ap);
    fputc('\n', s->o->warn);
}

void pt_warning_totals(const pt_trace * t)
{
    const pt_state * s = t->st;
    unsigned max = max_warnings(s);
    size_t i;
    if (s->o->warn == NULL)
        return;
    for (i = 0; i < W_KINDS; i++)
        if (s->wcount[i] > max)
            fprintf(s->o->warn, "prof-trace: ... and %lu more warnings like "
                    "these\n", s->wcount[i] - max);
    if (t->lost > 0)
        fprintf(s->o->warn, "prof-trace: %llu events were lost by the "
                "recorder: zones around them may be marked unmatched\n",
                (unsigned long long) t->lost);
}

/* ---- time ------------------------------------------------------------------- */

int64_t pt_rel_ticks(const pt_state * s, uint64_t ticks61)
{
    uint64_t d = (ticks61 - s->start61) & PROF_TF_TICK_MASK;
    /* a little before the start (another core's counter): clamp to 0 */
    return d >= (UINT64_C(1) << (PROF_TF_TICK_BITS - 1)) ? 0 : (int64_t) d;
}


/* ---- names ----------------------------------------------------------------- */

static const char * made_text(pt_state * s, uint64_t key, unsigned cls,
                              const char * text)
{
    void ** slot = pt_map_find(&s->made, key * 4 + cls, 1);
    if (slot == NULL)
    {
        s->oom = 1;
        return "?";
    }
    if (*slot == NULL)
    {
        *slot = prof_impl_strdup(text);
        if (*slot == NULL)
        {
            s->oom = 1;
            return "?";
        }
        s->made.n++;
    }
    return (const char *) *slot;
}

static const char * made_name(pt_state * s, uint64_t key, unsigned cls,
                              const char * fmt)
{
    char buf[64];
    snprintf(buf, sizeof buf, fmt, (unsigned long long) key);
    return made_text(s, key, cls, buf);
}

/* The label string of key, or NULL if the file has none. */
static const char * label_of(pt_state * s, uint64_t key)
{
    void ** v = pt_map_find(&s->strings, key, 0);
    return v != NULL ? (const char *) *v : NULL;
}

static const char * code_name(pt_trace * t, uint64_t key)
{
    pt_state * s = t->st;
    const char * name = NULL;
    char buf[1200];
    void ** slot = pt_map_find(&s->names, key, 0);
    if (slot != NULL)
        return (const char *) *slot;
    if (s->o->resolve_symbols && s->syms != NULL)
        name = pt_symbols_name(s->syms, key);
    if (name == NULL && pt_symbols_place(s->syms, key, buf, sizeof buf) == 0)
        name = made_text(s, key, 2, buf);   /* module+0xOFFSET */
    if (name == NULL)
        name = made_name(s, key, 2, "0x%llx");
    slot = pt_map_find(&s->names, key, 1);
    if (slot != NULL)
    {
        *slot = (void *) name;
        s->names.n++;
    }
    else
        s->oom = 1;
    return name;
}

static const char * zone_name(pt_trace * t, uint64_t key, unsigned cls)
{
    const char * name;
    if (cls == 2)
        return code_name(t, key);
    if (key == 0)
        return "(null)";
    name = label_of(t->st, key);
    if (name != NULL)
        return name;
    pt_warn(t, W_STRING, "no string for the label at 0x%llx (its chunk is "
            "lost); named by its address", (unsigned long long) key);
    return made_name(t->st, key, cls, "label@0x%llx");
}

const char * pt_label_name(pt_trace * t, uint64_t key)
{
    return zone_name(t, key, 0);
}

/* ---- zones ------------------------------------------------------------------ */

pt_tstate * pt_thread_of(pt_trace * t, uint32_t tid, size_t * index)
{
    pt_state * s = t->st;
    void ** slot = pt_map_find(&s->tids, tid, 1);
    size_t i;
    if (slot == NULL)
    {
        s->oom = 1;
        return NULL;
    }
    if (*slot == NULL)
    {
        if (prof_impl_grow(&t->threads, &s->tcap, t->nthreads + 1, sizeof *t->threads) != 0
            || prof_impl_grow(&s->ts, &s->tscap, t->nthreads + 1, sizeof *s->ts) != 0)
        {
            s->oom = 1;
            return NULL;
        }
        i = t->nthreads++;
        memset(&t->threads[i], 0, sizeof t->threads[i]);
        memset(&s->ts[i], 0, sizeof s->ts[i]);
        t->threads[i].tid = tid;
        t->threads[i].pid = t->pid;
        *slot = (void *) (size_t) (i + 1);
        s->tids.n++;
    }
    i = (size_t) *slot - 1;
    *index = i;
    return &s->ts[i];
}

static const char kinds[3] = { PT_KIND_ZONE, PT_KIND_FUNC, PT_KIND_INSTRUMENT };

static void zone_init(pt_trace * t, pt_zone * z, size_t thread, unsigned cls,
                      uint64_t key, int64_t begin, size_t depth)
{
    z->thread = (uint32_t) thread;
    z->kind = kinds[cls];
    z->flags = 0;
    z->depth = (uint16_t) (depth > 65535 ? 65535 : depth);
    z->name = zone_name(t, key, cls);
    z->begin = z->end = begin;
    z->child = 0;
    z->seq = t->nzones++;
    z->vflags = 0;
    z->ivalue = 0;
    z->value = 0;
    z->text = NULL;
}

static int zone_begin(pt_trace * t, pt_tstate * ts, size_t thread, unsigned cls,
                      uint64_t key, int64_t now)
{
    pt_state * s = t->st;
    pt_open * o;
    if (prof_impl_grow(&ts->stack, &ts->cap, ts->depth + 1, sizeof *ts->stack) != 0)
    {
        s->oom = 1;
        return -1;
    }
    o = &ts->stack[ts->depth++];
    o->key = key;
    o->cls = (uint8_t) cls;
    zone_init(t, &o->z, thread, cls, key, now, ts->depth - 1);
    if (s->h.begin != NULL)
        s->h.begin(s->h.ctx, t, &o->z);
    return 0;
}

/* Close the innermost open zone of thread ts at time `end`. */
static void zone_pop(pt_trace * t, pt_tstate * ts, int64_t end, uint8_t flag)
{
    pt_state * s = t->st;
    pt_zone * z = &ts->stack[--ts->depth].z;
    z->end = end < z->begin ? z->begin : end;
    z->flags |= flag;
    if (ts->depth > 0)
        ts->stack[ts->depth - 1].z.child = pt_add_ticks(
            ts->stack[ts->depth - 1].z.child, z->end - z->begin);
    if (s->h.zone != NULL)
        s->h.zone(s->h.ctx, t, z);
}

static int same_zone(pt_state * s, const pt_open * o, unsigned cls, uint64_t key)
{
    const char * a, * b;
    if (o->cls != cls)
        return 0;
    if (o->key == key)
        return 1;
    if (cls == 2)
        return 0;
    /* the same text at two addresses (two translation units) */
    a = label_of(s, o->key);
    b = label_of(s, key);
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* An end: closes the innermost open zone of that name (a few levels down;
   the zones above it are flagged), or makes a zone with no begin. */
static void zone_end(pt_trace * t, pt_tstate * ts, size_t ti, unsigned cls,
                     uint64_t key, int64_t now)
{
    pt_state * s = t->st;
    size_t i, lim = ts->depth > 256 ? ts->depth - 256 : 0;
    pt_zone z;
    for (i = ts->depth; i > lim; i--)
        if (same_zone(s, &ts->stack[i - 1], cls, key))
            break;
    if (i > lim)
    {
        while (ts->depth > i)
        {
            pt_warn(t, W_MATCH, "thread %u: '%s' has no end; closed at the "
                    "end of '%s' (marked *)", t->threads[ti].tid,
                    ts->stack[ts->depth - 1].z.name, zone_name(t, key, cls));
            zone_pop(t, ts, now, PT_NO_END);
        }
        zone_pop(t, ts, now, 0);
        return;
    }
    pt_warn(t, W_MATCH, "thread %u: end of '%s' without a begin%s%s%s "
            "(marked *)", t->threads[ti].tid, zone_name(t, key, cls),
            ts->depth ? " (innermost open: '" : "",
            ts->depth ? ts->stack[ts->depth - 1].z.name : "",
            ts->depth ? "')" : "");
    zone_init(t, &z, ti, cls, key, now, ts->depth);
    z.flags = PT_NO_BEGIN;
    if (s->h.zone != NULL)
        s->h.zone(s->h.ctx, t, &z);
}

void pt_on_event(pt_trace * t, pt_tstate * ts, size_t ti, uint64_t ticks61,
                 unsigned type, uint64_t key)
{
    int64_t now = pt_rel_ticks(t->st, ticks61);
    if (type > 5)
    {
        pt_warn(t, W_EVENT, "thread %u: event of unknown type %u ignored",
                t->threads[ti].tid, type);
        return;
    }
    t->events++;
    t->threads[ti].events++;
    if (now < ts->last)
    {
        pt_warn(t, W_ORDER, "thread %u: time goes back by %lld ticks",
                t->threads[ti].tid, (long long) (ts->last - now));
        now = ts->last; /* keep the zones well formed */
    }
    ts->last = now;
    if (now > t->span)
        t->span = now;
    if (type % 2 == 0)
        (void) zone_begin(t, ts, ti, type / 2, key, now);
    else
        zone_end(t, ts, ti, type / 2, key, now);
}

void pt_close_open_zones(pt_trace * t)
{
    pt_state * s = t->st;
    size_t i;
    for (i = 0; i < t->nthreads; i++)
    {
        pt_tstate * ts = &s->ts[i];
        while (ts->depth > 0)
        {
            pt_warn(t, W_MATCH, "thread %u: '%s' still open at the end of the "
                    "trace (marked *)", t->threads[i].tid,
                    ts->stack[ts->depth - 1].z.name);
            zone_pop(t, ts, t->span, PT_NO_END);
        }
    }
}

void pt_state_release(pt_trace * t)
{
    pt_state * s = t->st;
    size_t i;
    for (i = 0; i < t->nthreads; i++)
    {
        free(s->ts[i].stack);
        free(s->ts[i].ids);
        free(s->ts[i].ext_words);
    }
    pt_map_free(&s->texts, 1);
    free(s->ts);
    pt_map_free(&s->strings, 1);
    pt_map_free(&s->names, 0);
    pt_map_free(&s->made, 1);
    pt_map_free(&s->tids, 0);
    pt_symbols_free(s->syms);
}
