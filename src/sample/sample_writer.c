/*
    What the sampler and prof-trace record share: the call chains interned
    (one id per distinct chain of a process, leaf first) and the samples of
    each drain sorted by thread and time, written as STACKS and SAMPLES
    chunks (src/trace/trace_format.h) through the caller's put function;
    a sample with registers and a stack copy goes in a USAMPLES chunk.
    SPDX-License-Identifier: MIT
*/
#include "sample_impl.h"
#include "internal.h"
#include "trace_format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The id of process pid's chain ip[0..n), made if new; PROF_TF_NO_STACK if
   there is no room (the numbering is full or memory ran out). */
static uint32_t intern(sample_writer * w, uint32_t pid, const uint64_t * ip, size_t n)
{
    long id = prof_impl_chain_intern(&w->chains, pid, ip, n, PROF_TF_NO_STACK - 1);
    return id < 0 ? PROF_TF_NO_STACK : (uint32_t) id;
}

/* c as USAMPLES writes it after a sample's word(s) (trace_format.h), in
   a new block of *bytes bytes; NULL if out of memory. */
static unsigned char * encode_copy(const sample_copy * c, uint32_t * bytes)
{
    size_t size = c->size < PROF_TF_MAX_USTACK ? c->size : PROF_TF_MAX_USTACK;
    size_t nreg = 0, at = 16, i;
    uint64_t have = c->have & ((UINT64_C(1) << SAMPLE_UREGS) - 1);
    uint32_t head[2];
    unsigned char * p;
    for (i = 0; i < SAMPLE_UREGS; i++)
        nreg += (have >> i) & 1;
    *bytes = (uint32_t) (24 + 8 * nreg + (size + 7) / 8 * 8);
    if ((p = (unsigned char *) calloc(1, *bytes)) == NULL)
        return NULL;
    head[0] = c->arch;
    head[1] = (uint32_t) size;
    memcpy(p, &have, 8);
    memcpy(p + 8, head, 8);
    for (i = 0; i < SAMPLE_UREGS; i++)
        if ((have >> i) & 1)
            memcpy(p + at, &c->r[i], 8), at += 8;
    memcpy(p + at, &c->base, 8);
    if (size > 0)
        memcpy(p + at + 8, c->data, size);
    return p;
}

