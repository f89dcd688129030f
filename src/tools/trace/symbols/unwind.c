/*
    The unwinder: the DWARF call frame instructions' row at an address (the
    CFA rule and each register's rule), a small DWARF expression evaluator,
    and the walk from the sampled registers up the copied stack. See
    unwind.h.
    SPDX-License-Identifier: MIT
*/
#include "unwind_cfi.h"

#include <string.h>

enum { PT_STATE_DEPTH = 8, PT_EXPR_STEPS = 64, PT_EXPR_STACK = 16 };
/* The steps below return 0 or an end reason; PT_UNWIND_OUTERMOST is 0 in
   unwind.h, so they say it with this one. */
enum { PT_END_OUTERMOST = 100 };

typedef struct
{
    const unsigned char * p, * end;
    const pt_cie * cie;
    int bad;
} pt_insn;

/* v times the data alignment, wrapping (bad CFI may ask for any value) */
static int64_t scaled(uint64_t v, int64_t data_align)
{
    return (int64_t) (v * (uint64_t) data_align);
}

static uint64_t uleb(pt_insn * in)
{
    return pt_cfi_uleb(&in->p, in->end, &in->bad);
}

static int64_t sleb(pt_insn * in)
{
    return pt_cfi_sleb(&in->p, in->end, &in->bad);
}

/* The register operand's rule, or NULL for a column we do not keep (its
   rule is then dropped: vector registers, ARM64's RA_SIGN_STATE). */
static pt_rule * column(pt_row * row, uint64_t reg)
{
    return reg < PT_UREGS ? &row->r[reg] : NULL;
}

static void set_rule(pt_row * row, uint64_t reg, unsigned char kind, int64_t n,
                     const unsigned char * e)
{
    pt_rule * r = column(row, reg);
    if (r != NULL)
    {
        r->kind = kind;
        r->n = n;
        r->e = e;
    }
}

/* A block operand (an expression): its length, and in->p past it. */
static const unsigned char * block(pt_insn * in, int64_t * n)
{
    const unsigned char * e;
    uint64_t len = uleb(in);
    *n = 0;
    if (in->bad || len > (uint64_t) (in->end - in->p))
    {
        in->bad = 1;
        return NULL;
    }
    e = in->p;
    in->p += len;
    *n = (int64_t) len;
    return e;
}

/* An instruction whose first operand is a register: its rule. */
static void reg_op(pt_insn * in, unsigned char op, pt_row * row)
{
    int64_t da = in->cie->data_align, n = 0;
    const unsigned char * e = NULL;
    unsigned char kind;
    uint64_t reg = uleb(in);
    switch (op)
    {
    case 0x05: kind = PT_RULE_OFFSET; n = scaled(uleb(in), da); break;
    case 0x11: kind = PT_RULE_OFFSET; n = scaled((uint64_t) sleb(in), da); break;
    case 0x2f: kind = PT_RULE_OFFSET; n = scaled(0 - uleb(in), da); break;  /* GNU negative */
    case 0x14: kind = PT_RULE_VAL_OFFSET; n = scaled(uleb(in), da); break;
    case 0x15: kind = PT_RULE_VAL_OFFSET; n = scaled((uint64_t) sleb(in), da); break;
    case 0x07: kind = PT_RULE_UNDEF; break;
    case 0x08: kind = PT_RULE_SAME; break;
    case 0x09: kind = PT_RULE_REG; n = (int64_t) uleb(in); break;
    case 0x10: kind = PT_RULE_EXPR; e = block(in, &n); break;
    default: kind = PT_RULE_VAL_EXPR; e = block(in, &n); break;        /* 0x16 */
    }
    set_rule(row, reg, kind, n, e);
}

/* The instructions that set a rule or the CFA (the extended forms): 0, or
   -1 for an opcode that is not one of them. */
