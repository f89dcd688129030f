/*
    Internal to prof-trace's reports: the Perfetto writer (trace_perfetto.c)
    that trace_report.c hands zones to, and helpers they share.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_REPORT_H
#define PROF_TRACE_REPORT_H

#include "trace_read.h"

/* Ticks since the start as whole nanoseconds: rounding each instant once
   (a monotonic function) keeps every child inside its parent. */
int64_t pt_whole_ns(const pt_trace * t, int64_t ticks);

typedef struct pt_perfetto pt_perfetto;

/* A Perfetto trace (protobuf: Trace { repeated TracePacket packet = 1 })
   written to out as zones come. NULL if out of memory. */
pt_perfetto * pt_perfetto_new(FILE * out);
/* what: 'B' (slice begin), 'E' (slice end) or 'i' (an instant). */
void pt_perfetto_event(pt_perfetto * p, const pt_trace * t, const pt_zone * z,
                       char what);
/* The end: the tracks of threads renamed since they were described,
   again with their final names. 0, or -1 if out of memory lost
   a packet or a name on the way (the output is not the trace). */
int pt_perfetto_finish(pt_perfetto * p, const pt_trace * t);
void pt_perfetto_free(pt_perfetto * p);

/* Zones of the --thread filter's thread seen (0: no such thread). */
unsigned long pt_report_thread_matches(const pt_report * r);

#endif