void prof_impl_sw_add(sample_writer * w, uint32_t pid, uint32_t tid, uint64_t ns,
                      const uint64_t * ip, size_t n, int flags, uint32_t weight,
                      const sample_copy * c)
{
    int truncated = (flags & PROF_TF_SAMPLE_TRUNCATED) != 0;
    unsigned char * copy = NULL;
    uint32_t bytes = 0;
    sample_rec * r;
    if ((c != NULL && (copy = encode_copy(c, &bytes)) == NULL)
        || prof_impl_grow(&w->batch, &w->bcap, w->nbatch + 1, sizeof *w->batch) != 0)
    {
        free(copy);
        w->dropped++;
        return;
    }
    r = &w->batch[w->nbatch++];
    r->copy = copy;
    r->copy_bytes = bytes;
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
    const prof_impl_chains * c = &w->chains;
    uint64_t * p = w->written < c->n ? (uint64_t *) malloc(CAP * 8) : NULL;
    while (p != NULL && w->written < c->n)
    {
        size_t words = 0, id = w->written;
        uint32_t pid = c->pid[id];
        while (id < c->n && c->pid[id] == pid
               && words + 1 + prof_impl_chain_len(c, id) <= CAP)
        {
            uint32_t head[2];
            head[0] = (uint32_t) id;
            head[1] = (uint32_t) prof_impl_chain_len(c, id);
            memcpy(p + words, head, 8);
            memcpy(p + words + 1, c->ips + c->first[id], prof_impl_chain_len(c, id) * 8);
            words += 1 + prof_impl_chain_len(c, id);
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

/* One thread's chunk being made: k words (the base first) holding m
   samples of weight wt together, of the kind (SAMPLES or USAMPLES) of
   its samples. */
typedef struct
{
    uint64_t * p;
    size_t k, cap, m;
    uint64_t wt, prev;
    uint32_t type;
} chunk_out;

static void put_samples(sample_writer * w, uint32_t tid, chunk_out * o)
{
    if (o->m > 0 && w->put(w->ctx, o->type, tid, o->p, o->k * 8) != 0)
        w->dropped += o->m;
    else
    {
        w->samples += o->m;
        w->weight += o->wt;
    }
    o->k = 1;
    o->m = 0;
    o->wt = 0;
}

/* The words sample b takes in a chunk. */
static size_t words_of(const sample_rec * b)
{
    return 1 + ((b->flags & PROF_TF_SAMPLE_WEIGHTED) != 0) + b->copy_bytes / 8;
}

/* b into o, after o's samples are written when b's kind differs, the
   delta would not fit or the chunk would pass 1 MiB. 0, or -1 (out of
   memory: b dropped). */
static int add_sample(sample_writer * w, chunk_out * o, const sample_rec * b)
{
    uint64_t t = w->ticks(w->ctx, b->ns) & PROF_TF_TICK_MASK;
    uint64_t d = (t - o->prev) & PROF_TF_TICK_MASK;
    uint32_t type = b->copy != NULL ? PROF_TF_USAMPLES : PROF_TF_SAMPLES;
    size_t need = words_of(b);
    if (o->m > 0 && (type != o->type || (d >> PROF_TF_DELTA_BITS)
                     || o->k + need > (1u << 17)))
        put_samples(w, b->tid, o);
    if (o->m == 0)
    {
        o->p[0] = o->prev = t;
        o->type = type;
        d = 0;
    }
    if (prof_impl_grow(&o->p, &o->cap, o->k + need, 8) != 0)
        return -1;
    o->p[o->k++] = d << 24 | (uint64_t) b->stack << 3 | b->flags;
    if (b->flags & PROF_TF_SAMPLE_WEIGHTED)
        o->p[o->k++] = b->weight;
    if (b->copy != NULL)
        memcpy(o->p + o->k, b->copy, b->copy_bytes);
    o->k += b->copy_bytes / 8;
    o->m++;
    o->wt += b->weight;
    o->prev = t;
    return 0;
}

/* One thread's samples b[0..n) (sorted) as SAMPLES and USAMPLES chunks:
   a word each, a weight word after a weighted one's, a copy after one
   with registers and stack. Their copies are freed. */
static void write_thread(sample_writer * w, sample_rec * b, size_t n)
{
    chunk_out o;
    size_t i;
    memset(&o, 0, sizeof o);
    o.k = 1;
    for (i = 0; i < n; i++)
    {
        if (o.p == NULL && prof_impl_grow(&o.p, &o.cap, 1, 8) != 0)
            w->dropped++;
        else if (add_sample(w, &o, &b[i]) != 0)
            w->dropped++;
        free(b[i].copy);
        b[i].copy = NULL;
    }
    if (o.p != NULL)
        put_samples(w, b[0].tid, &o);
    free(o.p);
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
    size_t i;
    for (i = 0; i < w->nbatch; i++)
        free(w->batch[i].copy);
    prof_impl_chains_free(&w->chains);
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

long prof_impl_sample_cg(const char * s)
{
    char * end;
    long v;
    if (strcmp(s, "fp") == 0)
        return 0;
    if (strcmp(s, "dwarf") == 0)
        return SAMPLE_STACK_BYTES;
    if (strncmp(s, "dwarf,", 6) != 0 || s[6] < '0' || s[6] > '9')
        return -1;
    errno = 0;
    v = strtol(s + 6, &end, 10);
    if (*end != '\0' || errno != 0 || v < SAMPLE_MIN_STACK || v > SAMPLE_MAX_STACK)
        return -1;
    return (v + 7) / 8 * 8;
}
