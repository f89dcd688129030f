/*
    The zone of each sample, while the trace streams: see
    trace_sample_zones.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_sample_zones.h"
#include "trace_log.h"
#include "trace_sums.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct { int64_t begin; const char * name; uint64_t seq; char kind; } sz_open;
typedef struct { int64_t begin, end; const char * name; uint16_t depth; char kind; } sz_ended;
typedef struct { int64_t ticks; uint32_t fn, weight; } sz_wait;
typedef struct { const char * name; char kind; } sz_name;
typedef struct { long off; size_t n; } sz_seg;   /* in the spill file */

/* Samples waiting in memory, in all threads, past which a thread's newer
   ones go to a temporary file, SZ_BLOCK at a time. */
#define SZ_WAIT_MEM ((size_t) 1 << 18)
#define SZ_BLOCK 4096

typedef struct
{
    sz_open * open;         /* the zones begun and not ended, outermost first */
    size_t depth, ocap;
    sz_ended * z;           /* zones kept after they ended, in the order */
    size_t zh, nz, zcap;    /* they ended, from z[zh] */
    sz_wait * q;            /* samples at or after the frontier, from q[qh], */
    size_t qh, nq, qcap;
    sz_seg * seg;           /* then those in the spill file, from seg[sh], */
    size_t sh, nseg, segcap;
    sz_wait * b;            /* then the newest, b[0..nb): waiting in order */
    size_t nb, bcap;
    int64_t frontier;       /* the latest tick of its zone events read */
    int64_t last;           /* its latest sample's tick, if seen */
    int seen;
} sz_thread;

struct pt_sz
{
    pt_sums leaves;         /* weight per zone << 32 | leaf function */
    sz_name * zn;           /* the zones' names, zn[0] none (outside) */
    size_t nzn, zncap;
    pt_map znidx;           /* name and kind (probed) -> zn */
    int oom;
    sz_thread * th;
    size_t nth, thcap;
    size_t zkept;           /* zones kept in all threads */
    int zover;              /* more than PT_ZONES_KEPT: none kept since */
    size_t inmem;           /* samples waiting in memory, all threads */
    pt_spill spill;         /* the samples waiting beyond SZ_WAIT_MEM
                               (failed: they wait in memory) */
    int no_zones;           /* the trace says it has none */
};

pt_sz * pt_sz_new(void)
{
    pt_sz * p = (pt_sz *) calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    if (prof_impl_grow(&p->zn, &p->zncap, 1, sizeof *p->zn) != 0)
    {
        free(p);
        return NULL;
    }
    p->zn[0].name = NULL;
    p->zn[p->nzn++].kind = 0;
    return p;
}

void pt_sz_free(pt_sz * p)
{
    size_t i;
    if (p == NULL)
        return;
    for (i = 0; i < p->nth; i++)
    {
        free(p->th[i].open);
        free(p->th[i].z);
        free(p->th[i].q);
        free(p->th[i].seg);
        free(p->th[i].b);
    }
    pt_spill_close(&p->spill);
    free(p->th);
    pt_sums_free(&p->leaves);
    free(p->zn);
    pt_map_free(&p->znidx, 0);
    free(p);
}

static sz_thread * thread_of(pt_sz * p, uint32_t thread)
{
    size_t i;
    if (thread >= p->nth)
    {
        if (prof_impl_grow(&p->th, &p->thcap, (size_t) thread + 1,
                           sizeof *p->th) != 0)
            return NULL;
        memset(p->th + p->nth, 0, (thread + 1 - p->nth) * sizeof *p->th);
        for (i = p->nth; i <= thread; i++)
            p->th[i].frontier = p->no_zones ? INT64_MAX : INT64_MIN;
        p->nth = (size_t) thread + 1;
    }
    return &p->th[thread];
}

/* The number of zone name (of that kind) in p->zn, made on first use;
   UINT32_MAX if out of memory. The same name at two addresses gets two:
   the table merges them. */
