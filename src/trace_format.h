/*
    The raw trace file written by trace.c and read by tools/trace_read.c.

    A 64-byte file header, then chunks. Each chunk is a 16-byte chunk header
    (magic, type, payload size, thread id) and a payload whose size is a
    multiple of 8. All numbers are in the writer's byte order (the header's
    byte-order mark says which); events are 16 bytes:
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
#define PROF_TF_VERSION 1u
#define PROF_TF_CHUNK_MAGIC 0x4b435450u   /* "PTCK" little-endian */
#define PROF_TF_TICK_BITS 61
#define PROF_TF_TICK_MASK ((UINT64_C(1) << PROF_TF_TICK_BITS) - 1)
#define PROF_TF_MAX_CHUNK (UINT32_C(1) << 30)
#define PROF_TF_MAX_STRING 4096u          /* longer labels are cut */

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
    PROF_TF_END = 6      /* u64 end ticks (64 bits), u64 total lost,
                            u32 signal number (0: normal exit), u32 0 */
};

#endif
