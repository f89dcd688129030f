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

typedef struct { uint32_t thread, rs, weight; } ss_sample;
typedef struct { ss_sample * v; size_t n, cap; int oom; } ss_samples;

static void gather(void * ctx, uint32_t thread, int64_t ticks, uint32_t rs,
                   uint32_t weight)
{
    ss_samples * g = (ss_samples *) ctx;
    (void) ticks;
    if (g->oom || prof_impl_grow(&g->v, &g->cap, g->n + 1, sizeof *g->v) != 0)
    {
        g->oom = 1;
        return;
    }
    g->v[g->n].thread = thread;
    g->v[g->n].rs = rs;
    g->v[g->n++].weight = weight;
}

/* Thread v[0].thread's sampled profile (v[0..n): its samples in time
   order), each stack root first, weighted by the period in ns. */
static void put_profile_of_samples(pt_speedscope * s, FILE * out,
                                   const pt_trace * t, const pt_samples * p,
                                   const ss_sample * v, size_t n)
{
    const pt_thread * th = &t->threads[v[0].thread];
    double ns = pt_samples_period_ns(t), sum = 0;
    char name[80];
    size_t k;
    for (k = 0; k < n; k++)
        sum += v[k].weight;
    if (th->name[0] != '\0')
        snprintf(name, sizeof name, "%s (samples)", th->name);
    else
        snprintf(name, sizeof name, "thread %u (samples)", th->tid);
    fputs("{\"type\":\"sampled\",\"name\":", out);
    prof_impl_json_string(out, name);
    fprintf(out, ",\"unit\":\"%s\",\"startValue\":0,\"endValue\":%.0f,"
            "\"samples\":[", ns > 0 ? "nanoseconds" : "none",
            sum * (ns > 0 ? ns : 1));
    for (k = 0; k < n; k++)
    {
        uint32_t f, nf;
        const uint32_t * fr = pt_samples_stack(p, v[k].rs, &nf);
        fputs(k ? ",[" : "[", out);
        for (f = nf; f-- > 0;)
            fprintf(out, "%s%ld", f + 1 < nf ? "," : "", pt_speedscope_frame(s,
                    pt_samples_function(p, fr[f]), 's'));
        fputc(']', out);
    }
    fputs("],\"weights\":[", out);
    for (k = 0; k < n; k++)
        fprintf(out, "%s%.0f", k ? "," : "",
                (double) v[k].weight * (ns > 0 ? ns : 1));
    fputs("]}", out);
}

/* The samples' profiles, one per thread with samples, after the zones'. */
static void put_sampled(pt_speedscope * s, FILE * out, const pt_trace * t,
                        const pt_samples * p, int first)
{
    ss_samples g = { NULL, 0, 0, 0 };
    size_t i, k;
    pt_samples_each(p, &g, gather);
    s->oom |= g.oom;
    for (i = 0; i < g.n; i = k)
    {
        for (k = i; k < g.n && g.v[k].thread == g.v[i].thread; k++)
            ;
        if (g.v[i].thread >= t->nthreads)
            continue;
        fputs(first ? "" : ",\n", out);
        put_profile_of_samples(s, out, t, p, g.v + i, k - i);
        first = 0;
    }
    free(g.v);
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
