/*
    Unwinding a sampled user stack without frame pointers: the DWARF call
    frame information (CFI) of the ELF files mapped (.eh_frame, through
    .eh_frame_hdr's table, and .debug_frame), run over the registers and
    the copy of the stack taken at the sample. A pure function of its
    inputs, for x86-64 and ARM64 whatever the host. Internal to the trace
    reader (doc/tracing.md, "Unwinding").
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_UNWIND_H
#define PROF_UNWIND_H

#include <stddef.h>
#include <stdint.h>

typedef enum { PT_ARCH_X86_64 = 1, PT_ARCH_ARM64 = 2 } pt_arch;
enum { PT_UREGS = 33 };
typedef struct
{
    pt_arch arch;
    uint64_t r[PT_UREGS];   /* by DWARF register number: x86-64 0-16 (7 = rsp,
                               6 = rbp, 16 = rip), ARM64 0-31 (29 = fp,
                               30 = lr, 31 = sp) and 32 = pc */
    uint64_t have;          /* bit i: r[i] known */
} pt_uregs;

typedef struct
{
    const unsigned char * data; size_t size; /* the bytes copied from the stack... */
    uint64_t base;                           /* ...from this address up (the sp at the sample) */
} pt_ustack;

typedef struct pt_cfi pt_cfi;   /* one ELF file's call frame information */

/* The CFI of an ELF file's bytes (.eh_frame via .eh_frame_hdr, else
   .eh_frame scanned, and .debug_frame; the bytes stay the caller's and
   must outlive it), or NULL with *why (if why is not NULL) set to a
   static message when it has none or is out of memory. */
pt_cfi * pt_cfi_open(const unsigned char * elf, size_t size, const char ** why);
void pt_cfi_free(pt_cfi * c);

/* One executable mapping of the process: [start, end), its ELF
   vaddr = address - bias, its CFI or NULL. */
typedef struct { uint64_t start, end, bias; const pt_cfi * cfi; } pt_umap;
/* NULL: address is in no executable mapping */
typedef const pt_umap * (*pt_umap_find)(void * ctx, uint64_t address);

enum pt_unwind_end
{
    PT_UNWIND_OUTERMOST,    /* the CFI says no caller (undefined return address) */
    PT_UNWIND_OUTSIDE,      /* a return address in no executable mapping */
    PT_UNWIND_NO_CFI,       /* a frame without CFI (and no frame pointer step) */
    PT_UNWIND_STACK_SHORT,  /* a rule reads outside the stack copy */
    PT_UNWIND_BAD_CFI,      /* CFI that cannot be parsed or run */
    PT_UNWIND_DEPTH,        /* max return addresses written */
    PT_UNWIND_LOOP          /* the CFA did not grow */
};

/* The chain of return addresses, leaf first (pc[0] = the sampled pc), at
   most max; *end says why the walk stopped. Never reads outside
   stack->data, never loops (bounded steps, CFA must grow), never calls out
   except find. A frame without CFI may be stepped by frame pointer when
   fp_fallback is set. */
size_t pt_unwind(const pt_uregs * regs, const pt_ustack * stack,
                 pt_umap_find find, void * ctx, uint64_t * pc, size_t max,
                 int fp_fallback, enum pt_unwind_end * end);

/* A short name of an end reason ("outermost", "stack short", ...). */
const char * pt_unwind_end_name(enum pt_unwind_end end);

#endif
