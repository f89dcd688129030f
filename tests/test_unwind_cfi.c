/*
    The DWARF CFI unwinder on hand-made bytes: each call frame instruction
    (its row at an address, and the same instruction with one operand byte
    changed must give another row), CIEs of versions 1, 3 and 4 with their
    augmentations, the pointer encodings, .eh_frame_hdr's table and the
    index, .debug_frame, the walk over a made-up stack on x86-64 and ARM64,
    and bad input: every end reason, every prefix and many corruptions of
    the CFI, without a crash or a hang. Given a directory, it writes there
    the seeds of fuzz_unwind (.ci/run's corpus, tests/fuzz/seeds/unwind-*).
    SPDX-License-Identifier: MIT
*/
#include "check.h"
#include "unwind_cfi.h"

#include <stdint.h>

typedef struct { unsigned char b[8192]; size_t n; } buf;

static void put(buf * B, const void * p, size_t n)
{
    if (B->n + n > sizeof B->b)
        exit(2);
    if (n > 0)
        memcpy(B->b + B->n, p, n);
    B->n += n;
}
static void u8(buf * B, unsigned v) { unsigned char c = (unsigned char) v; put(B, &c, 1); }
static void uN(buf * B, uint64_t v, int n) { while (n-- > 0) { u8(B, (unsigned) (v & 0xff)); v >>= 8; } }
static void set32(buf * B, size_t at, uint64_t v) { int i; for (i = 0; i < 4; i++) B->b[at + (size_t) i] = (unsigned char) (v >> (8 * i)); }
static void uleb(buf * B, uint64_t v)
{
    do { u8(B, (unsigned) ((v & 0x7f) | (v > 0x7f ? 0x80 : 0))); v >>= 7; } while (v);
}

/* A CIE (code align 1, data align -8) with augmentation aug: its offset.
   'R' gives fde_enc, 'P' a personality (indirect pcrel sdata4), 'L' an
   LSDA encoding. debug: .debug_frame's id; wide: 64-bit DWARF. */
static size_t cie(buf * B, int version, const char * aug, unsigned fde_enc, uint64_t ra,
                  const unsigned char * ins, size_t n, int debug, int wide)
{
    size_t at = B->n, len_at;
    const char * a;
    buf aug_data;
    aug_data.n = 0;
    if (wide) { uN(B, 0xffffffffu, 4); len_at = B->n; uN(B, 0, 8); uN(B, ~(uint64_t) 0, 8); }
    else { len_at = B->n; uN(B, 0, 4); uN(B, debug ? 0xffffffffu : 0, 4); }
    u8(B, (unsigned) version);
    put(B, aug, strlen(aug) + 1);
    if (version == 4) { u8(B, 8); u8(B, 0); }
    uleb(B, 1);
    u8(B, 0x78);                         /* sleb -8 */
    if (version == 1) u8(B, (unsigned) ra); else uleb(B, ra);
    for (a = aug; *a; a++)
        if (*a == 'R') u8(&aug_data, fde_enc);
        else if (*a == 'P') { u8(&aug_data, 0x9b); uN(&aug_data, 0x40, 4); }
        else if (*a == 'L') u8(&aug_data, 0x1b);
    if (*aug == 'z') { uleb(B, aug_data.n); put(B, aug_data.b, aug_data.n); }
    put(B, ins, n);
    if (wide) { uint64_t l = B->n - len_at - 8; int i; for (i = 0; i < 8; i++) B->b[len_at + (size_t) i] = (unsigned char) (l >> (8 * i)); }
    else set32(B, len_at, B->n - len_at - 4);
    return at;
}

/* An FDE for [lo, lo + range) of the CIE at cie_at: .eh_frame's form
   (pcrel sdata4, the section at vaddr; lsda: 4 bytes of augmentation
   data), or .debug_frame's (8-byte addresses). Its offset. */
static size_t fde(buf * B, size_t cie_at, uint64_t vaddr, uint64_t lo, uint64_t range,
                  const unsigned char * ins, size_t n, int debug, int lsda)
{
    size_t at = B->n;
    uN(B, 0, 4);
    if (debug) { uN(B, cie_at, 4); uN(B, lo, 8); uN(B, range, 8); }
    else
    {
        uN(B, B->n - cie_at, 4);
        uN(B, lo - (vaddr + B->n), 4);
        uN(B, range, 4);
        uleb(B, lsda ? 4 : 0);
        if (lsda) uN(B, 0, 4);
    }
    put(B, ins, n);
    set32(B, at, B->n - at - 4);
    return at;
}

static const unsigned char x86_init[] = { 0x0c, 7, 8, 0x90, 1 };  /* CFA rsp+8, ra at cfa-8 */
static const pt_sect no_sect = { NULL, 0, 0 };

