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

/* NULL if out of memory. */
pt_speedscope * pt_speedscope_new(void);
/* what: 'B' (a zone opens), 'E' (it closes); 'i' (an end without a begin)
   has no frame and is left out. */
void pt_speedscope_event(pt_speedscope * s, const pt_trace * t,
                         const pt_zone * z, char what);
/* The file, to out: 0, or -1 if out of memory lost events on the way. */
int pt_speedscope_finish(pt_speedscope * s, FILE * out, const pt_trace * t);
void pt_speedscope_free(pt_speedscope * s);

#endif