static int rule_op(pt_insn * in, unsigned char op, pt_row * row)
{
    int64_t da = in->cie->data_align, n;
    switch (op)
    {
    case 0x05: case 0x11: case 0x2f: case 0x14: case 0x15:
    case 0x07: case 0x08: case 0x09: case 0x10: case 0x16:
        reg_op(in, op, row);
        break;
    case 0x0c: case 0x12:   /* def_cfa, def_cfa_sf */
        row->cfa_reg = uleb(in);
        row->cfa_off = op == 0x0c ? (int64_t) uleb(in) : scaled((uint64_t) sleb(in), da);
        row->cfa_e = NULL;
        break;
    case 0x0d: row->cfa_reg = uleb(in); row->cfa_e = NULL; break;
    case 0x0e: case 0x13:   /* def_cfa_offset(_sf): not after an expression */
        n = op == 0x0e ? (int64_t) uleb(in) : scaled((uint64_t) sleb(in), da);
        if (row->cfa_e != NULL)
            in->bad = 1;
        row->cfa_off = n;
        break;
    case 0x0f: row->cfa_e = block(in, &row->cfa_off); break;
    case 0x2e: row->args_size = uleb(in); break;
    case 0x2d: row->ra_signed = !row->ra_signed; break;   /* ARM64 negate_ra_state */
    default: return -1;
    }
    return 0;
}

/* Run instructions [p, end) from loc (the code address of the row so far)
   until the row that covers vaddr: init is the CIE's row (NULL while
   running the CIE's own). 0, or PT_UNWIND_BAD_CFI. */
static int run(const pt_cie * cie, const unsigned char * p, const unsigned char * end,
               uint64_t loc, uint64_t vaddr, pt_row * row, const pt_row * init)
{
    pt_row saved[PT_STATE_DEPTH];
    int depth = 0;
    pt_insn in;
    in.p = p;
    in.end = end;
    in.cie = cie;
    in.bad = 0;
    while (in.p < in.end && !in.bad)
    {
        unsigned char op = *in.p++, low = op & 0x3f;
        uint64_t delta = 0, reg;
        const unsigned char * q = in.p;
        switch (op >> 6)
        {
        case 1: delta = low; break;
        case 2: set_rule(row, low, PT_RULE_OFFSET, scaled(uleb(&in), cie->data_align), NULL);
                continue;
        case 3: if (init == NULL) return PT_UNWIND_BAD_CFI;
                if (low < PT_UREGS) row->r[low] = init->r[low];
                continue;
        default: break;
        }
        if (op == 0x02 || op == 0x03 || op == 0x04)
        {
            int n = op == 0x02 ? 1 : op == 0x03 ? 2 : 4, i;
            if (in.end - in.p < n)
                return PT_UNWIND_BAD_CFI;
            for (i = n - 1; i >= 0; i--)
                delta = delta << 8 | q[i];
            in.p += n;
        }
        else if (op == 0x01)
        {
            uint64_t to;
            if ((cie->fde_enc & 0x70) != 0
                || pt_cfi_pointer(&in.p, in.end, cie->fde_enc, 0, 0, NULL, &to) != 0 || to < loc)
                return PT_UNWIND_BAD_CFI;
            delta = (to - loc) / (cie->code_align ? cie->code_align : 1);
        }
        if ((op >> 6) == 1 || (op >= 0x01 && op <= 0x04))
        {
            if (delta > (vaddr - loc) / (cie->code_align ? cie->code_align : 1)
                || vaddr < loc)
                return 0;   /* the next row starts after vaddr */
            loc += delta * cie->code_align;
            continue;
        }
        switch (op)
        {
        case 0x00: break;
        case 0x06: reg = uleb(&in);
                   if (init == NULL) return PT_UNWIND_BAD_CFI;
                   if (reg < PT_UREGS) row->r[reg] = init->r[reg];
                   break;
        case 0x0a: if (depth == PT_STATE_DEPTH) return PT_UNWIND_BAD_CFI;
                   saved[depth++] = *row;
                   break;
        case 0x0b: if (depth == 0) return PT_UNWIND_BAD_CFI;
                   *row = saved[--depth];
                   break;
        default: if (rule_op(&in, op, row) != 0) return PT_UNWIND_BAD_CFI;
        }
    }
    return in.bad ? PT_UNWIND_BAD_CFI : 0;
}

int pt_cfi_row(const pt_fde * fde, uint64_t vaddr, pt_row * row)
{
    pt_row init;
    int r;
    memset(row, 0, sizeof *row);   /* every rule "same value" */
    if (fde->cie.ra >= PT_UREGS || vaddr < fde->lo || vaddr >= fde->hi)
        return PT_UNWIND_BAD_CFI;
    r = run(&fde->cie, fde->cie.init, fde->cie.init_end, fde->lo, fde->hi, row, NULL);
    if (r != 0)
        return r;
    init = *row;
    return run(&fde->cie, fde->ins, fde->ins_end, fde->lo, vaddr, row, &init);
}