/* The row at `at` of one FDE [0x1000, 0x21000) with these instructions. */
static int row_of(const unsigned char * ins, size_t n, uint64_t at, pt_row * row)
{
    static buf B;
    pt_sect eh;
    pt_fde f;
    pt_cfi * c;
    int r;
    B.n = 0;
    fde(&B, cie(&B, 1, "zR", 0x1b, 16, x86_init, sizeof x86_init, 0, 0), 0x100,
        0x1000, 0x20000, ins, n, 0, 0);
    uN(&B, 0, 4);
    eh.p = B.b;
    eh.n = B.n;
    eh.vaddr = 0x100;
    c = pt_cfi_sections(eh, no_sect, no_sect);
    if (c == NULL)
        return -2;
    r = pt_cfi_find(c, at, &f);
    r = r == 1 ? pt_cfi_row(&f, at, row) : -3;
    pt_cfi_free(c);
    return r;
}

enum { F_CFA_REG, F_CFA_OFF, F_CFA_E, F_RULE, F_ARGS, F_SIGNED };
typedef struct
{
    const char * what;
    unsigned char ins[12];
    size_t n;
    int operand;            /* the byte changed by the mutation, or -1 */
    uint64_t at;
    int field, reg;
    int64_t want;
} op_case;

#define RULE(kind, n) ((int64_t) (kind) << 32 | (int64_t) ((uint64_t) (n) & 0xffffffffu))

static int64_t field(const pt_row * r, int what, int reg)
{
    switch (what)
    {
    case F_CFA_REG: return (int64_t) r->cfa_reg;
    case F_CFA_OFF: return r->cfa_off;
    case F_CFA_E: return r->cfa_e != NULL ? r->cfa_e[0] : -1;
    case F_RULE: return RULE(r->r[reg].kind, r->r[reg].n);
    case F_ARGS: return (int64_t) r->args_size;
    default: return r->ra_signed;
    }
}

static const op_case cases[] = {
    { "advance_loc", { 0x44, 0x0e, 16 }, 3, 0, 0x1004, F_CFA_OFF, 0, 16 },
    { "advance_loc before", { 0x44, 0x0e, 16 }, 3, -1, 0x1003, F_CFA_OFF, 0, 8 },
    { "advance_loc1", { 0x02, 10, 0x0e, 24 }, 4, 1, 0x100a, F_CFA_OFF, 0, 24 },
    { "advance_loc2", { 0x03, 0x00, 0x01, 0x0e, 24 }, 5, 1, 0x1100, F_CFA_OFF, 0, 24 },
    { "advance_loc4", { 0x04, 0x00, 0x00, 0x01, 0x00, 0x0e, 24 }, 7, 1, 0x11000, F_CFA_OFF, 0, 24 },
    { "def_cfa reg", { 0x0c, 6, 16 }, 3, 1, 0x1000, F_CFA_REG, 0, 6 },
    { "def_cfa offset", { 0x0c, 6, 16 }, 3, 2, 0x1000, F_CFA_OFF, 0, 16 },
    { "def_cfa_sf", { 0x12, 6, 0x7e }, 3, 2, 0x1000, F_CFA_OFF, 0, 16 },
    { "def_cfa_register", { 0x0d, 6 }, 2, 1, 0x1000, F_CFA_REG, 0, 6 },
    { "def_cfa_offset", { 0x0e, 32 }, 2, 1, 0x1000, F_CFA_OFF, 0, 32 },
    { "def_cfa_offset_sf", { 0x13, 0x7d }, 2, 1, 0x1000, F_CFA_OFF, 0, 24 },
    { "def_cfa_expression", { 0x0f, 1, 0x38 }, 3, 2, 0x1000, F_CFA_E, 0, 0x38 },
    { "offset", { 0x83, 2 }, 2, 1, 0x1000, F_RULE, 3, RULE(PT_RULE_OFFSET, -16) },
    { "offset reg", { 0x83, 2 }, 2, 0, 0x1000, F_RULE, 3, RULE(PT_RULE_OFFSET, -16) },
    { "offset_extended", { 0x05, 3, 2 }, 3, 2, 0x1000, F_RULE, 3, RULE(PT_RULE_OFFSET, -16) },
    { "offset_extended_sf", { 0x11, 3, 0x7e }, 3, 2, 0x1000, F_RULE, 3, RULE(PT_RULE_OFFSET, 16) },
    { "negative_offset", { 0x2f, 3, 2 }, 3, 2, 0x1000, F_RULE, 3, RULE(PT_RULE_OFFSET, 16) },
    { "val_offset", { 0x14, 3, 2 }, 3, 2, 0x1000, F_RULE, 3, RULE(PT_RULE_VAL_OFFSET, -16) },
    { "val_offset_sf", { 0x15, 3, 0x7e }, 3, 1, 0x1000, F_RULE, 3, RULE(PT_RULE_VAL_OFFSET, 16) },
    { "restore", { 0x90, 2, 0xd0 }, 3, 2, 0x1000, F_RULE, 16, RULE(PT_RULE_OFFSET, -8) },
    { "restore_extended", { 0x90, 2, 0x06, 16 }, 4, 3, 0x1000, F_RULE, 16, RULE(PT_RULE_OFFSET, -8) },
    { "undefined", { 0x07, 16 }, 2, 1, 0x1000, F_RULE, 16, RULE(PT_RULE_UNDEF, 0) },
    { "same_value", { 0x08, 16 }, 2, 1, 0x1000, F_RULE, 16, RULE(PT_RULE_SAME, 0) },
    { "register", { 0x09, 3, 5 }, 3, 2, 0x1000, F_RULE, 3, RULE(PT_RULE_REG, 5) },
    { "remember/restore_state", { 0x0e, 16, 0x0a, 0x0e, 32, 0x0b }, 6, 5, 0x1000, F_CFA_OFF, 0, 16 },
    { "GNU_args_size", { 0x2e, 32 }, 2, 1, 0x1000, F_ARGS, 0, 32 },
    { "negate_ra_state", { 0x2d }, 1, 0, 0x1000, F_SIGNED, 0, 1 },
    { "expression", { 0x10, 3, 1, 0x38 }, 4, 2, 0x1000, F_RULE, 3, RULE(PT_RULE_EXPR, 1) },
    { "val_expression", { 0x16, 3, 1, 0x38 }, 4, 1, 0x1000, F_RULE, 3, RULE(PT_RULE_VAL_EXPR, 1) },
    { "nop", { 0x00, 0x0e, 16 }, 3, -1, 0x1000, F_CFA_OFF, 0, 16 },
};

