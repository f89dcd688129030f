/*
    Internal to prof-trace: what its reports tell it besides the output.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_REPORT_H
#define PROF_TRACE_REPORT_H

#include "trace_read.h"

/* Zones of the --thread filter's thread seen (0: no such thread). */
unsigned long pt_report_thread_matches(const pt_report * r);
/* How r names the samples' functions (binaries: --binary's list, resolve
   0: --no-symbols) and, with zones_first (--zones), whether CSV and
   --folded write the zones of a trace that has samples too (by default
   they write the samples'). Before the trace is read. */
void pt_report_samples(pt_report * r, const char * const * binaries,
                       int resolve, int zones_first);

/* --by-value: the summary's rows split by each zone's value (text and
   CSV outputs). */
void pt_report_by_value(pt_report * r, int on);

#endif
