/*
    prof-trace --pprof: pprof's profile.proto, gzipped (trace_pprof.c).
    Internal to the trace reader's reports.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_PPROF_H
#define PROF_TRACE_PPROF_H

#include "trace_read.h"

#include <stdio.h>

struct pt_samples;

/* The samples of s (a PT_OUT_PPROF pt_samples, after the trace t was
   read) as a gzipped profile.proto, to out. 0, or -1 if out of memory
   lost a part (then nothing is written). */
int pt_pprof_write(FILE * out, const pt_trace * t, struct pt_samples * s);

#endif
