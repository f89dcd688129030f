/*
    Call frame information: the ELF file's sections, CIEs and FDEs, and the
    FDE of an address (.eh_frame_hdr's binary search table, else an index
    built once). See unwind.h and unwind_cfi.h.
    SPDX-License-Identifier: MIT
*/
#include "unwind_cfi.h"

#include <stdlib.h>
#include <string.h>

typedef struct { uint64_t lo, hi, off; } pt_fde_ix;   /* off: into its section */

typedef struct
{
    pt_sect s;
    int debug;               /* .debug_frame: CIE ids and pointers differ */
    pt_fde_ix * ix;          /* sorted by lo */
    size_t nix;
} pt_frames;

struct pt_cfi
{
    pt_frames eh, dbg;
    pt_sect hdr;
    const unsigned char * table;  /* .eh_frame_hdr's (initial loc, FDE) pairs */
    uint64_t ntable;
    unsigned char table_enc;
    size_t table_entry;
    struct { uint64_t off, vaddr, filesz; } load[16];  /* for indirect pointers */
    int nload;
    const unsigned char * file;
    size_t file_size;
};

static uint64_t le(const unsigned char * p, int n)
{
    uint64_t v = 0;
    while (n-- > 0)
        v = v << 8 | p[n];
    return v;
}

/* A LEB128 number at *p (< end), sign-extended if sign; *bad set if cut. */
static uint64_t leb(const unsigned char ** p, const unsigned char * end, int * bad, int sign)
{
    uint64_t v = 0;
    unsigned shift = 0;
    while (*p < end)
    {
        unsigned char b = *(*p)++;
        if (shift < 64)
            v |= (uint64_t) (b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80))
        {
            if (sign && shift < 64 && (b & 0x40))
                v |= ~(uint64_t) 0 << shift;
            return v;
        }
    }
    *bad = 1;
    return 0;
}

uint64_t pt_cfi_uleb(const unsigned char ** p, const unsigned char * end, int * bad)
{
    return leb(p, end, bad, 0);
}

int64_t pt_cfi_sleb(const unsigned char ** p, const unsigned char * end, int * bad)
{
    return (int64_t) leb(p, end, bad, 1);
}

/* 8 bytes at vaddr of the file (its PT_LOAD segments): 0, or -1 */
static int file_read(const pt_cfi * c, uint64_t vaddr, uint64_t * out)
{
    int i;
    for (i = 0; c != NULL && i < c->nload; i++)
        if (vaddr >= c->load[i].vaddr && vaddr - c->load[i].vaddr + 8 <= c->load[i].filesz
            && c->load[i].off + (vaddr - c->load[i].vaddr) + 8 <= c->file_size)
        {
            *out = le(c->file + c->load[i].off + (vaddr - c->load[i].vaddr), 8);
            return 0;
        }
    return -1;
}

int pt_cfi_pointer(const unsigned char ** p, const unsigned char * end,
                   unsigned char enc, uint64_t vaddr, uint64_t data,
                   const pt_cfi * c, uint64_t * out)
{
    static const signed char size[16] = { 8, 0, 2, 4, 8, -1, -1, -1,
                                          -1, 0, 2, 4, 8, -1, -1, -1 };
    uint64_t v;
    int bad = 0, n = size[enc & 0x0f];
    if (enc == 0xff || n < 0)
        return -1;
    if (n == 0)
        v = (enc & 0x0f) == 1 ? pt_cfi_uleb(p, end, &bad)
                              : (uint64_t) pt_cfi_sleb(p, end, &bad);
    else
    {
        if (end - *p < n)
            return -1;
        v = le(*p, n);
        if ((enc & 0x08) && n < 8 && (v >> (8 * n - 1)))   /* signed: extend */
            v |= ~(uint64_t) 0 << (8 * n);
        *p += n;
    }
    if (bad)
        return -1;
    switch (enc & 0x70)
    {
    case 0x00: break;                                  /* absptr */
    case 0x10: v += vaddr; break;                      /* pcrel: the field's own address */
    case 0x30: if (data == 0) return -1; v += data; break;   /* datarel */
    default: return -1;                                /* textrel, funcrel, aligned */
    }
    if ((enc & 0x80) && file_read(c, v, &v) != 0)      /* indirect */
        return -1;
    *out = v;
    return 0;
}