/* ---- DWARF expressions ---------------------------------------------------- */

static int read8(const pt_ustack * st, uint64_t addr, uint64_t * out)
{
    uint64_t v = 0;
    int i;
    if (addr < st->base || st->size < 8 || addr - st->base > st->size - 8)
        return PT_UNWIND_STACK_SHORT;
    for (i = 7; i >= 0; i--)
        v = v << 8 | st->data[addr - st->base + (uint64_t) i];
    *out = v;
    return 0;
}

static int binary(unsigned char op, uint64_t a, uint64_t b, uint64_t * out)
{
    switch (op)
    {
    case 0x1a: *out = a & b; break;
    case 0x1c: *out = a - b; break;
    case 0x1e: *out = a * b; break;
    case 0x21: *out = a | b; break;
    case 0x22: *out = a + b; break;
    case 0x24: *out = b < 64 ? a << b : 0; break;
    case 0x25: *out = b < 64 ? a >> b : 0; break;
    case 0x26: *out = (uint64_t) ((int64_t) a >> (b < 64 ? b : 63)); break;   /* shra */
    case 0x27: *out = a ^ b; break;
    case 0x29: *out = a == b; break;
    case 0x2a: *out = (int64_t) a >= (int64_t) b; break;
    case 0x2b: *out = (int64_t) a > (int64_t) b; break;
    case 0x2c: *out = (int64_t) a <= (int64_t) b; break;
    case 0x2d: *out = (int64_t) a < (int64_t) b; break;
    case 0x2e: *out = a != b; break;
    default: return -1;
    }
    return 0;
}

/* One operation that pushes a value or works on the stack's top: 0, or
   PT_UNWIND_BAD_CFI / _STACK_SHORT. */
static int expr_op(pt_insn * in, unsigned char op, uint64_t * s, int * n,
                   const pt_uregs * regs, const pt_ustack * st)
{
    uint64_t v = 0;
    if (op >= 0x30 && op <= 0x4f)
        v = op - 0x30u;                                   /* lit0-31 */
    else if (op >= 0x70 && op <= 0x8f)                    /* breg0-31 */
    {
        if (op - 0x70u >= PT_UREGS || !(regs->have >> (op - 0x70u) & 1))
            return PT_UNWIND_BAD_CFI;
        v = regs->r[op - 0x70] + (uint64_t) sleb(in);
    }
    else if (op == 0x10)
        v = uleb(in);
    else if (op == 0x11)
        v = (uint64_t) sleb(in);
    else if (op >= 0x08 && op <= 0x0f)                    /* const1u-8s */
    {
        int size = 1 << ((op - 0x08) / 2), i;
        if (in->end - in->p < size)
            return PT_UNWIND_BAD_CFI;
        for (i = size - 1; i >= 0; i--)
            v = v << 8 | in->p[i];
        if ((op & 1) && size < 8 && (v >> (8 * size - 1)))
            v |= ~(uint64_t) 0 << (8 * size);
        in->p += size;
    }
    else if (op == 0x06)                                  /* deref */
    {
        if (*n < 1)
            return PT_UNWIND_BAD_CFI;
        return read8(st, s[*n - 1], &s[*n - 1]);
    }
    else if (op == 0x23 || op == 0x12 || op == 0x13 || op == 0x1f || op == 0x20)
    {
        if (*n < 1)
            return PT_UNWIND_BAD_CFI;
        if (op == 0x23) s[*n - 1] += uleb(in);            /* plus_uconst */
        else if (op == 0x12) { v = s[*n - 1]; goto push; } /* dup */
        else if (op == 0x13) (*n)--;                      /* drop */
        else if (op == 0x1f) s[*n - 1] = 0 - s[*n - 1];   /* neg */
        else s[*n - 1] = ~s[*n - 1];                      /* not */
        return 0;
    }
    else if (*n >= 2 && op == 0x14)                       /* over */
        v = s[*n - 2];
    else if (*n >= 2 && op == 0x16)                       /* swap */
    {
        v = s[*n - 1];
        s[*n - 1] = s[*n - 2];
        s[*n - 2] = v;
        return 0;
    }
    else if (*n >= 2 && binary(op, s[*n - 2], s[*n - 1], &v) == 0)
    {
        s[*n - 2] = v;
        (*n)--;
        return 0;
    }
    else if (op != 0x96)                                  /* nop */
        return PT_UNWIND_BAD_CFI;
    else
        return 0;
push:
    if (*n == PT_EXPR_STACK)
        return PT_UNWIND_BAD_CFI;
    s[(*n)++] = v;
    return 0;
}