static void test_ops(void)
{
    size_t i;
    for (i = 0; i < sizeof cases / sizeof *cases; i++)
    {
        const op_case * k = &cases[i];
        unsigned char m[12];
        pt_row row;
        int r = row_of(k->ins, k->n, k->at, &row);
        CHECK(r == 0 && field(&row, k->field, k->reg) == k->want, "%s: status %d, %lld not %lld",
              k->what, r, r == 0 ? (long long) field(&row, k->field, k->reg) : 0LL,
              (long long) k->want);
        if (k->operand < 0)
            continue;
        memcpy(m, k->ins, sizeof m);
        m[k->operand] ^= 1;
        r = row_of(m, k->n, k->at, &row);
        CHECK(r != 0 || field(&row, k->field, k->reg) != k->want,
              "%s: byte %d changed, the row is the same", k->what, k->operand);
    }
    {
        static const unsigned char cut[] = { 0x0e, 0x80 }, cut_block[] = { 0x0f, 5, 0x38 };
        static const unsigned char restore_empty[] = { 0x0b }, unknown[] = { 0x3f };
        pt_row row;
        CHECK(row_of(cut, sizeof cut, 0x1000, &row) == PT_UNWIND_BAD_CFI, "a LEB128 cut short: read");
        CHECK(row_of(cut_block, sizeof cut_block, 0x1000, &row) == PT_UNWIND_BAD_CFI,
              "an expression past the end: read");
        CHECK(row_of(restore_empty, 1, 0x1000, &row) == PT_UNWIND_BAD_CFI,
              "restore_state without remember_state: read");
        CHECK(row_of(unknown, 1, 0x1000, &row) == PT_UNWIND_BAD_CFI, "an unknown opcode: read");
    }
}

/* ---- the walk over made-up stacks ----------------------------------------- */

typedef struct { pt_umap m[2]; int n; } world;

static const pt_umap * find(void * ctx, uint64_t a)
{
    world * w = (world *) ctx;
    int i;
    for (i = 0; i < w->n; i++)
        if (a >= w->m[i].start && a < w->m[i].end)
            return &w->m[i];
    return NULL;
}

enum { FA = 0x401000, FB = 0x402000, FC = 0x403000, FX = 0x404000, EH = 0x400100 };

/* The .eh_frame of functions A (leaf: the CIE's rules, or a_ins), B
   (b_ins) and C (the outermost: ra undefined) on x86-64. */
static size_t fde_at[3];   /* x86_frames' FDEs */

static void x86_frames(buf * B, const unsigned char * a_ins, size_t an,
                       const unsigned char * b_ins, size_t bn, const char * aug)
{
    static const unsigned char undef_ra[] = { 0x07, 16 };
    size_t c;
    B->n = 0;
    c = cie(B, 1, aug, 0x1b, 16, x86_init, sizeof x86_init, 0, 0);
    fde_at[0] = fde(B, c, EH, FA, 0x100, a_ins, an, 0, strchr(aug, 'L') != NULL);
    fde_at[1] = fde(B, c, EH, FB, 0x100, b_ins, bn, 0, strchr(aug, 'L') != NULL);
    fde_at[2] = fde(B, c, EH, FC, 0x100, undef_ra, sizeof undef_ra, 0, strchr(aug, 'L') != NULL);
    uN(B, 0, 4);
}

static size_t walk(pt_cfi * c, pt_arch arch, const uint64_t * regs, const int * which, int nregs,
                   const uint64_t * words, size_t nwords, uint64_t base, uint64_t * pc,
                   size_t max, int fp, enum pt_unwind_end * end)
{
    static unsigned char bytes[256];
    pt_uregs u;
    pt_ustack st;
    world w;
    size_t i;
    int k;
    memset(&u, 0, sizeof u);
    u.arch = arch;
    for (k = 0; k < nregs; k++)
    {
        u.r[which[k]] = regs[k];
        u.have |= (uint64_t) 1 << which[k];
    }
    for (i = 0; i < nwords && i < 32; i++)
        for (k = 0; k < 8; k++)
            bytes[8 * i + (size_t) k] = (unsigned char) (words[i] >> (8 * k));
    st.data = bytes;
    st.size = 8 * nwords;
    st.base = base;
    w.n = 2;
    w.m[0].start = 0x401000;
    w.m[0].end = 0x404000;
    w.m[0].bias = 0;
    w.m[0].cfi = c;
    w.m[1].start = FX;               /* a mapping without CFI */
    w.m[1].end = FX + 0x1000;
    w.m[1].bias = 0;
    w.m[1].cfi = NULL;
    return pt_unwind(&u, &st, find, &w, pc, max, fp, end);
}

