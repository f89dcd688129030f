/*
    The raw trace file written by trace.c and read by tools/trace_read.c.

    A 64-byte file header, then chunks. Each chunk is a 16-byte chunk header
    (magic, type, payload size, thread id) and a payload whose size is a
    multiple of 8. All numbers are in the writer's byte order (the header's
    byte-order mark says which).

    Version 2 (written now): EVENTS2 chunks, 8 bytes an event. The payload
    is a u64 base, the counter ticks (modulo 2^61) of the thread's event
    before the first, then one word per event:
        delta << 24 | id << 3 | type
    delta: ticks since the thread's previous event (< 2^40); id: the
    thread's number for the label or function address (< 2^21), defined by
    a LABELS chunk of that thread written before; type: PROF_IMPL_EV_*. A
    word ticks << 3 | PROF_TF_EV_SYNC sets the time (modulo 2^61) that the
    next delta counts from (after a gap of 2^40 ticks or more).
    Version 1 (still read): EVENTS chunks, 16 bytes an event:
        word = counter ticks (modulo 2^61) << 3 | event type
        id   = label address, or function address for ENTER/EXIT.
    Label addresses are resolved by STRINGS chunks, written with (before)
    the events that use them, so that a truncated file (a crash, a kill, a
    full disk) loses at most its last, partial chunk; the reader skips what
    it cannot read and finds the next chunk by its magic number.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_FORMAT_H
#define PROF_TRACE_FORMAT_H

#include <stdint.h>

#define PROF_TF_MAGIC "PTRACE01"          /* 8 bytes, file start */
#define PROF_TF_BOM 0x01020304u
#define PROF_TF_VERSION 2u            /* 1: 16-byte events, still read */
#define PROF_TF_CHUNK_MAGIC 0x4b435450u   /* "PTCK" little-endian */
#define PROF_TF_TICK_BITS 61
#define PROF_TF_TICK_MASK ((UINT64_C(1) << PROF_TF_TICK_BITS) - 1)
#define PROF_TF_MAX_CHUNK (UINT32_C(1) << 30)
#define PROF_TF_MAX_STRING 4096u          /* longer labels are cut */
#define PROF_TF_DELTA_BITS 40             /* version 2 event words */
#define PROF_TF_ID_BITS 21
/* Event types beyond the markers' (PROF_IMPL_EV_BEGIN..FEND, 0..3, in
   profiler.h): -finstrument-functions entry and exit (id = the function's
   address, trace_hooks.c), and the time word. */
#define PROF_IMPL_EV_ENTER 4u
#define PROF_IMPL_EV_EXIT 5u
#define PROF_TF_EV_SYNC 6u

typedef struct
{
    char magic[8];           /* PROF_TF_MAGIC */
    uint32_t bom;            /* PROF_TF_BOM */
    uint32_t version;        /* PROF_TF_VERSION */
    uint32_t header_size;    /* sizeof(prof_tf_header) = 64 */
    uint32_t pid;
    double tick_rate;        /* counter ticks per second */
    uint64_t start_ticks;    /* counter at the start (all 64 bits) */
    uint64_t start_unix_ns;  /* CLOCK_REALTIME at the start */
    uint64_t reserved[2];
} prof_tf_header;

typedef struct
{
    uint32_t magic;          /* PROF_TF_CHUNK_MAGIC */
    uint32_t type;           /* prof_tf_chunk_type */
    uint32_t size;           /* payload bytes, a multiple of 8 */
    uint32_t tid;            /* thread the chunk is about (0: process) */
} prof_tf_chunk;

enum prof_tf_chunk_type
{
    PROF_TF_EVENTS = 1,  /* events of thread tid, in order */
    PROF_TF_STRINGS = 2, /* entries: u64 address, u32 length, u32 0, bytes,
                            zero padding to 8 */
    PROF_TF_THREAD = 3,  /* thread tid's name, zero padded */
    PROF_TF_MAPS = 4,    /* /proc/self/maps at the start, zero padded */
    PROF_TF_LOST = 5,    /* u64: events of thread tid lost before this */
    PROF_TF_END = 6,     /* u64 end ticks (64 bits), u64 total lost,
                            u32 signal number (0: normal exit), u32 0 */
    PROF_TF_EVENTS2 = 7, /* version 2 events of thread tid (see above) */
    PROF_TF_LABELS = 8   /* u32 first id, u32 count, count u64 addresses:
                            thread tid's ids first..first+count-1 */
};

#endif