static uint32_t zone_of(pt_sz * p, const char * name, char kind)
{
    uint64_t key = ((uint64_t) (uintptr_t) name ^ (unsigned char) kind)
                   * UINT64_C(0x9E3779B97F4A7C15);
    for (;; key++)
    {
        void ** slot = pt_map_find(&p->znidx, key, 1);
        if (slot == NULL)
            return UINT32_MAX;
        if (*slot != NULL)
        {
            const sz_name * z = &p->zn[(size_t) *slot];
            if (z->name == name && z->kind == kind)
                return (uint32_t) (size_t) *slot;
            continue;   /* another zone of the same hash: the next key */
        }
        if (p->nzn >= UINT32_MAX - 1
            || prof_impl_grow(&p->zn, &p->zncap, p->nzn + 1, sizeof *p->zn) != 0)
            return UINT32_MAX;
        p->zn[p->nzn].name = name;
        p->zn[p->nzn].kind = kind;
        *slot = (void *) p->nzn++;
        p->znidx.n++;
        return (uint32_t) (p->nzn - 1);
    }
}

/* Weight of leaf function fn in zone name (NULL: outside the zones). */
static void add_leaf(pt_sz * p, const char * name, char kind, uint32_t fn,
                     uint32_t weight)
{
    uint32_t z = name != NULL ? zone_of(p, name, kind) : 0;
    if (z == UINT32_MAX
        || pt_sums_add(&p->leaves, (uint64_t) z << 32 | fn, weight) != 0)
        p->oom = 1;
}

/* The innermost zone kept in th that holds ticks; the zones that ended
   before it go (a thread's samples are named in time order). The zones
   are in the order they ended, so those that hold ticks nest, the
   innermost first, and an outermost zone that begins after ticks ends the
   search. */
static const sz_ended * ended_zone(pt_sz * p, sz_thread * th, int64_t ticks)
{
    size_t i, h = th->zh;
    while (th->zh < th->nz && th->z[th->zh].end <= ticks)
        th->zh++;
    p->zkept -= th->zh - h;
    if (th->zh > 4096 && th->zh * 2 > th->nz)
    {
        memmove(th->z, th->z + th->zh, (th->nz - th->zh) * sizeof *th->z);
        th->nz -= th->zh;
        th->zh = 0;
    }
    for (i = th->zh; i < th->nz; i++)
        if (th->z[i].begin <= ticks)
            return &th->z[i];
        else if (th->z[i].depth == 0)
            break;
    return NULL;
}

/* A sample whose zone is known now (no zone event of its thread at or
   before its tick is still to come): the innermost ended zone kept that
   holds it, else the innermost open zone begun by then. A zone that holds
   it and ended lies inside every open one that holds it. */
static void name_sample(pt_sz * p, sz_thread * th, int64_t ticks, uint32_t fn,
                        uint32_t weight)
{
    const sz_ended * e = p->zover ? NULL : ended_zone(p, th, ticks);
    size_t i = th->depth;
    if (e != NULL)
    {
        add_leaf(p, e->name, e->kind, fn, weight);
        return;
    }
    while (i > 0 && th->open[i - 1].begin > ticks)
        i--;
    if (i > 0 && !p->zover)
        add_leaf(p, th->open[i - 1].name, th->open[i - 1].kind, fn, weight);
    else
        add_leaf(p, NULL, 0, fn, weight);
}

static int waiting(const sz_thread * th)
{
    return th->qh < th->nq || th->sh < th->nseg || th->nb > 0;
}

/* th's b to the spill file (opened the first time), if it can be. */
static void spill(pt_sz * p, sz_thread * th)
{
    if (prof_impl_grow(&th->seg, &th->segcap, th->nseg + 1, sizeof *th->seg) != 0
        || pt_spill_put(&p->spill, th->b, sizeof *th->b, th->nb,
                        &th->seg[th->nseg].off) != 0)
    {
        p->spill.failed = 1;    /* b grows in memory from now on */
        return;
    }
    th->seg[th->nseg++].n = th->nb;
    p->inmem -= th->nb;
    th->nb = 0;
}

