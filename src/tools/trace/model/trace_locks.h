/*
    Internal to prof-trace's reports: locks (trace_locks.c) and
    allocations (trace_allocs.c) from the trace's extension records
    (kinds 6-10, src/trace/trace_format.h).

    Locks stream: each thread's waits and holds are its own records, in
    time order, so a wait or a hold is known when it ends (handed back as
    a pt_lock_slice for the timeline outputs). Allocations do not: a block
    allocated on one thread may be freed on another, and the reader hands
    threads over in file order, not in time order; so the records are kept
    (40 bytes each) and replayed in time order at the end, for the
    statistics, the leaks and the live-bytes counter.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_LOCKS_H
#define PROF_TRACE_LOCKS_H

#include "trace_read.h"

#include <stdio.h>

/* ---- locks ---------------------------------------------------------------- */

typedef struct pt_locks pt_locks;

/* A wait or a hold that ended: on thread, of lock (name, address),
   begin..end in ticks since the start. */
typedef struct
{
    uint32_t thread;
    const char * name;
    uint64_t lock;
    uint32_t lock_index;   /* 0, 1, ...: the locks in the order first seen */
    char what;             /* 'w' a wait, 'h' a hold */
    int64_t begin, end;
} pt_lock_slice;

pt_locks * pt_locks_new(void);
void pt_locks_free(pt_locks * l);
/* A lock record (other kinds are ignored): 1 and *s set if it ended a wait
   or a hold, else 0; -1 if out of memory (the record is lost). */
int pt_locks_annot(pt_locks * l, const pt_trace * t, const pt_annot * a,
                   pt_lock_slice * s);
/* The text summary's lock table (nothing if no lock was seen): per lock
   acquisitions, waits, total and longest wait, total and longest hold,
   then a line per holder thread; csv: the same per lock, no holders
   (lock,address,acquired,waits,wait_ns,max_wait_ns,hold_ns,max_hold_ns,
   unmatched). */
void pt_locks_write(const pt_locks * l, FILE * out, const pt_trace * t,
                    int csv);

/* ---- allocations ---------------------------------------------------------- */

typedef struct pt_allocs pt_allocs;

pt_allocs * pt_allocs_new(void);
void pt_allocs_free(pt_allocs * m);
/* An allocation record (other kinds are ignored), kept with the name of
   the thread's innermost open zone (NULL: none). 0, or -1 if out of
   memory. */
int pt_allocs_annot(pt_allocs * m, const pt_trace * t, const pt_annot * a);
/* Records kept. */
size_t pt_allocs_count(const pt_allocs * m);
/* Replay the records in time order (once, after the whole trace): the
   statistics, the blocks live at the end, and, if point is not NULL, each
   change of the live bytes at ticks. 0, or -1 if out of memory. */
int pt_allocs_replay(pt_allocs * m, void * ctx,
                     void (*point)(void * ctx, int64_t ticks, uint64_t live));
/* After the replay: the per-zone table, the leaks (what was live at the
   end, by the zone and thread that allocated it) and the frees of unknown
   blocks and double frees (--alloc); brief: one line for the summary. */
void pt_allocs_write(const pt_allocs * m, FILE * out, const pt_trace * t,
                     int brief);
/* After the replay, --csv: the summary's line as one row (allocs,frees,
   bytes,peak_bytes,peak_ns,leaks,leak_bytes,unknown_frees,double_frees,
   replaced); nothing if there are no records. */
void pt_allocs_write_csv(const pt_allocs * m, FILE * out, const pt_trace * t);

#endif
