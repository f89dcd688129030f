/*
    The chain a report names for each sample (before naming, in
    trace_samples.c): a sample with registers and a stack copy (USAMPLES,
    prof-trace record --call-graph=dwarf) is unwound by the CFI of the ELF
    files mapped at its time (symbols/unwind.h: each file opened and its
    CFI read once), and the kernel's frame-pointer chain recorded beside
    it is used instead when it reaches further (its frames in executable
    mappings) or when there is no copy. Counts which was used and how
    deep, for the text report's sampling summary. Internal to the trace
    reader's reports.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_UNWIND_H
#define PROF_TRACE_UNWIND_H

#include "trace_read.h"

#include <stdint.h>
#include <stdio.h>

typedef struct pt_unwinder pt_unwinder;

/* warn(message) says once each file whose CFI cannot be read. NULL if out
   of memory. */
pt_unwinder * pt_unwinder_new(void (*warn)(void * ctx, const char * message),
                              void * ctx);
void pt_unwinder_free(pt_unwinder * u);

/* Sample s's chain, leaf first: *ip (n at *n; valid until the next call),
   and a key that is the same for the same chain of the same process
   (the trace's stack id for a frame-pointer chain, else 2^32 + the
   unwound chain's number), *pid its process. 0, or -1 if out of memory. */
int pt_unwinder_chain(pt_unwinder * u, const pt_trace * t, const pt_sample * s,
                      uint64_t * key, const uint64_t ** ip, uint32_t * n,
                      uint32_t * pid);

/* "stacks: N unwound by CFI, M by frame pointers (K with no copy), T
   truncated; median depth D frames" when any sample had a copy; else
   nothing. */
void pt_unwinder_summary(const pt_unwinder * u, FILE * out);

#endif