static pt_cfi * eh_cfi(const buf * B)
{
    pt_sect eh;
    eh.p = B->b;
    eh.n = B->n;
    eh.vaddr = EH;
    return pt_cfi_sections(eh, no_sect, no_sect);
}

static const int x86_regs[3] = { 16, 7, 6 };   /* rip, rsp, rbp */
static const unsigned char b_frame[] = { 0x41, 0x0e, 16, 0x86, 2 };   /* CFA rsp+16, rbp at cfa-16 */

/* A (leaf) -> B -> C: the chain, and what each kind of damage ends it as. */
static void test_walk_x86(void)
{
    static const unsigned char loop[] = { 0x0c, 6, 16 };        /* CFA rbp+16, rbp unchanged */
    static const unsigned char bad_state[] = { 0x0b };
    static const unsigned char far_rule[] = { 0x41, 0x0e, 16, 0x86, 0x40 };  /* rbp at cfa-512 */
    static const unsigned char ra_expr[] = { 0x41, 0x0e, 16, 0x10, 16, 3, 0x11, 0x78, 0x22 };
    static const unsigned char plt[] = { 0x0f, 11, 0x77, 8, 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22 };
    static const unsigned char bad_op[] = { 0x0f, 1, 0xe0 };
    uint64_t regs[3] = { FA + 5, 0x7000, 0x1111 }, pc[8];
    uint64_t stack[4] = { FB + 0x11, 0x2222, FC + 0x21, 0 };
    enum pt_unwind_end end;
    pt_cfi * c;
    size_t n;
    buf B;

    x86_frames(&B, NULL, 0, b_frame, sizeof b_frame, "zR");
    c = eh_cfi(&B);
    n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 8, 0, &end);
    CHECK(n == 3 && pc[0] == FA + 5 && pc[1] == FB + 0x11 && pc[2] == FC + 0x21
          && end == PT_UNWIND_OUTERMOST, "A B C: %zu frames, end %s", n, pt_unwind_end_name(end));
    n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 2, 0, &end);
    CHECK(n == 2 && end == PT_UNWIND_DEPTH, "depth: %zu, %s", n, pt_unwind_end_name(end));
    n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 2, 0x7000, pc, 8, 0, &end);
    CHECK(n == 2 && end == PT_UNWIND_STACK_SHORT, "short: %zu, %s", n, pt_unwind_end_name(end));
    stack[2] = 0x900000;   /* a return address in no mapping: no junk caller */
    n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 8, 0, &end);
    CHECK(n == 2 && end == PT_UNWIND_OUTSIDE, "outside: %zu, %s", n, pt_unwind_end_name(end));
    stack[2] = FX + 0x10;  /* a caller without CFI: by frame pointer if asked */
    n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 8, 0, &end);
    CHECK(n == 3 && end == PT_UNWIND_NO_CFI, "no CFI: %zu, %s", n, pt_unwind_end_name(end));
    {
        /* X (no CFI) at 0x7010, its rbp 0x7018: [rbp] rbp, [rbp + 8] the return address */
        uint64_t fp_chain[6] = { FB + 0x11, 0x7018, FX + 0x10, 0, FC + 0x21, 0 };
        n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, fp_chain, 6, 0x7000, pc, 8, 1, &end);
        CHECK(n == 4 && pc[2] == FX + 0x10 && pc[3] == FC + 0x21 && end == PT_UNWIND_OUTERMOST,
              "fp fallback: %zu, %s", n, pt_unwind_end_name(end));
        fp_chain[1] = 0x6000;   /* a frame pointer below the stack copy */
        n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, fp_chain, 6, 0x7000, pc, 8, 1, &end);
        CHECK(n == 3 && end == PT_UNWIND_STACK_SHORT, "fp outside: %zu, %s", n,
              pt_unwind_end_name(end));
    }
    stack[2] = FC + 0x21;
    stack[0] = FB + 0x100;   /* a call as B's last instruction: B's CFI, looked up at pc - 1 */
    n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 8, 0, &end);
    CHECK(n == 3 && end == PT_UNWIND_OUTERMOST, "return at B's end: %zu, %s", n,
          pt_unwind_end_name(end));
    stack[0] = FB + 0x11;
    pt_cfi_free(c);

    x86_frames(&B, NULL, 0, loop, sizeof loop, "zR");
    c = eh_cfi(&B);
    {
        uint64_t lstack[3] = { FB + 0x11, FB + 0x11, FB + 0x11 };
        regs[2] = 0x7000;
        n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, lstack, 3, 0x7000, pc, 8, 0, &end);
        CHECK(n == 3 && end == PT_UNWIND_LOOP, "loop: %zu, %s", n, pt_unwind_end_name(end));
        regs[2] = 0x1111;
    }
    pt_cfi_free(c);

    x86_frames(&B, NULL, 0, bad_state, sizeof bad_state, "zR");
    c = eh_cfi(&B);
    n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 8, 0, &end);
    CHECK(n == 2 && end == PT_UNWIND_BAD_CFI, "restore_state: %zu, %s", n, pt_unwind_end_name(end));
    pt_cfi_free(c);

    x86_frames(&B, NULL, 0, far_rule, sizeof far_rule, "zR");
    c = eh_cfi(&B);
    n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 8, 0, &end);
    CHECK(n == 2 && end == PT_UNWIND_STACK_SHORT, "far rule: %zu, %s", n, pt_unwind_end_name(end));
    pt_cfi_free(c);

    /* the return address by DW_CFA_expression (cfa - 8), LSDA and personality in the CIE */
    x86_frames(&B, NULL, 0, ra_expr, sizeof ra_expr, "zPLR");
    c = eh_cfi(&B);
    n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 8, 0, &end);
    CHECK(n == 3 && pc[2] == FC + 0x21 && end == PT_UNWIND_OUTERMOST, "ra expression: %zu, %s", n,
          pt_unwind_end_name(end));
    pt_cfi_free(c);

    /* the PLT's CFA expression: rsp + 8, + 8 more from (rip & 15) >= 11 on */
    x86_frames(&B, plt, sizeof plt, b_frame, sizeof b_frame, "zR");
    c = eh_cfi(&B);
    n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 8, 0, &end);
    CHECK(n == 3 && end == PT_UNWIND_OUTERMOST, "PLT at +5: %zu, %s", n, pt_unwind_end_name(end));
    {
        uint64_t pstack[5] = { 0x5555, FB + 0x11, 0x2222, FC + 0x21, 0 };
        regs[0] = FA + 12;
        n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, pstack, 5, 0x7000, pc, 8, 0, &end);
        CHECK(n == 3 && pc[1] == FB + 0x11 && end == PT_UNWIND_OUTERMOST, "PLT at +12: %zu, %s", n,
              pt_unwind_end_name(end));
        regs[0] = FA + 5;
    }
    pt_cfi_free(c);

    x86_frames(&B, bad_op, sizeof bad_op, b_frame, sizeof b_frame, "zR");
    c = eh_cfi(&B);
    n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 8, 0, &end);
    CHECK(n == 1 && end == PT_UNWIND_BAD_CFI, "unknown DW_OP: %zu, %s", n, pt_unwind_end_name(end));
    pt_cfi_free(c);
}

