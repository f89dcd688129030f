/*
    prof-trace record -p: see trace_attach.c.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_ATTACH_H
#define PROF_TRACE_ATTACH_H

#include "record_impl.h"

#include <stddef.h>

/* A process of -p, as found before anything was opened. */
typedef struct
{
    long pid;
    unsigned long long start;   /* /proc/PID/stat's starttime: the same process */
    long sampled;               /* the first thread of it with events, or 0 */
    int gone;                   /* it has ended */
} pt_target;

typedef struct
{
    pt_target * t;
    size_t n;
    double duration_s;          /* --duration, or 0: until the processes end */
} pt_attach_plan;

/* The processes of list ("PID[,PID...]"), each checked to exist: 0, or 2
   after a message (a word that is no process id, a process that does not
   exist). */
int pt_attach_parse(pt_attach_plan * p, const char * list);
void pt_attach_plan_free(pt_attach_plan * p);
/* Sample them (r: the file, rate and --children set) until the duration,
   a SIGINT, SIGTERM or SIGHUP (noted in *sig) or their ends, into r's
   file; r->keep says whether the trace is worth keeping. The exit status
   (doc/tracing.md): 0, or 2 when refused or when every process ended as
   it was attached. */
int pt_attach_run(recorder * r, pt_attach_plan * p, int * sig);

#endif
