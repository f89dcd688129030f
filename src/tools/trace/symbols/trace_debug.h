/*
    Separate debug files, found as gdb and perf find them, for a module
    whose own file has no .symtab (stripped, as a distribution's
    libraries): by its GNU build-id under ROOT/.build-id/xx/rest.debug,
    then by its .gnu_debuglink (the named file in the module's directory,
    in its .debug/ subdirectory, then ROOT + the module's directory), the
    link's CRC-32 checked. ROOT is /usr/lib/debug, or PROFILER_DEBUG_ROOT,
    or what prof-trace --debug-root sets. A candidate whose build-id or
    CRC does not match is ignored and said once. The parsers check every
    offset against the image's size. Internal to the trace reader.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_DEBUG_H
#define PROF_TRACE_DEBUG_H

#include <stddef.h>
#include <stdint.h>

/* The longest build-id kept (GNU ld writes 20 bytes, sha1). */
enum { PT_BUILD_ID_MAX = 64 };

/* The GNU build-id (an NT_GNU_BUILD_ID note named "GNU", in a note
   section, else a PT_NOTE segment) of the ELF64 image d (n bytes): its
   length, copied to id (at most PT_BUILD_ID_MAX bytes); 0 if none. */
size_t pt_elf_build_id(const unsigned char * d, size_t n, unsigned char * id);
/* The image's .gnu_debuglink: the file name into name (size bytes) and
   the CRC-32 it expects. 0, or -1 if none (or damaged). */
int pt_elf_debuglink(const unsigned char * d, size_t n, char * name,
                     size_t size, uint32_t * crc);
/* The directory searched in place of /usr/lib/debug (NULL: the
   environment's PROFILER_DEBUG_ROOT, else /usr/lib/debug). */
void pt_debug_set_root(const char * dir);
const char * pt_debug_root(void);
/* The debug file of the module read from path (image d, n bytes), read
   whole (n at *size, to free), or NULL if none is found or matches;
   warn(ctx, message) says a candidate that does not match. */
unsigned char * pt_debug_find(const char * path, const unsigned char * d,
                              size_t n, size_t * size,
                              void (*warn)(void * ctx, const char * message),
                              void * ctx);

#endif
