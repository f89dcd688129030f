/*
    prof-trace --folded: collapsed stacks (trace_folded.c). Internal to the
    trace reader's reports.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_FOLDED_H
#define PROF_TRACE_FOLDED_H

#include "trace_read.h"

#include <stdint.h>
#include <stdio.h>

#define PT_FOLDED_NONE UINT32_MAX
typedef struct pt_folded pt_folded;

/* NULL if out of memory. */
pt_folded * pt_folded_new(void);
/* The root node of thread index thread, the node of name (of kind) under
   parent: PT_FOLDED_NONE if out of memory (or parent is). */
uint32_t pt_folded_root(pt_folded * f, uint32_t thread);
uint32_t pt_folded_enter(pt_folded * f, uint32_t parent, const char * name,
                         char kind);
/* self_ticks more of node's self time. */
void pt_folded_add(pt_folded * f, uint32_t node, int64_t self_ticks);
/* Every path with self time, "thread;a;b NS\n": 0, or -1 if out of memory. */
int pt_folded_write(const pt_folded * f, FILE * out, const pt_trace * t);
void pt_folded_free(pt_folded * f);
/* A frame's name as the format takes it (';' and control characters
   replaced); a thread's first frame, its name or "thread TID". */
void pt_folded_frame(FILE * out, const char * name);
void pt_folded_thread(FILE * out, const pt_thread * th);

#endif
