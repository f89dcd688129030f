/*
    A gzip file (RFC 1952) of a buffer, with no library: DEFLATE (RFC 1951)
    in one block of the fixed Huffman codes, its matches found by a simple
    LZ77 (trace_gzip.c). For prof-trace --pprof, whose profile.proto is
    gzipped on disk. Internal to prof-trace's writers.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_GZIP_H
#define PROF_TRACE_GZIP_H

#include <stddef.h>
#include <stdint.h>

/* The gzip member of n bytes at d (n may be 0): a buffer to free, its
   size at *size; NULL if out of memory. */
unsigned char * pt_gzip(const void * d, size_t n, size_t * size);

#endif
