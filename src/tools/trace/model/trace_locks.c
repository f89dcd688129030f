/*
    prof-trace's locks (see trace_locks.h): each lock's waits and holds,
    per thread, from PROF_LOCK_WAIT / _ACQUIRED / _RELEASED and the
    prof_mutex_lock wrappers. A wait runs from WAIT to the thread's next
    ACQUIRED of that lock; a hold from ACQUIRED to its RELEASED (nested
    acquisitions of a recursive lock: from the outermost to its release).
    What does not match (a wait never ended, a release never acquired on
    that thread) is counted as unmatched, not guessed.
    SPDX-License-Identifier: MIT
*/
#include "trace_locks.h"
#include "trace_annots.h"
#include "trace_map.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* One thread's use of one lock. */
typedef struct
{
    uint32_t thread;
    uint64_t acquired, waits;
    int64_t wait, hold;        /* totals, ticks */
    int64_t wait_since;        /* -1: not waiting */
    int64_t held_since;
    uint32_t depth;            /* acquisitions not yet released */
} pt_holder;

typedef struct
{
    uint64_t addr;
    const char * name;
    uint64_t acquired, waits, unmatched;
    int64_t wait_total, wait_max, hold_total, hold_max;
    pt_holder * h;
    size_t nh, hcap;
} pt_lock;

struct pt_locks
{
    pt_map index;              /* address -> lock index + 1 */
    pt_lock * v;
    size_t n, cap;
};

pt_locks * pt_locks_new(void)
{
    return (pt_locks *) calloc(1, sizeof(pt_locks));
}

void pt_locks_free(pt_locks * l)
{
    size_t i;
    if (l == NULL)
        return;
    for (i = 0; i < l->n; i++)
        free(l->v[i].h);
    free(l->v);
    pt_map_free(&l->index, 0);
    free(l);
}

/* The lock at addr, made on first use (NULL if out of memory). */
static pt_lock * lock_at(pt_locks * l, uint64_t addr, const char * name,
                         uint32_t * index)
{
    void ** slot = pt_map_find(&l->index, addr, 1);
    pt_lock * k;
    if (slot == NULL)
        return NULL;
    if (*slot == NULL)
    {
        if (prof_impl_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v) != 0)
            return NULL;
        memset(&l->v[l->n], 0, sizeof l->v[l->n]);
        l->v[l->n].addr = addr;
        *slot = (void *) (size_t) ++l->n;
        l->index.n++;
    }
    *index = (uint32_t) ((size_t) *slot - 1);
    k = &l->v[*index];
    if (name != NULL && (k->name == NULL || strcmp(name, "lock") != 0))
        k->name = name; /* a name given later (PROF_LOCK_NAME) wins */
    return k;
}

static pt_holder * holder_of(pt_lock * k, uint32_t thread)
{
    size_t i;
    for (i = 0; i < k->nh; i++)
        if (k->h[i].thread == thread)
            return &k->h[i];
    if (prof_impl_grow(&k->h, &k->hcap, k->nh + 1, sizeof *k->h) != 0)
        return NULL;
    memset(&k->h[k->nh], 0, sizeof k->h[k->nh]);
    k->h[k->nh].thread = thread;
    k->h[k->nh].wait_since = -1;
    return &k->h[k->nh++];
}

/* ACQUIRED: the wait it ends, if any, into s (1), and the hold begun. */
static int acquired(pt_lock * k, pt_holder * h, int64_t now, pt_lock_slice * s)
{
    int ended = 0;
    k->acquired++;
    h->acquired++;
    if (h->wait_since >= 0)
    {
        int64_t w = now - h->wait_since;
        k->waits++;
        h->waits++;
        k->wait_total = pt_add_ticks(k->wait_total, w);
        h->wait = pt_add_ticks(h->wait, w);
        k->wait_max = w > k->wait_max ? w : k->wait_max;
        s->what = 'w';
        s->begin = h->wait_since;
        s->end = now;
        h->wait_since = -1;
        ended = 1;
    }
    if (h->depth++ == 0)
        h->held_since = now;
    return ended;
}

