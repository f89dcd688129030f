/*
    The zone each sample of a sampled trace falls in, found while the trace
    streams, without keeping the samples (trace_sample_zones.c). Internal
    to prof-trace's reports of samples (trace_samples.c).

    A sample belongs to the innermost zone of its thread open at its tick
    (begin <= tick < end). The reader hands a thread's zones and samples
    each in time order, but one against the other in file order: a thread's
    samples may come before or after its zones of that time. So each
    thread has a frontier, the latest tick of its zone events read so far:
    a sample before it is named at once, by the zones that ended and are
    still kept, else the innermost open zone that began at or before it;
    a sample at or after it waits, 16 bytes, in the thread's queue until
    the frontier passes it (or the trace ends: then it is outside every
    zone that was not closed). A zone that ended is kept while a sample
    before its end may still come (at most PT_ZONES_KEPT in all; past
    that, zones are forgotten and every sample is named outside them).
    Bounded: the open zones (nesting depth), the kept zones, the samples
    waiting in memory (past SZ_WAIT_MEM in all threads, a thread's newer
    ones go to a temporary file, a block at a time). Not bounded: that
    file (16 bytes a sample waiting: a thread whose zone events come late
    in the file, or that records none, has all its samples wait, unless
    the trace says it holds no zones: pt_sz_no_zones), and the list of its
    blocks (16 bytes per 4096 samples).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_SAMPLE_ZONES_H
#define PROF_TRACE_SAMPLE_ZONES_H

#include "trace_read.h"

#include <stdint.h>
#include <stdio.h>

/* Zones kept after they end, waiting for the samples of their time (32
   bytes each): past this, no samples by zone. */
#define PT_ZONES_KEPT (1 << 20)
/* Functions named per zone in the text report. */
#define PT_ZONE_FUNCTIONS 3

typedef struct pt_sz pt_sz;

/* NULL if out of memory. */
pt_sz * pt_sz_new(void);
/* A zone begins, a zone ends (not PT_NO_BEGIN ones), a sample of thread
   (fn: the caller's id for its leaf function). -1 if out of memory lost
   one. */
int pt_sz_begin(pt_sz * p, const pt_zone * z);
int pt_sz_end(pt_sz * p, const pt_zone * z);
int pt_sz_sample(pt_sz * p, uint32_t thread, int64_t ticks, uint32_t rs,
                 uint32_t weight);
/* The trace holds no zones: samples are named (outside) at once. */
void pt_sz_no_zones(pt_sz * p);
/* At the end of the trace (the samples still waiting are named): "N
   samples (P%) in zone NAME: P% f, P% g" a zone, most samples first, the
   samples outside every zone last among equals; fn[]: the functions'
   names, weight: all the samples', put: writes a name. Nothing if no
   sample was in a zone; a line saying why not if more than PT_ZONES_KEPT
   zones had to be kept. 0, or -1 if out of memory lost samples. */
int pt_sz_write(pt_sz * p, FILE * out, const char * const * fn,
                uint64_t weight, void (*put)(FILE * out, const char * s));
/* At the end of the trace (as pt_sz_write): each (zone, value) summed,
   to each(ctx, zone name (NULL: outside the zones), its kind, the value
   pt_sz_sample was given, weight). 0, or -1 if out of memory lost
   samples. */
typedef void (*pt_sz_each_fn)(void * ctx, const char * zone, char kind,
                              uint32_t value, uint64_t weight);
int pt_sz_each(pt_sz * p, void * ctx, pt_sz_each_fn each);
void pt_sz_free(pt_sz * p);

#endif