/* ARM64: the frameless leaf's caller from lr, a PAC-signed saved lr. */
static void test_walk_arm64(void)
{
    static const unsigned char init[] = { 0x0c, 31, 0 };            /* CFA sp+0 */
    static const unsigned char b_ins[] = { 0x41, 0x2d, 0x41, 0x0e, 16, 0x9d, 2, 0x9e, 1 };
    static const unsigned char b_nopac[] = { 0x41, 0x00, 0x41, 0x0e, 16, 0x9d, 2, 0x9e, 1 };
    static const unsigned char undef_lr[] = { 0x07, 30 };
    static const int which[3] = { 32, 31, 30 };    /* pc, sp, lr */
    uint64_t regs[3] = { FA + 4, 0x8000, FB + 0x14 }, pc[8];
    uint64_t stack[2] = { 0x3333, (FC + 0x24) | 0x0023000000000000u };
    enum pt_unwind_end end;
    int pac;
    for (pac = 1; pac >= 0; pac--)
    {
        buf B;
        pt_cfi * c;
        size_t n, k;
        B.n = 0;
        k = cie(&B, 3, "zR", 0x1b, 30, init, sizeof init, 0, 0);
        fde(&B, k, EH, FA, 0x100, NULL, 0, 0, 0);
        fde(&B, k, EH, FB, 0x100, pac ? b_ins : b_nopac, sizeof b_ins, 0, 0);
        fde(&B, k, EH, FC, 0x100, undef_lr, sizeof undef_lr, 0, 0);
        c = eh_cfi(&B);
        n = walk(c, PT_ARCH_ARM64, regs, which, 3, stack, 2, 0x8000, pc, 8, 0, &end);
        if (pac)
            CHECK(n == 3 && pc[1] == FB + 0x14 && pc[2] == FC + 0x24 && end == PT_UNWIND_OUTERMOST,
                  "arm64: %zu frames, end %s", n, pt_unwind_end_name(end));
        else   /* the same without negate_ra_state: the signed address is in no mapping */
            CHECK(n == 2 && end == PT_UNWIND_OUTSIDE, "arm64 unsigned: %zu, %s", n,
                  pt_unwind_end_name(end));
        pt_cfi_free(c);
    }
}

/* The chain A B C through c: 1 if whole. */
static int chain_abc(pt_cfi * c)
{
    uint64_t regs[3] = { FA + 5, 0x7000, 0x1111 }, pc[8];
    uint64_t stack[4] = { FB + 0x11, 0x2222, FC + 0x21, 0 };
    enum pt_unwind_end end;
    size_t n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 8, 0, &end);
    return n == 3 && pc[1] == FB + 0x11 && pc[2] == FC + 0x21 && end == PT_UNWIND_OUTERMOST;
}

