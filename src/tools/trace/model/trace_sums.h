/*
    Weights summed per uint64 key, in the order the keys came (a hash map
    to an array), for the reports of samples: trace_sums.c.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_SUMS_H
#define PROF_TRACE_SUMS_H

#include "trace_map.h"

#include <stddef.h>
#include <stdint.h>

typedef struct { uint64_t key, w; } pt_sum;
typedef struct { pt_sum * v; size_t n, cap; pt_map idx; } pt_sums;

/* Add w to key's sum (0 the first time). 0, or -1 if out of memory. */
int pt_sums_add(pt_sums * m, uint64_t key, uint64_t w);
/* A copy of the sums sorted by key (NULL if out of memory; with none, an
   empty array); n at *n. */
pt_sum * pt_sums_sorted(const pt_sums * m, size_t * n);
void pt_sums_free(pt_sums * m);

#endif
