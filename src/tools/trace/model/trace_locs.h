/*
    The addresses behind the named stacks of a sampled trace, for the
    writers that carry real mappings (Perfetto, pprof): a location per
    distinct (mapping, address, function), a mapping per distinct
    executable mapping of the trace (its start, end, file offset, module,
    and the file's build-id and load bias when it could be read). Frames
    in no mapping share one "[unknown]" mapping that spans only their
    addresses. Internal to the sampled reports (trace_samples.c).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_LOCS_H
#define PROF_TRACE_LOCS_H

#include "trace_elf.h"
#include "trace_map.h"
#include "trace_read.h"

#include <stddef.h>
#include <stdint.h>

/* PT_LOC_NONE as an address: a frame with none ("[no stack]"). */
#define PT_LOC_NONE UINT64_MAX

typedef struct
{
    uint64_t start, end, offset;  /* as the trace recorded it */
    uint32_t mod;                 /* the module's number, 0: [unknown] */
    pt_file_info file;            /* build-id, load bias (read 0: none) */
} pt_loc_map;

typedef struct
{
    uint64_t addr;   /* the address named (a return address - 1) */
    uint32_t fn;     /* the function's id */
    uint32_t map;    /* index into the mappings; 0 is [unknown] */
} pt_loc;

typedef struct
{
    pt_loc * v;
    size_t n, cap;
    pt_loc_map * maps;        /* maps[0]: [unknown] */
    size_t nmaps, mapcap;
    uint64_t unknown_lo, unknown_hi; /* the addresses in no mapping */
    pt_map idx;               /* hash of a location -> index + 1 */
    pt_map byvma;             /* the trace's vma index + 1 -> map + 1 */
} pt_locs;

/* The location of addr (PT_LOC_NONE: none) of function fn in mapping vma
   (NULL: none, else t's), its mapping's file read through sym (NULL: not
   read); UINT32_MAX if out of memory. */
uint32_t pt_locs_add(pt_locs * l, const pt_trace * t, const pt_vma * vma,
                     uint32_t mod, uint64_t addr, uint32_t fn, pt_symbols * sym);
/* The address of location lo relative to its mapping as Perfetto's
   Frame.rel_pc and pprof's Location.address relative to the mapping
   have it: the ELF file's virtual address (file offset + load bias),
   or the offset from [unknown]'s start. */
uint64_t pt_locs_rel_pc(const pt_locs * l, uint32_t lo);
/* Mapping m's start and end ([unknown]: its addresses' span). */
void pt_locs_span(const pt_locs * l, uint32_t m, uint64_t * start,
                  uint64_t * end);
void pt_locs_free(pt_locs * l);

#endif
