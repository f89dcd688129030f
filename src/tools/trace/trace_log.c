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
    FILE * f;               /* the blocks past PT_LOG_MEM */
    long end;
    int failed;             /* no file: the blocks stay in memory */
    pt_rec * buf;           /* a block read back */
};

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
    if (l->f != NULL)
        fclose(l->f);
    free(l);
}

size_t pt_log_threads(const pt_log * l)
{
    return l != NULL ? l->nth : 0;
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
    if (l->inmem > PT_LOG_MEM && !l->failed && l->f == NULL
        && (l->f = tmpfile()) == NULL)
        l->failed = 1;
    if (l->inmem > PT_LOG_MEM && !l->failed
        && fseek(l->f, l->end, SEEK_SET) == 0
        && fwrite(th->tail, sizeof *th->tail, PT_LOG_BLOCK, l->f) == PT_LOG_BLOCK)
    {
        b->off = l->end;
        l->end += (long) (PT_LOG_BLOCK * sizeof *th->tail);
        l->inmem -= PT_LOG_BLOCK;
        th->ntail = 0;      /* the tail's memory is used again */
    }
    else
    {
        if (l->inmem > PT_LOG_MEM)
            l->failed = 1;
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
                || fseek(l->f, th->blk[k].off, SEEK_SET) != 0
                || fread(l->buf, sizeof *l->buf, PT_LOG_BLOCK, l->f) != PT_LOG_BLOCK)
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