/* A sample to wait at the end of th's queue. 0, or -1 if out of memory. */
static int wait_push(pt_sz * p, sz_thread * th, const sz_wait * w)
{
    if (!waiting(th) || (th->sh == th->nseg && th->nb == 0 && p->inmem < SZ_WAIT_MEM))
    {
        if (prof_impl_grow(&th->q, &th->qcap, th->nq + 1, sizeof *th->q) != 0)
            return -1;
        th->q[th->nq++] = *w;
    }
    else
    {
        if (prof_impl_grow(&th->b, &th->bcap, th->nb + 1, sizeof *th->b) != 0)
            return -1;
        th->b[th->nb++] = *w;
    }
    p->inmem++;
    if (th->nb >= SZ_BLOCK && !p->spill.failed)
        spill(p, th);
    return 0;
}

/* th's queue empty in memory: the next of its samples waiting there. 1 if
   there are some; a part the file cannot give back is lost (p->oom). */
static int refill(pt_sz * p, sz_thread * th)
{
    sz_wait * swap;
    size_t cap;
    th->qh = th->nq = 0;
    while (th->sh < th->nseg)
    {
        const sz_seg * g = &th->seg[th->sh++];
        if (prof_impl_grow(&th->q, &th->qcap, g->n, sizeof *th->q) != 0
            || pt_spill_get(&p->spill, g->off, th->q, sizeof *th->q, g->n) != 0)
        {
            p->oom = 1;
            continue;
        }
        th->nq = g->n;
        p->inmem += g->n;
        return 1;
    }
    th->sh = th->nseg = 0;
    if (th->nb == 0)
        return 0;
    swap = th->q, th->q = th->b, th->b = swap;
    cap = th->qcap, th->qcap = th->bcap, th->bcap = cap;
    th->nq = th->nb;
    th->nb = 0;
    return 1;
}

/* The waiting samples of th that the frontier has passed. */
static void drain(pt_sz * p, sz_thread * th)
{
    do
        while (th->qh < th->nq && (th->q[th->qh].ticks < th->frontier
                                   || th->frontier == INT64_MAX))
        {
            const sz_wait * w = &th->q[th->qh++];
            p->inmem--;
            name_sample(p, th, w->ticks, w->fn, w->weight);
        }
    while (th->qh == th->nq && refill(p, th));
    if (th->qh > 4096 && th->qh * 2 > th->nq)
    {
        memmove(th->q, th->q + th->qh, (th->nq - th->qh) * sizeof *th->q);
        th->nq -= th->qh;
        th->qh = 0;
    }
}

static void advance(pt_sz * p, sz_thread * th, int64_t ticks)
{
    if (ticks > th->frontier)
        th->frontier = ticks;
    drain(p, th);
}

int pt_sz_sample(pt_sz * p, uint32_t thread, int64_t ticks, uint32_t fn,
                 uint32_t weight)
{
    sz_thread * th = thread_of(p, thread);
    sz_wait w;
    if (th == NULL)
        return -1;
    th->seen = 1;
    th->last = ticks;
    if (!waiting(th) && (ticks < th->frontier || p->zover))
    {
        name_sample(p, th, ticks, fn, weight);
        return p->oom ? -1 : 0;
    }
    w.ticks = ticks;
    w.fn = fn;
    w.weight = weight;
    return wait_push(p, th, &w);
}

int pt_sz_begin(pt_sz * p, const pt_zone * z)
{
    sz_thread * th = thread_of(p, z->thread);
    sz_open * o;
    if (th == NULL)
        return -1;
    advance(p, th, z->begin);
    if (prof_impl_grow(&th->open, &th->ocap, th->depth + 1, sizeof *th->open) != 0)
        return -1;
    o = &th->open[th->depth++];
    o->begin = z->begin;
    o->name = z->name;
    o->seq = z->seq;
    o->kind = z->kind;
    return 0;
}

