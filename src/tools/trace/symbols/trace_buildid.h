/*
    The GNU build-id of an ELF file (its NT_GNU_BUILD_ID note), for the
    mappings of prof-trace --pprof (trace_buildid.c). Internal to the
    trace reader.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_BUILDID_H
#define PROF_TRACE_BUILDID_H

#include <stddef.h>

/* The build-id of the ELF file at path (32- or 64-bit, either byte
   order) as lower-case hex into hex (size bytes, at least 2 per byte of
   the id and 1): 0, or -1 if the file cannot be read, is not ELF or has
   no build-id note (hex is then ""). Reads the headers and the notes
   only. */
int pt_build_id(const char * path, char * hex, size_t size);

#endif
