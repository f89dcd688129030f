/*
    Internal to prof-trace's reports: the locks and allocations of a
    report (trace_res.c), which trace_report.c hands the annotations to.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_RES_H
#define PROF_TRACE_RES_H

#include "trace_locks.h"
#include "trace_perfetto.h"

typedef struct pt_res pt_res;

/* For a report of kind written to out (pf: its Perfetto writer, NULL for
   the other kinds; first: its "no JSON element yet" flag). NULL if out of
   memory. */
pt_res * pt_res_new(pt_output kind, FILE * out, pt_perfetto * pf, int * first);
/* Each annotation, as read: the lock and allocation kinds are taken. */
void pt_res_annot(pt_res * r, const pt_trace * t, const pt_annot * a);
/* What needs the whole trace, before the report's own end (the JSON's
   closing, the Perfetto trace's last packets): 0, or -1 if out of memory
   lost records on the way. */
int pt_res_finish(pt_res * r, const pt_trace * t);
void pt_res_free(pt_res * r);

#endif