/* .debug_frame alone: CIEs of versions 1, 3 and 4 (this one 64-bit DWARF) */
static void test_debug_frame(void)
{
    static const unsigned char undef_ra[] = { 0x07, 16 };
    int v;
    for (v = 1; v <= 4; v++)
    {
        buf D;
        pt_sect dbg;
        pt_cfi * c;
        size_t k;
        pt_fde f;
        if (v == 2)
            continue;
        D.n = 0;
        k = cie(&D, v, "", 0, 16, x86_init, sizeof x86_init, 1, v == 4);
        fde(&D, k, 0, FA, 0x100, NULL, 0, 1, 0);
        fde(&D, k, 0, FB, 0x100, b_frame, sizeof b_frame, 1, 0);
        fde(&D, k, 0, FC, 0x100, undef_ra, sizeof undef_ra, 1, 0);
        dbg.p = D.b;
        dbg.n = D.n;
        dbg.vaddr = 0;
        c = pt_cfi_sections(no_sect, no_sect, dbg);
        CHECK(c != NULL && chain_abc(c), ".debug_frame, CIE version %d", v);
        CHECK(c == NULL || pt_cfi_find(c, FB + 0x100, &f) == 0, "past B's end: found");
        pt_cfi_free(c);
        D.b[k + (v == 4 ? 20 : 8)] = 2;   /* version 2: refused */
        c = pt_cfi_sections(no_sect, no_sect, dbg);
        CHECK(c == NULL, ".debug_frame with a version 2 CIE: read");
        pt_cfi_free(c);
    }
}

static void test_pointers(void)
{
    static const struct { unsigned char enc; unsigned char b[9]; size_t n; uint64_t data, want; int ok; } p[] = {
        { 0x02, { 0xfe, 0xff }, 2, 0, 0xfffe, 1 },
        { 0x0a, { 0xfe, 0xff }, 2, 0, (uint64_t) -2, 1 },
        { 0x03, { 0xfc, 0xff, 0xff, 0xff }, 4, 0, 0xfffffffcu, 1 },
        { 0x0b, { 0xfc, 0xff, 0xff, 0xff }, 4, 0, (uint64_t) -4, 1 },
        { 0x04, { 1, 2, 3, 4, 5, 6, 7, 8 }, 8, 0, 0x0807060504030201u, 1 },
        { 0x0c, { 0xf8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff }, 8, 0, (uint64_t) -8, 1 },
        { 0x00, { 1, 0, 0, 0, 0, 0, 0, 0 }, 8, 0, 1, 1 },
        { 0x01, { 0x80, 0x01 }, 2, 0, 128, 1 },
        { 0x09, { 0x7f }, 1, 0, (uint64_t) -1, 1 },
        { 0x1b, { 0x10, 0, 0, 0 }, 4, 0, 0x1000 + 0x10, 1 },    /* pcrel: from the field */
        { 0x3b, { 0xf0, 0xff, 0xff, 0xff }, 4, 0x2000, 0x2000 - 0x10, 1 },   /* datarel */
        { 0x3b, { 0x10, 0, 0, 0 }, 4, 0, 0, 0 },     /* datarel without a base */
        { 0x23, { 0x10, 0, 0, 0 }, 4, 0, 0, 0 },     /* textrel */
        { 0x83, { 0x10, 0, 0, 0 }, 4, 0, 0, 0 },     /* indirect without a file */
        { 0xff, { 0 }, 1, 0, 0, 0 },                 /* omit */
        { 0x0b, { 0x10, 0, 0 }, 3, 0, 0, 0 },        /* cut short */
        { 0x01, { 0x80, 0x80 }, 2, 0, 0, 0 },        /* a LEB128 cut short */
    };
    size_t i;
    for (i = 0; i < sizeof p / sizeof *p; i++)
    {
        const unsigned char * q = p[i].b;
        uint64_t v = 0;
        int r = pt_cfi_pointer(&q, p[i].b + p[i].n, p[i].enc, 0x1000, p[i].data, NULL, &v);
        CHECK(p[i].ok ? r == 0 && v == p[i].want && q == p[i].b + p[i].n : r != 0,
              "encoding 0x%02x (case %zu): status %d, 0x%llx", p[i].enc, i, r,
              (unsigned long long) v);
    }
}

/* A small ELF file: its first PT_LOAD maps the whole file at 0x400000, a
   PT_GNU_EH_FRAME names the .eh_frame_hdr at 0xc0, .eh_frame sits at
   0x100 (EH), and section headers name both (unless shoff is 0). */
enum { HDR = 0x4000c0, ELF_SIZE = 0xa00 };
static unsigned char elf[ELF_SIZE];

static void le_at(size_t at, uint64_t v, int n)
{
    int i;
    for (i = 0; i < n; i++)
        elf[at + (size_t) i] = (unsigned char) (v >> (8 * i));
}

