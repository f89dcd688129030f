/*
    prof-trace --speedscope: speedscope's own file format (its
    file-format-schema.json), one "evented" profile per thread: the zones'
    open (O) and close (C) events in the order they happened, at whole
    nanoseconds since the start, each naming a frame of the shared list;
    then one "sampled" profile per thread of a sampled trace: its samples
    in time order, each weighted by its period in ns (CPU time, no
    timeline), the functions frames of the same list. A
    viewer reads the events in their order, so zones that end on the same
    nanosecond as their parent close in the right order by construction.
    Events are kept per thread (16 bytes each) and written at the end,
    since a profile is one JSON array and the trace interleaves threads.
    SPDX-License-Identifier: MIT
*/
#include "trace_speedscope.h"
#include "trace_map.h"
#include "trace_samples.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct { int64_t at; uint32_t frame; uint32_t close; } ss_event;
typedef struct { ss_event * v; size_t n, cap; } ss_thread;

struct pt_speedscope
{
    ss_thread * th;
    size_t nth, thcap;
    const char ** frames;
    size_t nframes, framecap;
    pt_map index;           /* name pointer << 8 | kind -> frame + 1 */
    int oom;
};

pt_speedscope * pt_speedscope_new(void)
{
    return (pt_speedscope *) calloc(1, sizeof(pt_speedscope));
}

long pt_speedscope_frame(pt_speedscope * s, const char * name, char kind)
{
    uint64_t key = (uint64_t) (size_t) name << 8 | (unsigned char) kind;
    void ** slot = pt_map_find(&s->index, key, 1);
    if (slot == NULL)
        return s->oom = 1, 0;
    if (*slot == NULL)
    {
        if (prof_impl_grow(&s->frames, &s->framecap, s->nframes + 1,
                           sizeof *s->frames) != 0)
            return s->oom = 1, 0;
        s->frames[s->nframes++] = name;
        *slot = (void *) s->nframes;
        s->index.n++;
    }
    return (long) ((size_t) *slot - 1);
}

void pt_speedscope_event(pt_speedscope * s, const pt_trace * t,
                         const pt_zone * z, char what)
{
    ss_thread * th;
    long frame;
    if (what != 'B' && what != 'E')
        return;                 /* an end without a begin: no frame */
    if (z->thread >= s->nth)
    {
        if (prof_impl_grow(&s->th, &s->thcap, (size_t) z->thread + 1,
                           sizeof *s->th) != 0)
        {
            s->oom = 1;
            return;
        }
        memset(s->th + s->nth, 0, (z->thread + 1 - s->nth) * sizeof *s->th);
        s->nth = (size_t) z->thread + 1;
    }
    th = &s->th[z->thread];
    frame = pt_speedscope_frame(s, z->name, z->kind);
    if (s->oom || prof_impl_grow(&th->v, &th->cap, th->n + 1,
                                    sizeof *th->v) != 0)
    {
        s->oom = 1;
        return;
    }
    th->v[th->n].at = pt_whole_ns(t, what == 'B' ? z->begin : z->end);
    th->v[th->n].frame = (uint32_t) frame;
    th->v[th->n++].close = what == 'E';
}

static void put_profile(FILE * out, const pt_trace * t, size_t i,
                        const ss_thread * th)
{
    char def[32];
    size_t k;
    snprintf(def, sizeof def, "thread %u", t->threads[i].tid);
    fputs("{\"type\":\"evented\",\"name\":", out);
    prof_impl_json_string(out, t->threads[i].name[0] ? t->threads[i].name : def);
    fprintf(out, ",\"unit\":\"nanoseconds\",\"startValue\":%lld,"
            "\"endValue\":%lld,\"events\":[", (long long) th->v[0].at,
            (long long) th->v[th->n - 1].at);
    for (k = 0; k < th->n; k++)
        fprintf(out, "%s{\"type\":\"%c\",\"frame\":%u,\"at\":%lld}",
                k ? "," : "", th->v[k].close ? 'C' : 'O', th->v[k].frame,
                (long long) th->v[k].at);
    fputs("]}", out);
}

/* One pass over a thread's samples: their stacks (frames root first),
   or their weights in ns, comma separated. */