/* The value of expression e (n bytes), with cfa pushed first if push: 0,
   or PT_UNWIND_BAD_CFI / _STACK_SHORT. At most PT_EXPR_STEPS operations;
   no branches. */
static int expr(const unsigned char * e, int64_t len, const pt_uregs * regs,
                const pt_ustack * st, int push, uint64_t cfa, uint64_t * out)
{
    uint64_t s[PT_EXPR_STACK];
    int n = 0, steps, r;
    pt_insn in;
    in.p = e;
    in.end = e + len;
    in.cie = NULL;
    in.bad = 0;
    if (push)
        s[n++] = cfa;
    for (steps = 0; in.p < in.end; steps++)
    {
        if (steps == PT_EXPR_STEPS)
            return PT_UNWIND_BAD_CFI;
        r = expr_op(&in, *in.p++, s, &n, regs, st);
        if (r != 0)
            return r;
        if (in.bad)
            return PT_UNWIND_BAD_CFI;
    }
    if (n < 1)
        return PT_UNWIND_BAD_CFI;
    *out = s[n - 1];
    return 0;
}

/* ---- the walk -------------------------------------------------------------- */

static unsigned sp_reg(pt_arch a) { return a == PT_ARCH_ARM64 ? 31 : 7; }
static unsigned pc_reg(pt_arch a) { return a == PT_ARCH_ARM64 ? 32 : 16; }
static unsigned fp_reg(pt_arch a) { return a == PT_ARCH_ARM64 ? 29 : 6; }

static int known(const pt_uregs * u, uint64_t reg)
{
    return reg < PT_UREGS && (u->have >> reg & 1);
}

/* Register i of the caller, by its rule: 0, or an end reason. */
static int restore(const pt_rule * rule, uint64_t i, uint64_t cfa, const pt_uregs * cur,
                   const pt_ustack * st, pt_uregs * next)
{
    uint64_t v = 0, bit = (uint64_t) 1 << i;
    int r = 0;
    switch (rule->kind)
    {
    case PT_RULE_SAME: return 0;
    case PT_RULE_UNDEF: next->have &= ~bit; return 0;
    case PT_RULE_OFFSET: r = read8(st, cfa + (uint64_t) rule->n, &v); break;
    case PT_RULE_VAL_OFFSET: v = cfa + (uint64_t) rule->n; break;
    case PT_RULE_REG:
        if (!known(cur, (uint64_t) rule->n))
        {
            next->have &= ~bit;
            return 0;
        }
        v = cur->r[rule->n];
        break;
    case PT_RULE_EXPR:
        r = expr(rule->e, rule->n, cur, st, 1, cfa, &v);
        if (r == 0)
            r = read8(st, v, &v);
        break;
    default: r = expr(rule->e, rule->n, cur, st, 1, cfa, &v); break;
    }
    if (r != 0)
        return r;
    next->r[i] = v;
    next->have |= bit;
    return 0;
}

/* One step by the CFI's row at vaddr: cur becomes the caller's registers,
   *cfa the frame's CFA. 0, or an end reason. */
static int step_cfi(const pt_fde * fde, uint64_t vaddr, pt_uregs * cur,
                    const pt_ustack * st, uint64_t * cfa)
{
    pt_row row;
    pt_uregs next = *cur;
    uint64_t i, ra = fde->cie.ra;
    int r = pt_cfi_row(fde, vaddr, &row);
    if (r != 0)
        return r;
    if (row.cfa_e != NULL)
        r = expr(row.cfa_e, row.cfa_off, cur, st, 0, 0, cfa);
    else if (known(cur, row.cfa_reg))
        *cfa = cur->r[row.cfa_reg] + (uint64_t) row.cfa_off;
    else
        r = PT_UNWIND_BAD_CFI;
    for (i = 0; i < PT_UREGS && r == 0; i++)
        r = restore(&row.r[i], i, *cfa, cur, st, &next);
    if (r != 0)
        return r;
    if (row.r[ra].kind == PT_RULE_UNDEF)
        return PT_END_OUTERMOST;
    if (!known(&next, ra))
        return PT_UNWIND_BAD_CFI;
    next.r[pc_reg(cur->arch)] = next.r[ra];
    if (row.ra_signed)
        next.r[pc_reg(cur->arch)] &= 0x0000ffffffffffffu;   /* PAC bits: stripped */
    next.r[sp_reg(cur->arch)] = *cfa;
    next.have |= (uint64_t) 1 << pc_reg(cur->arch) | (uint64_t) 1 << sp_reg(cur->arch);
    *cur = next;
    return 0;
}

