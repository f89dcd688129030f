/*
    Protobuf's wire format, written by hand (no dependency): a growing
    buffer and its fields, varints and length-delimited bytes, for the
    Perfetto (trace_perfetto.c) and pprof (trace_pprof.c) writers. A
    nested message is built in a buffer of its own, then put into its
    parent with pb_nest. Out of memory is sticky in the buffer (oom).
    Internal to prof-trace's writers.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_PB_H
#define PROF_TRACE_PB_H

#include <stddef.h>
#include <stdint.h>

enum { WIRE_VARINT = 0, WIRE_BYTES = 2 };

typedef struct { unsigned char * d; size_t n, cap; int oom; } pb_buf;

/* n bytes at p appended as they are. */
void pb_raw(pb_buf * b, const void * p, size_t n);
/* v as a base-128 varint, 1 to 10 bytes. */
void pb_varint(pb_buf * b, uint64_t v);
/* Field `field`: a varint (an int64 is its two's complement, 10 bytes
   when negative, as protobuf encodes it); n bytes; a string; the message
   inner (emptied). */
void pb_uint(pb_buf * b, unsigned field, uint64_t v);
void pb_bytes(pb_buf * b, unsigned field, const void * p, size_t n);
void pb_string(pb_buf * b, unsigned field, const char * s);
void pb_nest(pb_buf * b, unsigned field, pb_buf * inner);

#endif