typedef struct
{
    pt_speedscope * s;
    FILE * out;
    pt_samples * p;
    double ns;
    int stacks;
    size_t k;
} ss_pass;

static void put_one(void * ctx, uint32_t thread, int64_t ticks, uint32_t rs,
                    uint32_t weight)
{
    ss_pass * c = (ss_pass *) ctx;
    (void) thread;
    (void) ticks;
    if (c->stacks)
    {
        uint32_t f, nf;
        const uint32_t * fr = pt_samples_stack(c->p, rs, &nf);
        fputs(c->k ? ",[" : "[", c->out);
        for (f = nf; f-- > 0;)
            fprintf(c->out, "%s%ld", f + 1 < nf ? "," : "", pt_speedscope_frame(
                    c->s, pt_samples_function(c->p, fr[f]), 's'));
        fputc(']', c->out);
    }
    else
        fprintf(c->out, "%s%.0f", c->k ? "," : "",
                (double) weight * (c->ns > 0 ? c->ns : 1));
    c->k++;
}

/* Thread ti's sampled profile (its samples in time order), each stack
   root first, weighted by the period in ns. */
static void put_profile_of_samples(pt_speedscope * s, FILE * out,
                                   const pt_trace * t, pt_samples * p,
                                   uint32_t ti)
{
    const pt_thread * th = &t->threads[ti];
    ss_pass c;
    char name[80];
    c.s = s;
    c.out = out;
    c.p = p;
    c.ns = pt_samples_period_ns(t);
    if (th->name[0] != '\0')
        snprintf(name, sizeof name, "%s (samples)", th->name);
    else
        snprintf(name, sizeof name, "thread %u (samples)", th->tid);
    fputs("{\"type\":\"sampled\",\"name\":", out);
    prof_impl_json_string(out, name);
    fprintf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%.0f,"
            "\"samples\":[", c.ns > 0 ? "nanoseconds" : "none",
            (double) pt_samples_of(p, ti) * (c.ns > 0 ? c.ns : 1));
    for (c.stacks = 1; c.stacks >= 0; c.stacks--)
    {
        c.k = 0;
        s->oom |= pt_samples_each_of(p, ti, &c, put_one) != 0;
        fputs(c.stacks ? "],\"weights\":[" : "]}", out);
    }
}

/* The samples' profiles, one per thread with samples, after the zones'. */
static void put_sampled(pt_speedscope * s, FILE * out, const pt_trace * t,
                        pt_samples * p, int first)
{
    size_t i;
    for (i = 0; i < t->nthreads; i++)
        if (pt_samples_of(p, (uint32_t) i) > 0)
        {
            fputs(first ? "" : ",\n", out);
            put_profile_of_samples(s, out, t, p, (uint32_t) i);
            first = 0;
        }
}

int pt_speedscope_finish(pt_speedscope * s, FILE * out, const pt_trace * t,
                         pt_samples * p)
{
    size_t i;
    int first = 1;
    fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
          "\"exporter\":\"prof-trace\",\"name\":", out);
    prof_impl_json_string(out, t->process[0] ? t->process : "traced program");
    fputs(",\"activeProfileIndex\":0,\"profiles\":[\n", out);
    for (i = 0; i < s->nth && i < t->nthreads; i++)
        if (s->th[i].n > 0)
        {
            fputs(first ? "" : ",\n", out);
            put_profile(out, t, i, &s->th[i]);
            first = 0;
        }
    put_sampled(s, out, t, p, first);
    fputs("\n],\"shared\":{\"frames\":[", out);
    for (i = 0; i < s->nframes; i++)
    {
        fputs(i ? ",{\"name\":" : "{\"name\":", out);
        prof_impl_json_string(out, s->frames[i]);
        fputc('}', out);
    }
    fputs("]}}\n", out);
    return s->oom ? -1 : 0;
}

void pt_speedscope_free(pt_speedscope * s)
{
    size_t i;
    if (s == NULL)
        return;
    for (i = 0; i < s->nth; i++)
        free(s->th[i].v);
    free(s->th);
    free(s->frames);
    pt_map_free(&s->index, 0);
    free(s);
}