/* The entry (CIE or FDE) at off of the section: its body [*body, *next)
   and its id field's offset and value. 0, 1 at the terminator, -1 bad. */
static int entry(const pt_frames * f, uint64_t off, const unsigned char ** body,
                 uint64_t * next, uint64_t * id, uint64_t * id_off, int * wide)
{
    const unsigned char * p;
    uint64_t len, left;
    if (off > f->s.n || f->s.n - off < 4)
        return -1;
    p = f->s.p + off;
    left = f->s.n - off;
    len = le(p, 4);
    *wide = len == 0xffffffffu;
    if (len == 0)
        return 1;
    if (*wide)
    {
        if (left < 12)
            return -1;
        len = le(p + 4, 8);
        p += 12;
        left -= 12;
    }
    else
    {
        p += 4;
        left -= 4;
    }
    if (len > left || len < (*wide ? 8u : 4u))
        return -1;
    *id_off = (uint64_t) (p - f->s.p);
    *id = le(p, *wide ? 8 : 4);
    *body = p + (*wide ? 8 : 4);
    *next = (uint64_t) (p - f->s.p) + len;
    return 0;
}

static int is_cie(const pt_frames * f, uint64_t id, int wide)
{
    if (!f->debug)
        return id == 0;
    return wide ? id == ~(uint64_t) 0 : id == 0xffffffffu;
}

/* The CIE at off: 0, or -1. */
static int parse_cie(const pt_frames * f, uint64_t off, pt_cie * cie)
{
    const unsigned char * p, * end, * aug;
    uint64_t next, id, id_off, auglen;
    int wide, bad = 0, version;
    if (entry(f, off, &p, &next, &id, &id_off, &wide) != 0 || !is_cie(f, id, wide))
        return -1;
    end = f->s.p + next;
    memset(cie, 0, sizeof *cie);
    version = p < end ? *p++ : 0;
    if (version != 1 && version != 3 && version != 4)
        return -1;
    aug = p;
    while (p < end && *p)
        p++;
    if (p++ >= end)
        return -1;
    if (version == 4)
    {
        if (end - p < 2 || (p[0] != 8 && p[0] != 4) || p[1] != 0)
            return -1;   /* address size; no segment selectors */
        if (p[0] == 4)
            cie->fde_enc = 0x03;
        p += 2;
    }
    cie->code_align = pt_cfi_uleb(&p, end, &bad);
    cie->data_align = pt_cfi_sleb(&p, end, &bad);
    cie->ra = version == 1 ? (p < end ? *p++ : (bad = 1, 0)) : pt_cfi_uleb(&p, end, &bad);
    if (bad)
        return -1;
    if (*aug == 'z')
    {
        const unsigned char * a, * aend;
        cie->aug_z = 1;
        auglen = pt_cfi_uleb(&p, end, &bad);
        if (bad || auglen > (uint64_t) (end - p))
            return -1;
        aend = p + auglen;
        for (a = aug + 1; *a; a++)
        {
            uint64_t ignored;
            if (*a == 'R' && p < aend)
                cie->fde_enc = *p++;
            else if (*a == 'L' && p < aend)
                p++;                       /* the LSDA's encoding */
            else if (*a == 'P' && p < aend)
            {
                unsigned char enc = *p++;  /* the personality: skipped, not read */
                if (pt_cfi_pointer(&p, aend, (unsigned char) (enc & 0x0f), 0, 0, NULL,
                                   &ignored) != 0)
                    return -1;
            }
            else if (*a == 'S')
                cie->signal = 1;
            else if (*a != 'B' && *a != 'G')
                break;                     /* unknown: the length skips the rest */
        }
        p = aend;
    }
    else if (*aug != '\0')
        return -1;
    cie->init = p;
    cie->init_end = end;
    return 0;
}

/* The FDE at off (its CIE too): 0, 1 if off holds a CIE, 2 at the
   terminator, -1 bad. */