static void make_elf(const buf * eh, int sections)
{
    static const char strs[] = "\0.eh_frame\0.eh_frame_hdr\0.shstrtab";
    size_t i;
    memset(elf, 0, sizeof elf);
    memcpy(elf, "\177ELF\2\1\1", 7);
    le_at(0x10, 3, 2);                         /* ET_DYN */
    le_at(0x20, 0x40, 8);                      /* phoff */
    le_at(0x28, sections ? 0x900 : 0, 8);      /* shoff */
    le_at(0x36, 56, 2); le_at(0x38, 2, 2);
    le_at(0x3a, 64, 2); le_at(0x3c, 4, 2); le_at(0x3e, 3, 2);
    le_at(0x40, 1, 4); le_at(0x48, 0, 8); le_at(0x50, 0x400000, 8); le_at(0x60, ELF_SIZE, 8);
    le_at(0x78, 0x6474e550, 4); le_at(0x80, 0xc0, 8); le_at(0x88, HDR, 8); le_at(0x98, 36, 8);
    le_at(0xb0, FB, 8);                        /* a word for an indirect pointer */
    /* .eh_frame_hdr: eh_frame_ptr pcrel sdata4, count udata4, table datarel sdata4 */
    elf[0xc0] = 1; elf[0xc1] = 0x1b; elf[0xc2] = 0x03; elf[0xc3] = 0x3b;
    le_at(0xc4, (uint64_t) (EH - (HDR + 4)), 4);
    le_at(0xc8, 3, 4);
    for (i = 0; i < 3; i++)
    {
        le_at(0xcc + 8 * i, (uint64_t) (FA + 0x1000 * i - HDR), 4);
        le_at(0xd0 + 8 * i, (uint64_t) (EH + fde_at[i] - HDR), 4);
    }
    memcpy(elf + 0x100, eh->b, eh->n);
    memcpy(elf + 0x800, strs, sizeof strs);
    /* section headers: 1 .eh_frame, 2 .eh_frame_hdr, 3 .shstrtab */
    le_at(0x940, 1, 4); le_at(0x944, 1, 4); le_at(0x950, EH, 8); le_at(0x958, 0x100, 8); le_at(0x960, eh->n, 8);
    le_at(0x980, 11, 4); le_at(0x984, 1, 4); le_at(0x990, HDR, 8); le_at(0x998, 0xc0, 8); le_at(0x9a0, 36, 8);
    le_at(0x9c0, 25, 4); le_at(0x9c4, 3, 4); le_at(0x9d8, 0x800, 8); le_at(0x9e0, sizeof strs, 8);
}

static void test_elf(void)
{
    const char * why = NULL;
    const unsigned char * q;
    uint64_t v = 0;
    pt_cfi * c;
    buf B;
    int s;
    x86_frames(&B, NULL, 0, b_frame, sizeof b_frame, "zR");
    for (s = 1; s >= 0; s--)
    {
        make_elf(&B, s);
        c = pt_cfi_open(elf, sizeof elf, &why);
        CHECK(c != NULL && pt_cfi_has_table(c) && chain_abc(c), "ELF file (section headers: %d): %s",
              s, c ? "no table or no chain" : why);
        /* DW_EH_PE_indirect: the pointer's address, read through the file */
        q = (const unsigned char *) "\xb0\x00\x40\x00\x00\x00\x00\x00";
        CHECK(c != NULL && pt_cfi_pointer(&q, q + 8, 0x80, 0, 0, c, &v) == 0 && v == FB,
              "indirect: 0x%llx", (unsigned long long) v);
        pt_cfi_free(c);
    }
    /* a table whose count does not fit: the index instead */
    make_elf(&B, 1);
    le_at(0xc8, 1000, 4);
    c = pt_cfi_open(elf, sizeof elf, &why);
    CHECK(c != NULL && !pt_cfi_has_table(c) && chain_abc(c), "ELF file, bad table");
    pt_cfi_free(c);
    /* without .eh_frame_hdr: the index */
    make_elf(&B, 1);
    le_at(0x980, 25, 4);   /* the section's name is .shstrtab's now */
    le_at(0x78, 0, 4);     /* and no PT_GNU_EH_FRAME */
    c = pt_cfi_open(elf, sizeof elf, &why);
    CHECK(c != NULL && !pt_cfi_has_table(c) && chain_abc(c), "ELF file without .eh_frame_hdr");
    pt_cfi_free(c);
    why = NULL;
    CHECK(pt_cfi_open((const unsigned char *) "not an ELF file, really not one at all....."
                      "...................", 64, &why) == NULL && why != NULL, "not ELF");
    make_elf(&B, 1);
    memset(elf + 0x100, 0, B.n);   /* no FDE, no table */
    le_at(0x78, 0, 4);
    le_at(0x980, 25, 4);
    why = NULL;
    CHECK(pt_cfi_open(elf, sizeof elf, &why) == NULL && why != NULL, "no CFI: opened");
}

/* Every prefix of the CFI, and every byte changed three ways: any chain,
   any end, never a crash, at most the frames asked. */
