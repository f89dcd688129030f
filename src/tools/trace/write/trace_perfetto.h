/*
    Internal to prof-trace's reports: the Perfetto writer that
    trace_report.c hands zones to (trace_perfetto.c).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_PERFETTO_H
#define PROF_TRACE_PERFETTO_H

#include "trace_read.h"
#include "trace_locks.h"

typedef struct pt_perfetto pt_perfetto;
struct pt_samples;

/* A Perfetto trace (protobuf: Trace { repeated TracePacket packet = 1 })
   written to out as zones come. NULL if out of memory. */
pt_perfetto * pt_perfetto_new(FILE * out);
/* what: 'B' (slice begin), 'E' (slice end) or 'i' (an instant). */
void pt_perfetto_event(pt_perfetto * p, const pt_trace * t, const pt_zone * z,
                       char what);
/* An annotation: a message as an instant on its thread's track, a plot
   as a counter track's value, a frame mark as an instant on its name's
   track (zone values and texts: debug annotations of their zone's end). */
void pt_perfetto_annot(pt_perfetto * p, const pt_trace * t, const pt_annot * a);
/* A lock's wait or hold: a slice on a track of its own per lock and
   thread, under the thread's track (holds of two locks need not nest). */
void pt_perfetto_lock_slice(pt_perfetto * p, const pt_trace * t,
                            const pt_lock_slice * s);
/* A value v, from ticks on, of the counter track named name: a track
   under the process per name pointer (a plot's, the live bytes'). */
void pt_perfetto_counter(pt_perfetto * p, const pt_trace * t, const char * name,
                         int64_t ticks, double v);
/* The end: the tracks of threads renamed since they were described,
   again with their final names; then the samples of s (may be NULL) with
   their callstacks. 0, or -1 if out of memory lost a packet or a name on
   the way (the output is not the trace). */
int pt_perfetto_finish(pt_perfetto * p, const pt_trace * t,
                       struct pt_samples * s);
void pt_perfetto_free(pt_perfetto * p);

#endif
