/*
    Per-thread logs of records, spilled to a temporary file: see
    trace_log.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_log.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A full block: in memory (v), or in the file at off. */
typedef struct { pt_rec * v; long off; } log_block;

typedef struct
{
    log_block * blk;        /* the full blocks, in order */
    size_t nblk, blkcap;
    pt_rec * tail;          /* then the newest, fewer than PT_LOG_BLOCK */
    size_t ntail;
} log_thread;

struct pt_log
{
    log_thread * th;
    size_t nth, thcap;
    size_t inmem;           /* records in memory, all threads */
    pt_spill file;          /* the blocks past PT_LOG_MEM */
    pt_rec * buf;           /* a block read back */
};

int pt_spill_put(pt_spill * s, const void * v, size_t size, size_t n, long * off)
{
    if (!s->failed && s->f == NULL && (s->f = tmpfile()) == NULL)
        s->failed = 1;
    if (s->failed || fseek(s->f, s->end, SEEK_SET) != 0
        || fwrite(v, size, n, s->f) != n)
    {
        s->failed = 1;
        return -1;
    }
    *off = s->end;
    s->end += (long) (size * n);
    return 0;
}

int pt_spill_get(pt_spill * s, long off, void * v, size_t size, size_t n)
{
    return s->f != NULL && fseek(s->f, off, SEEK_SET) == 0
           && fread(v, size, n, s->f) == n ? 0 : -1;
}

void pt_spill_close(pt_spill * s)
{
    if (s->f != NULL)
        fclose(s->f);
    s->f = NULL;
}

pt_log * pt_log_new(void)
{
    return (pt_log *) calloc(1, sizeof(pt_log));
}

void pt_log_free(pt_log * l)
{
    size_t i, k;
    if (l == NULL)
        return;
    for (i = 0; i < l->nth; i++)
    {
        for (k = 0; k < l->th[i].nblk; k++)
            free(l->th[i].blk[k].v);
        free(l->th[i].blk);
        free(l->th[i].tail);
    }
    free(l->th);
    free(l->buf);
    pt_spill_close(&l->file);
    free(l);
}

/* th's full tail as a block: to the file once PT_LOG_MEM records are in
   memory (if the file can be had), else kept. 0, or -1 if out of memory. */
static int seal(pt_log * l, log_thread * th)
{
    log_block * b;
    if (prof_impl_grow(&th->blk, &th->blkcap, th->nblk + 1, sizeof *th->blk) != 0)
        return -1;
    b = &th->blk[th->nblk];
    b->v = NULL;
    b->off = 0;
    if (l->inmem > PT_LOG_MEM
        && pt_spill_put(&l->file, th->tail, sizeof *th->tail, PT_LOG_BLOCK,
                        &b->off) == 0)
    {
        l->inmem -= PT_LOG_BLOCK;
        th->ntail = 0;      /* the tail's memory is used again */
    }
    else
    {
        b->v = th->tail;    /* kept: the next tail is new */
        th->tail = NULL;
        th->ntail = 0;
    }
    th->nblk++;
    return 0;
}

int pt_log_add(pt_log * l, uint32_t thread, const pt_rec * r)
{
    log_thread * th;
    if (thread >= l->nth)
    {
        if (prof_impl_grow(&l->th, &l->thcap, (size_t) thread + 1, sizeof *l->th) != 0)
            return -1;
        memset(l->th + l->nth, 0, (thread + 1 - l->nth) * sizeof *l->th);
        l->nth = (size_t) thread + 1;
    }
    th = &l->th[thread];
    if (th->tail == NULL
        && (th->tail = (pt_rec *) malloc(PT_LOG_BLOCK * sizeof *th->tail)) == NULL)
        return -1;
    th->tail[th->ntail++] = *r;
    l->inmem++;
    return th->ntail == PT_LOG_BLOCK ? seal(l, th) : 0;
}

int pt_log_each(pt_log * l, uint32_t thread, void * ctx,
                void (*each)(void * ctx, const pt_rec * r))
{
    const log_thread * th;
    size_t k, i;
    int rc = 0;
    if (l == NULL || thread >= l->nth)
        return 0;
    th = &l->th[thread];
    for (k = 0; k < th->nblk; k++)
    {
        const pt_rec * v = th->blk[k].v;
        if (v == NULL)
        {
            if ((l->buf == NULL && (l->buf = (pt_rec *) malloc(PT_LOG_BLOCK
                                     * sizeof *l->buf)) == NULL)
                || pt_spill_get(&l->file, th->blk[k].off, l->buf,
                                sizeof *l->buf, PT_LOG_BLOCK) != 0)
            {
                rc = -1;
                continue;
            }
            v = l->buf;
        }
        for (i = 0; i < PT_LOG_BLOCK; i++)
            each(ctx, &v[i]);
    }
    for (i = 0; i < th->ntail; i++)
        each(ctx, &th->tail[i]);
    return rc;
}