static int parse_fde(const pt_cfi * c, const pt_frames * f, uint64_t off, pt_fde * fde)
{
    const unsigned char * p, * end;
    uint64_t next, id, id_off, cie_off, range;
    int wide, r = entry(f, off, &p, &next, &id, &id_off, &wide), bad = 0;
    if (r != 0)
        return r == 1 ? 2 : -1;
    if (is_cie(f, id, wide))
        return 1;
    cie_off = f->debug ? id : id_off - id;
    if ((!f->debug && id > id_off) || parse_cie(f, cie_off, &fde->cie) != 0)
        return -1;
    end = f->s.p + next;
    if (pt_cfi_pointer(&p, end, fde->cie.fde_enc, f->s.vaddr + (uint64_t) (p - f->s.p),
                       0, c, &fde->lo) != 0
        || pt_cfi_pointer(&p, end, (unsigned char) (fde->cie.fde_enc & 0x0f), 0, 0, NULL,
                          &range) != 0)
        return -1;
    fde->hi = fde->lo + range;
    if (fde->cie.aug_z)
    {
        /* the FDE's augmentation data (the LSDA): skipped */
        uint64_t n = pt_cfi_uleb(&p, end, &bad);
        if (bad || n > (uint64_t) (end - p))
            return -1;
        p += n;
    }
    fde->ins = p;
    fde->ins_end = end;
    return fde->hi < fde->lo ? -1 : 0;
}