/* Every sample waiting named now, and those to come at once (the end of
   the trace, or no zones to wait for). */
static void name_all(pt_sz * p)
{
    size_t i;
    for (i = 0; i < p->nth; i++)
    {
        p->th[i].frontier = INT64_MAX;
        drain(p, &p->th[i]);
    }
}

/* Too many zones kept: keep none from now on (the report says so); the
   samples waiting are named outside them. */
static void forget_zones(pt_sz * p)
{
    size_t i;
    p->zover = 1;
    name_all(p);
    for (i = 0; i < p->nth; i++)
    {
        free(p->th[i].z);
        p->th[i].z = NULL;
        p->th[i].zh = p->th[i].nz = p->th[i].zcap = 0;
    }
}

int pt_sz_end(pt_sz * p, const pt_zone * z)
{
    sz_thread * th = thread_of(p, z->thread);
    size_t i;
    sz_ended * e;
    if (th == NULL)
        return -1;
    for (i = th->depth; i > 0 && th->open[i - 1].seq != z->seq; i--)
        ;
    if (i > 0)      /* those above it were ended without a call: gone too */
        th->depth = i - 1;
    if (p->zover)
        return 0;
    if (prof_impl_grow(&th->z, &th->zcap, th->nz + 1, sizeof *th->z) != 0)
        return -1;
    e = &th->z[th->nz++];
    e->begin = z->begin;
    e->end = z->end;
    e->name = z->name;
    e->depth = z->depth;
    e->kind = z->kind;
    p->zkept++;
    advance(p, th, z->end);
    if (th->seen && th->last >= z->end)
    {   /* the samples not named yet are at or after its end (those still
           waiting are past the frontier): none can be in it, nor in a
           zone kept before it (they ended before) */
        p->zkept -= th->nz - th->zh;
        th->zh = th->nz = 0;
    }
    else if (p->zkept > PT_ZONES_KEPT)
        forget_zones(p);
    return 0;
}

void pt_sz_no_zones(pt_sz * p)
{
    if (p->no_zones)
        return;
    p->no_zones = 1;
    name_all(p);
}

/* ---- the table ------------------------------------------------------------------- */

typedef struct { const char * zone; char kind; uint32_t fn; uint64_t w; } zs_t;
typedef struct { size_t first, n; uint64_t w; } zgroup_t;

static int zname_cmp(const zs_t * x, const zs_t * y)
{
    int c;
    if (x->zone == NULL || y->zone == NULL)
        return (x->zone != NULL) - (y->zone != NULL);
    c = strcmp(x->zone, y->zone);
    return c != 0 ? c : (x->kind > y->kind) - (x->kind < y->kind);
}

static int cmp_zs(const void * a, const void * b)
{
    const zs_t * x = (const zs_t *) a, * y = (const zs_t *) b;
    int c = zname_cmp(x, y);
    return c != 0 ? c : (x->fn > y->fn) - (x->fn < y->fn);
}

static int cmp_zs_weight(const void * a, const void * b)
{
    const zs_t * x = (const zs_t *) a, * y = (const zs_t *) b;
    return x->w != y->w ? (x->w < y->w ? 1 : -1) : (x->fn > y->fn) - (x->fn < y->fn);
}

static int cmp_group(const void * a, const void * b)
{
    const zgroup_t * x = (const zgroup_t *) a, * y = (const zgroup_t *) b;
    return x->w != y->w ? (x->w < y->w ? 1 : -1) : (x->first > y->first) - (x->first < y->first);
}

/* The samples' (zone, leaf function, weight), merged by zone and function:
   *n entries; NULL if out of memory (or none). */
