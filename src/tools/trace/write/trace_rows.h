/*
    The rows of prof-trace's zone summary (trace_report.c): one per thread,
    kind and name, added up where a name recurs (one function at two
    addresses), sorted by total time, written as text or CSV. Internal to
    the trace reader's reports.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_ROWS_H
#define PROF_TRACE_ROWS_H

#include "trace_read.h"

#include <stdint.h>
#include <stdio.h>

typedef struct
{
    char kind;
    const char * name;
    uint32_t thread;
    uint64_t calls, unmatched;
    int64_t total, min, max, self;  /* ticks */
} pt_row;

/* Sort v (n rows) by thread, name and kind and add up the rows that agree;
   then sort by thread and total time, longest first. Returns the count. */
size_t pt_rows_merge(pt_row * v, size_t n);
/* The header line of a table (by_thread: CSV's thread columns first). */
void pt_rows_head(FILE * out, pt_summary_format f, int by_thread);
/* Row r, its ticks at ns nanoseconds each. */
void pt_rows_put(FILE * out, const pt_row * r, double ns, pt_summary_format f);

#endif
