/*
    Names for the code addresses that -finstrument-functions records: the
    mappings the recorder wrote at the start of the trace, and the function
    symbols of the ELF files they name (or of the files given with
    --binary): .symtab, else the separate debug file's (trace_debug.c),
    else .dynsym. Internal to the trace reader.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_ELF_H
#define PROF_TRACE_ELF_H

#include "trace_debug.h"

#include <stddef.h>
#include <stdint.h>

typedef struct pt_symbols pt_symbols;

/* warn(ctx, message) reports a problem found while naming (a binary that
   moved or changed); binaries is --binary's list (NULL-terminated, or
   NULL). NULL if out of memory. */
pt_symbols * pt_symbols_new(const char * const * binaries,
                            void (*warn)(void * ctx, const char * message),
                            void * ctx);
/* Read a MAPS chunk's text (p, n bytes); the first executable mapping's
   path goes to process (size bytes) if it is empty. */
void pt_symbols_maps(pt_symbols * s, const unsigned char * p, size_t n,
                     char * process, size_t size);
/* The function at addr, or NULL. */
const char * pt_symbols_name(pt_symbols * s, uint64_t addr);
/* path's file name and off as module+0xOFFSET, into buf. */
void pt_module_offset(char * buf, size_t size, const char * path, uint64_t off);
/* addr as module+0xOFFSET (the mapping's file name, the offset in the
   file) into buf: 0, or -1 if no executable mapping holds it. */
int pt_symbols_place(const pt_symbols * s, uint64_t addr, char * buf,
                     size_t size);
/* The function at file offset off of the ELF file path (inode: the run's,
   0 if unknown; checked as the MAPS mappings are), or NULL. */
const char * pt_symbols_file_name(pt_symbols * s, const char * path,
                                  uint64_t inode, uint64_t off);
/* What a report needs of an ELF file besides names: its GNU build-id
   (build_id_len 0: none) and the load bias of its first executable
   segment (p_vaddr - p_offset, has_bias 0: none), as Perfetto's and
   pprof's mappings carry them. */
typedef struct
{
    unsigned char build_id[PT_BUILD_ID_MAX];
    size_t build_id_len;
    uint64_t load_bias;
    int has_bias;
    int read;            /* the file was read */
} pt_file_info;
/* That of the file path (inode as for pt_symbols_file_name), read on
   first use; NULL if it cannot be read. */
const pt_file_info * pt_symbols_file_info(pt_symbols * s, const char * path,
                                          uint64_t inode);
/* After the last chunk: says each --binary that names no mapping. */
void pt_symbols_finish(pt_symbols * s);
void pt_symbols_free(pt_symbols * s);

#endif
