/*
    prof-trace --diff OLD NEW: what grew between two sampled traces, as
    perf diff (trace_diff.c). Internal to prof-trace.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_DIFF_H
#define PROF_TRACE_DIFF_H

#include "trace_read.h"

#include <stdio.h>

struct pt_samples;

/* One side of the diff: a trace's samples, named by the model. */
typedef struct
{
    const char * path;
    struct pt_samples * s;
    double period_ns;        /* pt_samples_period_ns of its trace */
    uint64_t samples;        /* weighted */
} pt_diff_side;

/* Read path's samples into d (binaries, resolve: as pt_samples_new):
   pt_stream's result (0; -1 not a trace; -2 cannot be opened, errno; -3
   out of memory). Free d with pt_diff_free in every case. */
int pt_diff_read(pt_diff_side * d, const char * path, const pt_options * o,
                 const char * const * binaries, int resolve);
void pt_diff_free(pt_diff_side * d);
/* The functions by the change of their share of the samples, self then
   total, grown first (folded 0); or (folded 1) difffolded.pl's lines,
   "root;...;leaf OLD_COUNT NEW_COUNT" a distinct stack, threads merged.
   0, or -1 if out of memory. */
int pt_diff_write(FILE * out, pt_diff_side * old, pt_diff_side * new_,
                  int folded);

#endif