static void test_corrupt(void)
{
    static const unsigned char flips[3] = { 0x01, 0x80, 0xff };
    uint64_t regs[3] = { FA + 5, 0x7000, 0x1111 }, pc[8];
    uint64_t stack[4] = { FB + 0x11, 0x2222, FC + 0x21, 0 };
    enum pt_unwind_end end;
    buf B, M;
    size_t i, n, runs = 0, odd = 0;
    int k, s;
    x86_frames(&B, NULL, 0, b_frame, sizeof b_frame, "zPLR");
    for (i = 0; i <= B.n; i++)
    {
        M = B;
        M.n = i;
        {
            pt_cfi * c = eh_cfi(&M);
            n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 8, 0, &end);
            odd += n > 8 || (unsigned) end > PT_UNWIND_LOOP;
            pt_cfi_free(c);
            runs++;
        }
    }
    for (s = 0; s < 2; s++)
        for (i = 0; i < (s ? 0xe4u - 0xc0u : B.n); i++)
            for (k = 0; k < 3; k++)
            {
                pt_cfi * c;
                make_elf(&B, 1);
                elf[(s ? 0xc0 : 0x100) + i] ^= flips[k];
                c = pt_cfi_open(elf, sizeof elf, NULL);
                n = walk(c, PT_ARCH_X86_64, regs, x86_regs, 3, stack, 4, 0x7000, pc, 8, 0, &end);
                odd += n > 8 || (unsigned) end > PT_UNWIND_LOOP;
                pt_cfi_free(c);
                runs++;
            }
    CHECK(odd == 0, "%zu of %zu damaged walks out of bounds", odd, runs);
    printf("test_unwind_cfi: %zu damaged CFI walked\n", runs);
}

/* ---- seeds for fuzz_unwind (its input's form: tests/fuzz/fuzz_unwind.c) ---- */

static void seed(const char * dir, const char * name, unsigned flags, const unsigned char * cfi,
                 size_t n, const unsigned short regs[4], const uint64_t * words, size_t nw)
{
    char path[512];
    FILE * f;
    size_t i;
    int k;
    snprintf(path, sizeof path, "%s/unwind-%s", dir, name);
    f = fopen(path, "wb");
    if (f == NULL)
        return;
    fputc((int) flags, f);
    fputc((int) (n & 0xff), f);
    fputc((int) (n >> 8), f);
    fwrite(cfi, 1, n, f);
    for (k = 0; k < 4; k++)
    {
        fputc(regs[k] & 0xff, f);
        fputc(regs[k] >> 8, f);
    }
    for (i = 0; i < nw; i++)
        for (k = 0; k < 8; k++)
            fputc((int) ((words[i] >> (8 * k)) & 0xff), f);
    fclose(f);
}

static void write_seeds(const char * dir)
{
    static const unsigned char arm_init[] = { 0x0c, 31, 0 };
    static const unsigned char arm_b[] = { 0x41, 0x2d, 0x41, 0x0e, 16, 0x9d, 2, 0x9e, 1 };
    static const unsigned char undef_ra[] = { 0x07, 16 }, undef_lr[] = { 0x07, 30 };
    static const unsigned char plt[] = { 0x0f, 11, 0x77, 8, 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x33, 0x24, 0x22 };
    static const unsigned short x86_regs16[4] = { 5, 0, 0x100, 0 }, arm_regs16[4] = { 4, 0, 0x100, 0x1014 };
    static const uint64_t x86_stack[4] = { 0x2011, 0x2222, 0x3021, 0 };
    static const uint64_t arm_stack[2] = { 0x3333, 0x0023000000003024u };
    buf B;
    size_t k;
    int debug;
    for (debug = 0; debug < 2; debug++)
    {
        B.n = 0;
        k = cie(&B, debug ? 4 : 1, debug ? "" : "zPLR", 0x1b, 16, x86_init, sizeof x86_init, debug, 0);
        fde(&B, k, 0x800, 0x1000, 0x100, plt, sizeof plt, debug, !debug);
        fde(&B, k, 0x800, 0x2000, 0x100, b_frame, sizeof b_frame, debug, !debug);
        fde(&B, k, 0x800, 0x3000, 0x100, undef_ra, sizeof undef_ra, debug, !debug);
        seed(dir, debug ? "x86-debug" : "x86", debug ? 4 : 0, B.b, B.n, x86_regs16, x86_stack, 4);
    }
    B.n = 0;
    k = cie(&B, 3, "zR", 0x1b, 30, arm_init, sizeof arm_init, 0, 0);
    fde(&B, k, 0x800, 0x1000, 0x100, NULL, 0, 0, 0);
    fde(&B, k, 0x800, 0x2000, 0x100, arm_b, sizeof arm_b, 0, 0);
    fde(&B, k, 0x800, 0x3000, 0x100, undef_lr, sizeof undef_lr, 0, 0);
    seed(dir, "arm64", 1, B.b, B.n, arm_regs16, arm_stack, 2);
    x86_frames(&B, NULL, 0, b_frame, sizeof b_frame, "zR");
    make_elf(&B, 1);
    seed(dir, "elf", 8 | 2, elf, sizeof elf, x86_regs16, x86_stack, 4);
}

int main(int argc, char ** argv)
{
    if (argc > 1)   /* a directory: the seeds of fuzz_unwind go there too */
        write_seeds(argv[1]);
    test_ops();
    test_walk_x86();
    test_walk_arm64();
    test_debug_frame();
    test_pointers();
    test_elf();
    test_corrupt();
    return check_report("test_unwind_cfi");
}
