/*
    The CFI parser's view, shared by unwind_cfi.c (CIEs, FDEs, the lookup)
    and unwind.c (the row machine and the walk), and seen by the tests.
    Internal to the trace reader.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_UNWIND_CFI_H
#define PROF_UNWIND_CFI_H

#include "unwind.h"

/* A section's bytes and its address in the ELF file's address space. */
typedef struct { const unsigned char * p; size_t n; uint64_t vaddr; } pt_sect;

/* A CIE and one of its FDEs, parsed: the instructions point into the
   section's bytes. */
typedef struct
{
    uint64_t code_align;
    int64_t data_align;
    uint64_t ra;                    /* the return address column */
    const unsigned char * init, * init_end;
    unsigned char fde_enc, signal, aug_z;
} pt_cie;
typedef struct
{
    uint64_t lo, hi;                /* [lo, hi): the code it covers (vaddr) */
    const unsigned char * ins, * ins_end;
    pt_cie cie;
} pt_fde;

/* The CFI of hand-made sections (as pt_cfi_open finds them in a file:
   eh_frame_hdr and debug_frame may have n 0). NULL if eh_frame and
   debug_frame hold no FDE, or out of memory. */
pt_cfi * pt_cfi_sections(pt_sect eh_frame, pt_sect eh_frame_hdr,
                         pt_sect debug_frame);
/* The FDE that covers vaddr: 1 found, 0 none, -1 corrupt CFI. */
int pt_cfi_find(const pt_cfi * c, uint64_t vaddr, pt_fde * fde);
/* Whether an .eh_frame_hdr table is used (else an index of the FDEs). */
int pt_cfi_has_table(const pt_cfi * c);

/* A register's rule in a row of the CFI table. */
enum { PT_RULE_SAME, PT_RULE_UNDEF, PT_RULE_OFFSET, PT_RULE_VAL_OFFSET,
       PT_RULE_REG, PT_RULE_EXPR, PT_RULE_VAL_EXPR };
typedef struct
{
    unsigned char kind;
    int64_t n;                     /* the offset, or the register */
    const unsigned char * e;       /* an expression's bytes (n of them) */
} pt_rule;
/* The row at a vaddr: the CFA (reg + off, or the expression if cfa_e) and
   each register's rule. */
typedef struct
{
    uint64_t cfa_reg;
    int64_t cfa_off;
    const unsigned char * cfa_e;   /* cfa_off bytes of expression */
    pt_rule r[PT_UREGS];
    int ra_signed;                 /* ARM64 negate_ra_state: PAC-signed lr */
    uint64_t args_size;
} pt_row;

/* Run the CIE's then the FDE's instructions up to vaddr: 0, or
   PT_UNWIND_BAD_CFI. */
int pt_cfi_row(const pt_fde * fde, uint64_t vaddr, pt_row * row);

/* Read an encoded pointer (DW_EH_PE_*) at *p (< end), whose own address is
   vaddr: 0, or -1 if it does not fit or the encoding is unknown. datarel
   is relative to data (0: refused); indirect reads 8 bytes through c's
   file (NULL: refused). */
int pt_cfi_pointer(const unsigned char ** p, const unsigned char * end,
                   unsigned char enc, uint64_t vaddr, uint64_t data,
                   const pt_cfi * c, uint64_t * out);
uint64_t pt_cfi_uleb(const unsigned char ** p, const unsigned char * end, int * bad);
int64_t pt_cfi_sleb(const unsigned char ** p, const unsigned char * end, int * bad);

#endif
