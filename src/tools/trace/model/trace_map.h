/*
    A hash map from uint64 keys to non-NULL pointers (open addressing),
    shared by the trace reader and its reports.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_MAP_H
#define PROF_TRACE_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct { uint64_t * k; void ** v; size_t cap, n; } pt_map;

/* The slot of key (created empty if create, NULL if absent or out of
   memory). The caller that fills a new slot counts it: m->n++. */
void ** pt_map_find(pt_map * m, uint64_t key, int create);
/* Free the table (and the values, with free_values). */
void pt_map_free(pt_map * m, int free_values);

#endif