static zs_t * zone_leaves(const pt_sz * p, size_t * n)
{
    size_t i, m = p->leaves.n;
    zs_t * e;
    *n = 0;
    if (m == 0 || (e = (zs_t *) malloc(m * sizeof *e)) == NULL)
        return NULL;
    for (i = 0; i < m; i++)
    {
        const sz_name * z = &p->zn[p->leaves.v[i].key >> 32];
        e[i].zone = z->name;
        e[i].kind = z->kind;
        e[i].fn = (uint32_t) p->leaves.v[i].key;
        e[i].w = p->leaves.v[i].w;
    }
    qsort(e, m, sizeof *e, cmp_zs);
    for (i = 0; i < m; i++)
        if (*n > 0 && cmp_zs(&e[*n - 1], &e[i]) == 0)
            e[*n - 1].w += e[i].w;
        else
            e[(*n)++] = e[i];
    return e;
}

/* "N samples (P%) in zone NAME: P% f, P% g" a zone, most samples first;
   the samples outside every zone last among equals. */
static int put_zones(const pt_sz * p, FILE * out, const char * const * fn,
                     uint64_t weight, void (*put)(FILE * out, const char * s))
{
    size_t n, i, k, ng = 0;
    zs_t * e = zone_leaves(p, &n);
    zgroup_t * g = (zgroup_t *) malloc((n + 1) * sizeof *g);
    if (e == NULL || g == NULL)
        return free(e), free(g), n > 0 || weight > 0 ? -1 : 0;
    for (i = 0; i < n; i = k)
    {
        g[ng].first = i;
        g[ng].w = 0;
        for (k = i; k < n && zname_cmp(&e[i], &e[k]) == 0; k++)
            g[ng].w += e[k].w;
        g[ng].n = k - i;
        qsort(e + i, k - i, sizeof *e, cmp_zs_weight);
        ng++;
    }
    qsort(g, ng, sizeof *g, cmp_group);
    fputs("\nsamples by zone (the innermost zone open at each sample; its "
          "functions by self samples):\n", out);
    for (i = 0; i < ng; i++)
    {
        const zs_t * z = &e[g[i].first];
        fprintf(out, "%10llu %6.1f%%  %s", (unsigned long long) g[i].w,
                100.0 * (double) g[i].w / (double) weight,
                z->zone != NULL ? "zone " : "outside the zones");
        if (z->zone != NULL)
            put(out, z->zone);
        for (k = 0; k < g[i].n && k < PT_ZONE_FUNCTIONS; k++)
        {
            fprintf(out, "%s %.1f%% ", k ? "," : ":",
                    100.0 * (double) z[k].w / (double) g[i].w);
            put(out, fn[z[k].fn]);
        }
        fputc('\n', out);
    }
    free(e);
    free(g);
    return 0;
}

int pt_sz_write(pt_sz * p, FILE * out, const char * const * fn,
                uint64_t weight, void (*put)(FILE * out, const char * s))
{
    size_t i;
    int zones = 0;
    name_all(p);   /* the end of the trace */
    for (i = 0; !zones && i < p->leaves.n; i++)
        zones = p->leaves.v[i].key >> 32 != 0;
    if (p->zover)
        fprintf(out, "\nsamples by zone: not reported: more than %d zones "
                "ended before the samples of their time were read\n",
                PT_ZONES_KEPT);
    else if (zones && put_zones(p, out, fn, weight, put) != 0)
        return -1;
    return p->oom ? -1 : 0;
}

int pt_sz_each(pt_sz * p, void * ctx, pt_sz_each_fn each)
{
    size_t i;
    name_all(p);   /* the end of the trace */
    for (i = 0; i < p->leaves.n; i++)
    {
        const sz_name * z = &p->zn[p->leaves.v[i].key >> 32];
        each(ctx, z->name, z->kind, (uint32_t) p->leaves.v[i].key,
             p->leaves.v[i].w);
    }
    return p->oom ? -1 : 0;
}