static int by_lo(const void * a, const void * b)
{
    const pt_fde_ix * x = (const pt_fde_ix *) a, * y = (const pt_fde_ix *) b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* The index of every FDE of a section, sorted: 0, or -1 out of memory.
   A corrupt entry ends the scan (what came before stays). */
static int index_frames(const pt_cfi * c, pt_frames * f)
{
    uint64_t off = 0, cap = 0;
    while (off + 4 <= f->s.n)
    {
        pt_fde fde;
        const unsigned char * body;
        uint64_t next, id, id_off;
        int wide, r;
        if (entry(f, off, &body, &next, &id, &id_off, &wide) != 0)
            break;
        r = parse_fde(c, f, off, &fde);
        if (r == 0 && fde.hi > fde.lo)
        {
            if (f->nix == cap)
            {
                pt_fde_ix * ix;
                cap = cap ? 2 * cap : 64;
                ix = (pt_fde_ix *) realloc(f->ix, cap * sizeof *ix);
                if (ix == NULL)
                    return -1;
                f->ix = ix;
            }
            f->ix[f->nix].lo = fde.lo;
            f->ix[f->nix].hi = fde.hi;
            f->ix[f->nix++].off = off;
        }
        off = next;
    }
    if (f->nix > 1)
        qsort(f->ix, f->nix, sizeof *f->ix, by_lo);
    return 0;
}

/* .eh_frame_hdr: its table if its encoding can be searched. */
static void read_hdr(pt_cfi * c)
{
    const unsigned char * p = c->hdr.p, * end = c->hdr.p + c->hdr.n;
    uint64_t eh, count;
    unsigned char enc;
    if (c->hdr.n < 4 || p[0] != 1)
        return;
    enc = p[3];
    p += 4;
    if (pt_cfi_pointer(&p, end, c->hdr.p[1], c->hdr.vaddr + 4, c->hdr.vaddr, c, &eh) != 0
        || pt_cfi_pointer(&p, end, c->hdr.p[2], c->hdr.vaddr + (uint64_t) (p - c->hdr.p),
                          c->hdr.vaddr, c, &count) != 0)
        return;
    if (enc == 0x3b || enc == 0x33)
        c->table_entry = 8;
    else if (enc == 0x3c || enc == 0x34)
        c->table_entry = 16;
    else
        return;
    if (count == 0 || count > (uint64_t) (end - p) / c->table_entry)
        return;
    c->table = p;
    c->ntable = count;
    c->table_enc = enc;
}

static pt_cfi * cfi_new(pt_sect eh_frame, pt_sect eh_frame_hdr, pt_sect debug_frame)
{
    pt_cfi * c = (pt_cfi *) calloc(1, sizeof *c);
    if (c == NULL)
        return NULL;
    c->eh.s = eh_frame;
    c->dbg.s = debug_frame;
    c->dbg.debug = 1;
    c->hdr = eh_frame_hdr;
    return c;
}

static pt_cfi * cfi_finish(pt_cfi * c)
{
    if (c->hdr.n && c->eh.s.n)
        read_hdr(c);
    if ((c->table == NULL && index_frames(c, &c->eh) != 0)
        || index_frames(c, &c->dbg) != 0
        || (c->table == NULL && c->eh.nix == 0 && c->dbg.nix == 0))
    {
        pt_cfi_free(c);
        return NULL;
    }
    return c;
}

pt_cfi * pt_cfi_sections(pt_sect eh_frame, pt_sect eh_frame_hdr, pt_sect debug_frame)
{
    pt_cfi * c = cfi_new(eh_frame, eh_frame_hdr, debug_frame);
    return c != NULL ? cfi_finish(c) : NULL;
}

void pt_cfi_free(pt_cfi * c)
{
    if (c != NULL)
    {
        free(c->eh.ix);
        free(c->dbg.ix);
        free(c);
    }
}

int pt_cfi_has_table(const pt_cfi * c)
{
    return c->table != NULL;
}

static int find_ix(const pt_cfi * c, const pt_frames * f, uint64_t vaddr, pt_fde * fde)
{
    size_t lo = 0, hi = f->nix;
    while (lo < hi)
    {
        size_t mid = lo + (hi - lo) / 2;
        if (f->ix[mid].lo <= vaddr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || vaddr >= f->ix[lo - 1].hi)
        return 0;
    return parse_fde(c, f, f->ix[lo - 1].off, fde) == 0 ? 1 : -1;
}

static int find_table(const pt_cfi * c, uint64_t vaddr, pt_fde * fde)
{
    uint64_t lo = 0, hi = c->ntable, at, fde_addr;
    const unsigned char * p;
    while (lo < hi)
    {
        uint64_t mid = lo + (hi - lo) / 2, start;
        p = c->table + mid * c->table_entry;
        if (pt_cfi_pointer(&p, p + c->table_entry, c->table_enc, 0, c->hdr.vaddr, c, &start) != 0)
            return -1;
        if (start <= vaddr)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return 0;
    p = c->table + (lo - 1) * c->table_entry;
    if (pt_cfi_pointer(&p, p + c->table_entry, c->table_enc, 0, c->hdr.vaddr, c, &at) != 0
        || pt_cfi_pointer(&p, p + c->table_entry, c->table_enc, 0, c->hdr.vaddr, c,
                          &fde_addr) != 0
        || fde_addr < c->eh.s.vaddr || fde_addr - c->eh.s.vaddr >= c->eh.s.n
        || parse_fde(c, &c->eh, fde_addr - c->eh.s.vaddr, fde) != 0)
        return -1;
    return vaddr >= fde->lo && vaddr < fde->hi;
}

int pt_cfi_find(const pt_cfi * c, uint64_t vaddr, pt_fde * fde)
{
    int r = c->table != NULL ? find_table(c, vaddr, fde) : find_ix(c, &c->eh, vaddr, fde);
    if (r != 0)
        return r;
    return find_ix(c, &c->dbg, vaddr, fde);
}

/* ---- the ELF file ------------------------------------------------------- */

static pt_sect section(const unsigned char * elf, size_t size, const unsigned char * sh)
{
    pt_sect s = { NULL, 0, 0 };
    uint64_t off = le(sh + 24, 8), n = le(sh + 32, 8);
    if (le(sh + 4, 4) == 8 /* SHT_NOBITS */ || (le(sh + 8, 8) & 0x800) /* SHF_COMPRESSED */
        || off > size || n > size - off)
        return s;
    s.p = elf + off;
    s.n = (size_t) n;
    s.vaddr = le(sh + 16, 8);
    return s;
}

/* The three sections, by name: 0, or -1 without section headers. */
static int sections(const unsigned char * elf, size_t size, pt_sect out[3])
{
    static const char * const names[3] = { ".eh_frame", ".eh_frame_hdr", ".debug_frame" };
    uint64_t shoff = le(elf + 0x28, 8), shentsize = le(elf + 0x3a, 2);
    uint64_t shnum = le(elf + 0x3c, 2), shstrndx = le(elf + 0x3e, 2), i;
    pt_sect strs;
    if (shoff == 0 || shentsize < 64 || shstrndx >= shnum || shoff > size
        || shnum > (size - shoff) / shentsize)
        return -1;
    strs = section(elf, size, elf + shoff + shstrndx * shentsize);
    for (i = 0; i < shnum; i++)
    {
        const unsigned char * sh = elf + shoff + i * shentsize;
        uint64_t name = le(sh, 4);
        int k;
        if (name >= strs.n)
            continue;
        for (k = 0; k < 3; k++)
            if (strlen(names[k]) < strs.n - name
                && memcmp(strs.p + name, names[k], strlen(names[k]) + 1) == 0)
                out[k] = section(elf, size, sh);
    }
    return 0;
}

/* The PT_LOAD segments, and .eh_frame_hdr from PT_GNU_EH_FRAME when the
   file has no section headers. */
static void segments(pt_cfi * c, const unsigned char * elf, size_t size, pt_sect * hdr)
{
    uint64_t phoff = le(elf + 0x20, 8), phentsize = le(elf + 0x36, 2);
    uint64_t phnum = le(elf + 0x38, 2), i;
    if (phoff == 0 || phentsize < 56 || phoff > size || phnum > (size - phoff) / phentsize)
        return;
    for (i = 0; i < phnum; i++)
    {
        const unsigned char * ph = elf + phoff + i * phentsize;
        uint64_t type = le(ph, 4), off = le(ph + 8, 8), filesz = le(ph + 32, 8);
        if (off > size || filesz > size - off)
            continue;
        if (type == 1 && c->nload < 16)
        {
            c->load[c->nload].off = off;
            c->load[c->nload].vaddr = le(ph + 16, 8);
            c->load[c->nload++].filesz = filesz;
        }
        else if (type == 0x6474e550 && hdr->n == 0)
        {
            hdr->p = elf + off;
            hdr->n = (size_t) filesz;
            hdr->vaddr = le(ph + 16, 8);
        }
    }
}

/* Without section headers: .eh_frame from the header's pointer, to the
   end of its segment. */
static pt_sect eh_from_hdr(const pt_cfi * c, pt_sect hdr)
{
    pt_sect s = { NULL, 0, 0 };
    const unsigned char * p = hdr.p + 4;
    uint64_t at;
    int i;
    if (hdr.n < 4 || hdr.p[0] != 1
        || pt_cfi_pointer(&p, hdr.p + hdr.n, hdr.p[1], hdr.vaddr + 4, hdr.vaddr, c, &at) != 0)
        return s;
    for (i = 0; i < c->nload; i++)
        if (at >= c->load[i].vaddr && at - c->load[i].vaddr < c->load[i].filesz)
        {
            s.p = c->file + c->load[i].off + (at - c->load[i].vaddr);
            s.n = (size_t) (c->load[i].filesz - (at - c->load[i].vaddr));
            s.vaddr = at;
        }
    return s;
}

pt_cfi * pt_cfi_open(const unsigned char * elf, size_t size, const char ** why)
{
    pt_sect s[3], none = { NULL, 0, 0 };
    pt_cfi * c;
    const char * dummy;
    int have_sections;
    if (why == NULL)
        why = &dummy;
    if (elf == NULL || size < 64 || memcmp(elf, "\177ELF", 4) != 0 || elf[4] != 2
        || elf[5] != 1)
    {
        *why = "not a 64-bit little-endian ELF file";
        return NULL;
    }
    s[0] = s[1] = s[2] = none;
    have_sections = sections(elf, size, s) == 0;
    c = cfi_new(s[0], s[1], s[2]);
    if (c == NULL)
    {
        *why = "out of memory";
        return NULL;
    }
    c->file = elf;
    c->file_size = size;
    segments(c, elf, size, &c->hdr);
    if (!have_sections && c->hdr.n)
        c->eh.s = eh_from_hdr(c, c->hdr);
    c = cfi_finish(c);
    if (c == NULL)
        *why = "no call frame information (.eh_frame, .debug_frame)";
    return c;
}

