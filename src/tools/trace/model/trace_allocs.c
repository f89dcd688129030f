/*
    prof-trace's allocations (see trace_locks.h): PROF_ALLOC / PROF_FREE
    and libprofiler-alloc.a's records, kept as they come with the zone
    open on their thread, then replayed in time order (ties in the order
    read): live blocks by address, per allocating zone the allocations,
    bytes and what is still live at the end (the leaks), the live bytes
    over time, and the frees that match no live block: a double free (the
    address was freed since its last allocation) or an unknown block.
    SPDX-License-Identifier: MIT
*/
#include "trace_locks.h"
#include "trace_map.h"
#include "trace_zones.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
    int64_t ticks;
    uint64_t addr, size;
    const char * zone;         /* innermost open zone, NULL: none */
    uint32_t thread;
    uint32_t seq;              /* order read (ties), then: live (1) */
    unsigned char free;
} pt_arec;

/* Per allocating zone and thread. */
typedef struct
{
    const char * zone;
    uint32_t thread;
    uint64_t allocs, bytes, live, live_bytes;
} pt_azone;

struct pt_allocs
{
    pt_arec * v;
    size_t n, cap;
    pt_azone * z;
    size_t nz, zcap;
    uint64_t frees, unknown_frees, double_frees, replaced;
    uint64_t live, peak;       /* bytes */
    int64_t peak_ticks;
};

pt_allocs * pt_allocs_new(void)
{
    return (pt_allocs *) calloc(1, sizeof(pt_allocs));
}

void pt_allocs_free(pt_allocs * m)
{
    if (m == NULL)
        return;
    free(m->v);
    free(m->z);
    free(m);
}

size_t pt_allocs_count(const pt_allocs * m)
{
    return m != NULL ? m->n : 0;
}

int pt_allocs_annot(pt_allocs * m, const pt_trace * t, const pt_annot * a)
{
    const pt_tstate * ts = &t->st->ts[a->thread];
    pt_arec * r;
    if (a->kind != PROF_TF_EXT_ALLOC && a->kind != PROF_TF_EXT_FREE)
        return 0;
    if (m->n >= UINT32_MAX
        || prof_impl_grow(&m->v, &m->cap, m->n + 1, sizeof *m->v) != 0)
        return -1;
    r = &m->v[m->n];
    r->ticks = a->ticks;
    r->addr = a->u[0];
    r->size = a->kind == PROF_TF_EXT_ALLOC ? a->u[1] : 0;
    r->zone = ts->depth > 0 ? ts->stack[ts->depth - 1].z.name : NULL;
    r->thread = a->thread;
    r->seq = (uint32_t) m->n++;
    r->free = a->kind == PROF_TF_EXT_FREE;
    return 0;
}

