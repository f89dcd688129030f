/*
    What the sampler and prof-trace record share: the call chains interned
    (one id per distinct chain of a process, leaf first) and the samples of
    each drain sorted by thread and time, written as STACKS and SAMPLES
    chunks (src/trace/trace_format.h) through the caller's put function.
    SPDX-License-Identifier: MIT
*/
#include "sample_impl.h"
#include "internal.h"
#include "trace_format.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_ips(uint32_t pid, const uint64_t * ip, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u ^ n ^ (uint64_t) pid << 40;
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ ip[i]) * 0x100000001B3u;
    return h ^ (h >> 29);
}

static size_t frames(const sample_writer * w, size_t id)
{
    return w->first[id + 1] - w->first[id];
}

static int grow_table(sample_writer * w)
{
    size_t cap = w->tcap ? 2 * w->tcap : 4096, i;
    uint32_t * t = (uint32_t *) calloc(cap, sizeof *t);
    if (t == NULL)
        return -1;
    for (i = 0; i < w->nstacks; i++)
    {
        size_t at = hash_ips(w->pid[i], w->ips + w->first[i], frames(w, i)) & (cap - 1);
        while (t[at] != 0)
            at = (at + 1) & (cap - 1);
        t[at] = (uint32_t) i + 1;
    }
    free(w->table);
    w->table = t;
    w->tcap = cap;
    return 0;
}

/* The id of process pid's chain ip[0..n), made if new; PROF_TF_NO_STACK if
   there is no room (the numbering is full or memory ran out). */
static uint32_t intern(sample_writer * w, uint32_t pid, const uint64_t * ip, size_t n)
{
    size_t at, id;
    if ((w->nstacks + 1) * 2 > w->tcap && grow_table(w) != 0)
        return PROF_TF_NO_STACK;
    at = hash_ips(pid, ip, n) & (w->tcap - 1);
    for (; w->table[at] != 0; at = (at + 1) & (w->tcap - 1))
    {
        id = w->table[at] - 1;
        if (w->pid[id] == pid && frames(w, id) == n
            && memcmp(w->ips + w->first[id], ip, n * 8) == 0)
            return (uint32_t) id;
    }
    if (w->nstacks + 1 >= PROF_TF_NO_STACK
        || prof_impl_grow(&w->ips, &w->ipcap, w->nips + n, 8) != 0
        || prof_impl_grow(&w->first, &w->stcap, w->nstacks + 2, sizeof *w->first) != 0
        || prof_impl_grow(&w->pid, &w->pidcap, w->nstacks + 1, sizeof *w->pid) != 0)
        return PROF_TF_NO_STACK;
    memcpy(w->ips + w->nips, ip, n * 8);
    w->first[w->nstacks] = w->nips;
    w->nips += n;
    w->first[w->nstacks + 1] = w->nips;
    w->pid[w->nstacks] = pid;
    w->table[at] = (uint32_t) ++w->nstacks;
    return (uint32_t) w->nstacks - 1;
}

void prof_impl_sw_add(sample_writer * w, uint32_t pid, uint32_t tid, uint64_t ns,
                      const uint64_t * ip, size_t n, int flags, uint32_t weight)
{
    int truncated = (flags & PROF_TF_SAMPLE_TRUNCATED) != 0;
    sample_rec * r;
    if (prof_impl_grow(&w->batch, &w->bcap, w->nbatch + 1, sizeof *w->batch) != 0)
    {
        w->dropped++;
        return;
    }
    r = &w->batch[w->nbatch++];
    r->tid = tid;
    r->ns = ns;
    r->stack = intern(w, pid, ip, n);
    r->weight = weight > 1 ? weight : 1;
    r->flags = (uint8_t) ((truncated ? PROF_TF_SAMPLE_TRUNCATED : 0)
                          | (flags & PROF_TF_SAMPLE_LEAF_FIXED)
                          | (r->weight > 1 ? PROF_TF_SAMPLE_WEIGHTED : 0));
    w->truncated += truncated != 0;
}

/* The stacks made since the last call: a chunk per run of one process's,
   of at most 1 MiB. */