/* One step by frame pointer: [fp] the caller's fp, [fp + 8] the return
   address. */
static int step_fp(pt_uregs * cur, const pt_ustack * st, uint64_t * cfa)
{
    unsigned fp = fp_reg(cur->arch);
    uint64_t saved, ra;
    int r;
    if (!known(cur, fp))
        return PT_UNWIND_NO_CFI;
    if ((r = read8(st, cur->r[fp], &saved)) != 0 || (r = read8(st, cur->r[fp] + 8, &ra)) != 0)
        return r;
    *cfa = cur->r[fp] + 16;
    cur->r[fp] = saved;
    cur->r[pc_reg(cur->arch)] = cur->arch == PT_ARCH_ARM64 ? ra & 0x0000ffffffffffffu : ra;
    cur->r[sp_reg(cur->arch)] = *cfa;
    cur->have |= (uint64_t) 1 << pc_reg(cur->arch) | (uint64_t) 1 << sp_reg(cur->arch);
    return 0;
}

/* One frame up from cur (whose pc is looked up at vaddr, in m): 0, or an
   end reason; *exact: the caller's pc is not a return address. */
static int step(const pt_umap * m, uint64_t look, pt_uregs * cur, const pt_ustack * st,
                int fp_fallback, uint64_t * cfa, int * exact)
{
    pt_fde fde;
    int r = m->cfi != NULL ? pt_cfi_find(m->cfi, look - m->bias, &fde) : 0;
    *exact = 0;
    if (r < 0)
        return PT_UNWIND_BAD_CFI;
    if (r > 0)
    {
        *exact = fde.cie.signal;
        return step_cfi(&fde, look - m->bias, cur, st, cfa);
    }
    return fp_fallback ? step_fp(cur, st, cfa) : PT_UNWIND_NO_CFI;
}

size_t pt_unwind(const pt_uregs * regs, const pt_ustack * stack, pt_umap_find find, void * ctx,
                 uint64_t * pc, size_t max, int fp_fallback, enum pt_unwind_end * end)
{
    pt_uregs cur = *regs;
    unsigned pcr = pc_reg(regs->arch), spr = sp_reg(regs->arch);
    uint64_t floor = known(regs, spr) ? regs->r[spr] : 0, cfa = 0, look;
    int strict = 0, exact = 1, r;
    size_t n = 0;
    *end = PT_UNWIND_DEPTH;
    if (max == 0)
        return 0;
    if ((regs->arch != PT_ARCH_X86_64 && regs->arch != PT_ARCH_ARM64) || !known(regs, pcr))
    {
        *end = PT_UNWIND_BAD_CFI;
        return 0;
    }
    pc[n++] = cur.r[pcr];
    while (n < max)
    {
        const pt_umap * m;
        look = exact ? cur.r[pcr] : cur.r[pcr] - 1;
        m = find(ctx, look);
        if (m == NULL)
        {
            *end = PT_UNWIND_OUTSIDE;
            return n;
        }
        r = step(m, look, &cur, stack, fp_fallback, &cfa, &exact);
        if (r == 0 && (strict ? cfa <= floor : cfa < floor))
            r = PT_UNWIND_LOOP;
        if (r == 0 && cur.r[pcr] == 0)
            r = PT_END_OUTERMOST;
        if (r == 0 && find(ctx, exact ? cur.r[pcr] : cur.r[pcr] - 1) == NULL)
            r = PT_UNWIND_OUTSIDE;
        if (r != 0)
        {
            *end = r == PT_END_OUTERMOST ? PT_UNWIND_OUTERMOST : (enum pt_unwind_end) r;
            return n;
        }
        floor = cfa;
        strict = 1;
        pc[n++] = cur.r[pcr];
    }
    return n;
}

const char * pt_unwind_end_name(enum pt_unwind_end end)
{
    static const char * const names[] = { "outermost", "outside", "no CFI", "stack short",
                                          "bad CFI", "depth", "loop" };
    return (unsigned) end < sizeof names / sizeof *names ? names[end] : "?";
}
