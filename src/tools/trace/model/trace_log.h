/*
    Per-thread logs of 16-byte records, kept in order and read back as many
    times as needed: in memory up to PT_LOG_MEM records in all, past that
    in blocks of PT_LOG_BLOCK in a temporary file (tmpfile(); in memory if
    it cannot be made). For the reports that write each sample of a trace
    in time order (speedscope, Perfetto), so that their memory does not
    grow with the samples: trace_log.c.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_LOG_H
#define PROF_TRACE_LOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PT_LOG_MEM ((size_t) 1 << 18)
#define PT_LOG_BLOCK 4096

typedef struct { int64_t ticks; uint32_t a, b; } pt_rec;

/* A temporary file of blocks (the log's, and the samples waiting for
   their zones in trace_sample_zones.c): made at the first put; once it
   fails (no file, a short write), every later put fails at once and the
   caller keeps its blocks in memory. */
typedef struct { FILE * f; long end; int failed; } pt_spill;
/* n items of size bytes at the end of the file, their offset at *off:
   0, or -1 if the file failed. */
int pt_spill_put(pt_spill * s, const void * v, size_t size, size_t n, long * off);
/* n items of size bytes from offset off into v: 0, or -1. */
int pt_spill_get(pt_spill * s, long off, void * v, size_t size, size_t n);
void pt_spill_close(pt_spill * s);
typedef struct pt_log pt_log;

/* NULL if out of memory. */
pt_log * pt_log_new(void);
/* r at the end of thread's log. 0, or -1 if out of memory. */
int pt_log_add(pt_log * l, uint32_t thread, const pt_rec * r);
/* thread's records in order to each(ctx, r). 0, or -1 if a block could
   not be read back (out of memory, or the file failed). */
int pt_log_each(pt_log * l, uint32_t thread, void * ctx,
                void (*each)(void * ctx, const pt_rec * r));
void pt_log_free(pt_log * l);

#endif
