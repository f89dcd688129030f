/*
    CRC-32 as gzip, zlib and gdb's .gnu_debuglink compute it (reflected,
    polynomial 0xEDB88320): for the gzip writer (trace_gzip.c) and the
    debug-file lookup (trace_debug.c). Internal to the trace reader.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_CRC_H
#define PROF_TRACE_CRC_H

#include <stddef.h>
#include <stdint.h>

/* The CRC-32 of n bytes at d, continuing crc (0 to begin). */
uint32_t pt_crc32(uint32_t crc, const void * d, size_t n);

#endif