/* RELEASED: the hold it ends, if any, into s (1). */
static int released(pt_lock * k, pt_holder * h, int64_t now, pt_lock_slice * s)
{
    int64_t d;
    if (h->depth == 0)
    {
        k->unmatched++; /* never acquired on this thread */
        return 0;
    }
    if (--h->depth > 0)
        return 0;
    d = now - h->held_since;
    k->hold_total = pt_add_ticks(k->hold_total, d);
    h->hold = pt_add_ticks(h->hold, d);
    k->hold_max = d > k->hold_max ? d : k->hold_max;
    s->what = 'h';
    s->begin = h->held_since;
    s->end = now;
    return 1;
}

int pt_locks_annot(pt_locks * l, const pt_trace * t, const pt_annot * a,
                   pt_lock_slice * s)
{
    pt_lock * k;
    pt_holder * h;
    uint32_t index = 0;
    (void) t;
    if (a->kind != PROF_TF_EXT_LOCK_WAIT && a->kind != PROF_TF_EXT_LOCK_ACQUIRED
        && a->kind != PROF_TF_EXT_LOCK_RELEASED)
        return 0;
    if ((k = lock_at(l, a->u[0], a->name, &index)) == NULL
        || (h = holder_of(k, a->thread)) == NULL)
        return -1;
    s->thread = a->thread;
    s->name = k->name;
    s->lock = k->addr;
    s->lock_index = index;
    if (a->kind == PROF_TF_EXT_LOCK_WAIT)
    {
        k->unmatched += h->wait_since >= 0; /* the last wait never ended */
        h->wait_since = a->ticks;
        return 0;
    }
    if (a->kind == PROF_TF_EXT_LOCK_ACQUIRED)
        return acquired(k, h, a->ticks, s);
    return released(k, h, a->ticks, s);
}

static void put_thread(FILE * out, const pt_trace * t, uint32_t thread)
{
    const pt_thread * th = &t->threads[thread];
    fprintf(out, "thread %u", th->tid);
    if (th->name[0] != '\0')
    {
        fputs(" (", out);
        pt_put_text(out, th->name);
        fputc(')', out);
    }
}

/* --csv: one row per lock (the holders are the text summary's only). */
static void write_csv(const pt_locks * l, FILE * out, double ns)
{
    size_t i;
    fputs("\nlock,address,acquired,waits,wait_ns,max_wait_ns,hold_ns,"
          "max_hold_ns,unmatched\n", out);
    for (i = 0; i < l->n; i++)
    {
        const pt_lock * k = &l->v[i];
        pt_put_csv(out, k->name ? k->name : "lock");
        fprintf(out, ",0x%llx,%llu,%llu,%.0f,%.0f,%.0f,%.0f,%llu\n",
                (unsigned long long) k->addr, (unsigned long long) k->acquired,
                (unsigned long long) k->waits, (double) k->wait_total * ns,
                (double) k->wait_max * ns, (double) k->hold_total * ns,
                (double) k->hold_max * ns, (unsigned long long) k->unmatched);
    }
}

void pt_locks_write(const pt_locks * l, FILE * out, const pt_trace * t,
                    int csv)
{
    double ns = 1e9 / t->tick_rate;
    size_t i, j;
    if (l == NULL || l->n == 0)
        return;
    if (csv)
    {
        write_csv(l, out, ns);
        return;
    }
    fprintf(out, "\n%zu locks\n%10s %10s %14s %12s %14s %12s %9s  %s\n", l->n,
            "acquired", "waits", "wait_ns", "max_wait_ns", "hold_ns",
            "max_hold_ns", "unmatched", "lock (holders below it)");
    for (i = 0; i < l->n; i++)
    {
        const pt_lock * k = &l->v[i];
        fprintf(out, "%10llu %10llu %14.0f %12.0f %14.0f %12.0f %9llu  ",
                (unsigned long long) k->acquired, (unsigned long long) k->waits,
                (double) k->wait_total * ns, (double) k->wait_max * ns,
                (double) k->hold_total * ns, (double) k->hold_max * ns,
                (unsigned long long) k->unmatched);
        pt_put_text(out, k->name ? k->name : "lock"); /* a control byte: '?' */
        fprintf(out, " 0x%llx\n", (unsigned long long) k->addr);
        for (j = 0; j < k->nh; j++)
        {
            const pt_holder * h = &k->h[j];
            fprintf(out, "%10llu %10llu %14.0f %12s %14.0f %12s %9s    ",
                    (unsigned long long) h->acquired, (unsigned long long) h->waits,
                    (double) h->wait * ns, "", (double) h->hold * ns, "", "");
            put_thread(out, t, h->thread);
            fputc('\n', out);
        }
    }
}