static void write_stacks(sample_writer * w)
{
    enum { CAP = 1 << 17 };
    uint64_t * p = w->written < w->nstacks ? (uint64_t *) malloc(CAP * 8) : NULL;
    while (p != NULL && w->written < w->nstacks)
    {
        size_t words = 0, id = w->written;
        uint32_t pid = w->pid[id];
        while (id < w->nstacks && w->pid[id] == pid && words + 1 + frames(w, id) <= CAP)
        {
            uint32_t head[2];
            head[0] = (uint32_t) id;
            head[1] = (uint32_t) frames(w, id);
            memcpy(p + words, head, 8);
            memcpy(p + words + 1, w->ips + w->first[id], frames(w, id) * 8);
            words += 1 + frames(w, id);
            id++;
        }
        w->put(w->ctx, PROF_TF_STACKS, pid, p, words * 8);
        w->written = id;
    }
    free(p);
}

static int by_thread_time(const void * a, const void * b)
{
    const sample_rec * x = (const sample_rec *) a, * y = (const sample_rec *) b;
    if (x->tid != y->tid)
        return x->tid < y->tid ? -1 : 1;
    return x->ns < y->ns ? -1 : x->ns > y->ns;
}

/* A SAMPLES chunk of k words (the base first) holding m samples of
   weight wt together. */
static void put_samples(sample_writer * w, uint32_t tid, const uint64_t * p, size_t k,
                        size_t m, uint64_t wt)
{
    if (m > 0 && w->put(w->ctx, PROF_TF_SAMPLES, tid, p, k * 8) != 0)
        w->dropped += m;
    else
    {
        w->samples += m;
        w->weight += wt;
    }
}

/* One thread's samples b[0..n) (sorted) as SAMPLES chunks: a word each,
   and a weight word after a weighted one's. */
static void write_thread(sample_writer * w, const sample_rec * b, size_t n)
{
    uint64_t * p = (uint64_t *) malloc((2 * n + 1) * 8), prev, wt = 0;
    size_t i, k = 1, m = 0;
    if (p == NULL)
    {
        w->dropped += n;
        return;
    }
    prev = p[0] = w->ticks(w->ctx, b[0].ns) & PROF_TF_TICK_MASK;
    for (i = 0; i < n; i++)
    {
        uint64_t t = w->ticks(w->ctx, b[i].ns) & PROF_TF_TICK_MASK;
        uint64_t d = (t - prev) & PROF_TF_TICK_MASK;
        if (d >> PROF_TF_DELTA_BITS)
        {
            put_samples(w, b[0].tid, p, k, m, wt);
            k = 1;
            m = 0;
            wt = 0;
            p[0] = t;
            d = 0;
        }
        p[k++] = d << 24 | (uint64_t) b[i].stack << 3 | b[i].flags;
        if (b[i].flags & PROF_TF_SAMPLE_WEIGHTED)
            p[k++] = b[i].weight;
        m++;
        wt += b[i].weight;
        prev = t;
    }
    put_samples(w, b[0].tid, p, k, m, wt);
    free(p);
}

void prof_impl_sw_flush(sample_writer * w, uint64_t upto_ns)
{
    size_t i = 0, j, m, kept = 0;
    write_stacks(w);
    if (w->nbatch == 0)
        return;
    qsort(w->batch, w->nbatch, sizeof *w->batch, by_thread_time);
    for (; i < w->nbatch; i = j)
    {
        for (j = i; j < w->nbatch && w->batch[j].tid == w->batch[i].tid; j++)
            ;
        for (m = i; m < j && w->batch[m].ns <= upto_ns; m++)
            ;
        if (m > i)
            write_thread(w, w->batch + i, m - i);
        memmove(w->batch + kept, w->batch + m, (j - m) * sizeof *w->batch);
        kept += j - m;
    }
    w->nbatch = kept;
}

void prof_impl_sw_free(sample_writer * w)
{
    free(w->ips);
    free(w->first);
    free(w->pid);
    free(w->table);
    free(w->batch);
    memset(w, 0, sizeof *w);
}

double prof_impl_sample_rate(const char * s)
{
    static const prof_impl_range rate = { SAMPLE_DEFAULT_HZ, 0, SAMPLE_MAX_HZ, 1, 0, 0,
                                          PROF_IMPL_PLAIN, NULL };
    double v;
    return prof_impl_option_number(NULL, NULL, s, &rate, &v) == 0 ? v : 0;
}