static int by_time(const void * x, const void * y)
{
    const pt_arec * a = (const pt_arec *) x, * b = (const pt_arec *) y;
    if (a->ticks != b->ticks)
        return a->ticks < b->ticks ? -1 : 1;
    return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* The row of zone z on thread (NULL if out of memory); rows are few. */
static pt_azone * zone_row(pt_allocs * m, const char * z, uint32_t thread)
{
    size_t i;
    for (i = 0; i < m->nz; i++)
        if (m->z[i].thread == thread && (m->z[i].zone == z
            || (z != NULL && m->z[i].zone != NULL && strcmp(m->z[i].zone, z) == 0)))
            return &m->z[i];
    if (prof_impl_grow(&m->z, &m->zcap, m->nz + 1, sizeof *m->z) != 0)
        return NULL;
    memset(&m->z[m->nz], 0, sizeof m->z[m->nz]);
    m->z[m->nz].zone = z;
    m->z[m->nz].thread = thread;
    return &m->z[m->nz++];
}

/* The live map's values: 1 a freed address, 2 + 2i record i live. */
#define FREED ((void *) 1)

/* Record i of the replay: an allocation. -1 if out of memory. */
static int replay_alloc(pt_allocs * m, pt_map * live, size_t i)
{
    void ** slot = pt_map_find(live, m->v[i].addr, 1);
    if (slot == NULL)
        return -1;
    if (*slot == NULL)
        live->n++;
    else if (*slot != FREED)
    {
        /* over a live block whose free was not recorded: that one ends */
        pt_arec * old = &m->v[((size_t) *slot - 2) / 2];
        m->replaced++;
        m->live -= old->size;
        old->seq = 0;
    }
    *slot = (void *) (2 + 2 * i);
    m->v[i].seq = 1;
    m->live += m->v[i].size;
    if (m->live > m->peak)
    {
        m->peak = m->live;
        m->peak_ticks = m->v[i].ticks;
    }
    return 0;
}

static void replay_free(pt_allocs * m, pt_map * live, size_t i)
{
    void ** slot = pt_map_find(live, m->v[i].addr, 0);
    m->frees++;
    if (slot == NULL || *slot == NULL)
        m->unknown_frees++;
    else if (*slot == FREED)
        m->double_frees++;
    else
    {
        pt_arec * a = &m->v[((size_t) *slot - 2) / 2];
        m->live -= a->size;
        a->seq = 0;
        *slot = FREED;
    }
}

int pt_allocs_replay(pt_allocs * m, void * ctx,
                     void (*point)(void * ctx, int64_t ticks, uint64_t live))
{
    pt_map live;
    size_t i;
    int rc = 0;
    memset(&live, 0, sizeof live);
    if (m->n > 0)
        qsort(m->v, m->n, sizeof *m->v, by_time);
    for (i = 0; i < m->n && rc == 0; i++)
    {
        if (!m->v[i].free)
            rc = replay_alloc(m, &live, i);
        else
            replay_free(m, &live, i);
        if (point != NULL && rc == 0)
            point(ctx, m->v[i].ticks, m->live);
    }
    pt_map_free(&live, 0);
    for (i = 0; i < m->n && rc == 0; i++)
    {
        pt_azone * z;
        if (m->v[i].free)
            continue;
        if ((z = zone_row(m, m->v[i].zone, m->v[i].thread)) == NULL)
            return -1;
        z->allocs++;
        z->bytes += m->v[i].size;
        z->live += m->v[i].seq;
        z->live_bytes += m->v[i].seq ? m->v[i].size : 0;
    }
    return rc;
}

static int by_bytes(const void * x, const void * y)
{
    const pt_azone * a = (const pt_azone *) x, * b = (const pt_azone *) y;
    if (a->bytes != b->bytes)
        return a->bytes > b->bytes ? -1 : 1;
    return a->thread < b->thread ? -1 : a->thread > b->thread;
}

static int by_live(const void * x, const void * y)
{
    const pt_azone * a = (const pt_azone *) x, * b = (const pt_azone *) y;
    if (a->live_bytes != b->live_bytes)
        return a->live_bytes > b->live_bytes ? -1 : 1;
    return by_bytes(x, y);
}

static void put_zone_row(FILE * out, const pt_trace * t, const pt_azone * z,
                         int leaks)
{
    fprintf(out, "%10llu %14llu %10llu %14llu  %u  %s\n",
            (unsigned long long) (leaks ? z->live : z->allocs),
            (unsigned long long) (leaks ? z->live_bytes : z->bytes),
            (unsigned long long) (leaks ? z->allocs : z->live),
            (unsigned long long) (leaks ? z->bytes : z->live_bytes),
            t->threads[z->thread].tid, z->zone != NULL ? z->zone : "(no zone)");
}

/* The blocks live at the end and the bytes allocated, from the zone rows. */
static void totals(const pt_allocs * m, uint64_t * blocks, uint64_t * bytes)
{
    size_t i;
    *blocks = *bytes = 0;
    for (i = 0; i < m->nz; i++)
    {
        *blocks += m->z[i].live;
        *bytes += m->z[i].bytes;
    }
}

static void put_totals(const pt_allocs * m, FILE * out, const pt_trace * t)
{
    uint64_t blocks, bytes;
    totals(m, &blocks, &bytes);
    fprintf(out, "%zu allocation records: %llu frees, %llu bytes allocated, "
            "peak %llu bytes live at %.6g s; %llu blocks (%llu bytes) live at "
            "the end; %llu frees of unknown blocks, %llu double frees",
            m->n, (unsigned long long) m->frees, (unsigned long long) bytes,
            (unsigned long long) m->peak, (double) m->peak_ticks / t->tick_rate,
            (unsigned long long) blocks, (unsigned long long) m->live,
            (unsigned long long) m->unknown_frees,
            (unsigned long long) m->double_frees);
    if (m->replaced > 0)
        fprintf(out, ", %llu allocations over a live block (its free not "
                "recorded)", (unsigned long long) m->replaced);
    fputc('\n', out);
}

void pt_allocs_write(const pt_allocs * m, FILE * out, const pt_trace * t,
                     int brief)
{
    size_t i;
    if (m == NULL || (brief && m->n == 0))
        return;
    if (brief)
    {
        fputc('\n', out);
        put_totals(m, out, t);
        return;
    }
    put_totals(m, out, t);
    fprintf(out, "\nallocations by zone\n%10s %14s %10s %14s  %s  %s\n",
            "allocs", "bytes", "live", "live_bytes", "thread", "zone");
    if (m->nz > 1) /* none in a trace without allocations: no qsort(NULL) */
        qsort(m->z, m->nz, sizeof *m->z, by_bytes);
    for (i = 0; i < m->nz; i++)
        put_zone_row(out, t, &m->z[i], 0);
    fprintf(out, "\nleaks: live at the end, by the zone that allocated them\n"
            "%10s %14s %10s %14s  %s  %s\n", "blocks", "bytes", "of_allocs",
            "of_bytes", "thread", "zone");
    if (m->nz > 1)
        qsort(m->z, m->nz, sizeof *m->z, by_live);
    for (i = 0; i < m->nz && m->z[i].live > 0; i++)
        put_zone_row(out, t, &m->z[i], 1);
    if (i == 0)
        fputs("(none)\n", out);
}

void pt_allocs_write_csv(const pt_allocs * m, FILE * out, const pt_trace * t)
{
    uint64_t blocks, bytes;
    if (m == NULL || m->n == 0)
        return;
    totals(m, &blocks, &bytes);
    fprintf(out, "\nallocs,frees,bytes,peak_bytes,peak_ns,leaks,leak_bytes,"
            "unknown_frees,double_frees,replaced\n%llu,%llu,%llu,%llu,%lld,"
            "%llu,%llu,%llu,%llu,%llu\n", (unsigned long long) (m->n - m->frees),
            (unsigned long long) m->frees, (unsigned long long) bytes,
            (unsigned long long) m->peak,
            (long long) pt_whole_ns(t, m->peak_ticks),
            (unsigned long long) blocks, (unsigned long long) m->live,
            (unsigned long long) m->unknown_frees,
            (unsigned long long) m->double_frees,
            (unsigned long long) m->replaced);
}
