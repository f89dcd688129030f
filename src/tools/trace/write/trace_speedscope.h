/*
    Internal to prof-trace's reports: the speedscope writer that
    trace_report.c hands zones to in begin/end order (trace_speedscope.c).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_SPEEDSCOPE_H
#define PROF_TRACE_SPEEDSCOPE_H

#include "trace_read.h"

#include <stdio.h>

typedef struct pt_speedscope pt_speedscope;
struct pt_samples;

/* NULL if out of memory. */
pt_speedscope * pt_speedscope_new(void);
/* what: 'B' (a zone opens), 'E' (it closes); 'i' (an end without a begin)
   has no frame and is left out. */
void pt_speedscope_event(pt_speedscope * s, const pt_trace * t,
                         const pt_zone * z, char what);
/* The frame of name and kind (pointers compared), added on first use (0
   if out of memory: then finish fails). */
long pt_speedscope_frame(pt_speedscope * s, const char * name, char kind);
/* The file, to out: the zones' evented profiles, then p's sampled ones (p
   may be NULL). 0, or -1 if out of memory lost events on the way. */
int pt_speedscope_finish(pt_speedscope * s, FILE * out, const pt_trace * t,
                         struct pt_samples * p);
void pt_speedscope_free(pt_speedscope * s);

#endif
