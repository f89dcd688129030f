/*
    The addresses behind the named stacks: see trace_locs.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_locs.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* The mapping of vma (NULL: [unknown], 0), added on first use; UINT32_MAX
   if out of memory. */
static uint32_t map_of(pt_locs * l, const pt_trace * t, const pt_vma * vma,
                       uint32_t mod, pt_symbols * sym)
{
    void ** slot;
    pt_loc_map * m;
    const pt_file_info * info;
    if (l->nmaps == 0)   /* [unknown] first */
    {
        if (prof_impl_grow(&l->maps, &l->mapcap, 1, sizeof *l->maps) != 0)
            return UINT32_MAX;
        memset(&l->maps[0], 0, sizeof l->maps[0]);
        l->nmaps = 1;
        l->unknown_lo = UINT64_MAX;
    }
    if (vma == NULL)
        return 0;
    slot = pt_map_find(&l->byvma, (uint64_t) (vma - t->vmas) + 1, 1);
    if (slot == NULL)
        return UINT32_MAX;
    if (*slot != NULL)
        return (uint32_t) ((size_t) *slot - 1);
    if (l->nmaps >= UINT32_MAX - 1
        || prof_impl_grow(&l->maps, &l->mapcap, l->nmaps + 1, sizeof *l->maps) != 0)
        return UINT32_MAX;
    m = &l->maps[l->nmaps];
    memset(m, 0, sizeof *m);
    m->start = vma->start;
    m->end = vma->end;
    m->offset = vma->offset;
    m->mod = mod;
    info = sym != NULL ? pt_symbols_file_info(sym, vma->path, vma->inode) : NULL;
    if (info != NULL)
        m->file = *info;
    *slot = (void *) ++l->nmaps;
    l->byvma.n++;
    return (uint32_t) (l->nmaps - 1);
}

static uint64_t loc_hash(uint64_t addr, uint32_t fn, uint32_t map)
{
    uint64_t h = addr * UINT64_C(0x9e3779b97f4a7c15);
    return h ^ ((uint64_t) fn << 32 | map) * UINT64_C(0xc2b2ae3d27d4eb4f);
}

uint32_t pt_locs_add(pt_locs * l, const pt_trace * t, const pt_vma * vma,
                     uint32_t mod, uint64_t addr, uint32_t fn, pt_symbols * sym)
{
    uint32_t map = map_of(l, t, vma, mod, sym);
    uint64_t key;
    if (map == UINT32_MAX)
        return UINT32_MAX;
    if (map == 0 && addr != PT_LOC_NONE)
    {
        l->unknown_lo = addr < l->unknown_lo ? addr : l->unknown_lo;
        l->unknown_hi = addr > l->unknown_hi ? addr : l->unknown_hi;
    }
    for (key = loc_hash(addr, fn, map);; key++)
    {
        void ** slot = pt_map_find(&l->idx, key, 1);
        pt_loc * c;
        if (slot == NULL)
            return UINT32_MAX;
        if (*slot != NULL)
        {
            c = &l->v[(size_t) *slot - 1];
            if (c->addr == addr && c->fn == fn && c->map == map)
                return (uint32_t) ((size_t) *slot - 1);
            continue;   /* another location of the same hash */
        }
        if (l->n >= UINT32_MAX - 1
            || prof_impl_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v) != 0)
            return UINT32_MAX;
        c = &l->v[l->n];
        c->addr = addr;
        c->fn = fn;
        c->map = map;
        *slot = (void *) ++l->n;
        l->idx.n++;
        return (uint32_t) (l->n - 1);
    }
}

uint64_t pt_locs_rel_pc(const pt_locs * l, uint32_t lo)
{
    const pt_loc * c = &l->v[lo];
    const pt_loc_map * m = &l->maps[c->map];
    if (c->addr == PT_LOC_NONE)
        return 0;
    if (c->map == 0)
        return c->addr - l->unknown_lo;
    return c->addr - m->start + m->offset + (m->file.has_bias ? m->file.load_bias : 0);
}

void pt_locs_span(const pt_locs * l, uint32_t m, uint64_t * start,
                  uint64_t * end)
{
    if (m == 0)
    {
        *start = l->unknown_lo <= l->unknown_hi ? l->unknown_lo : 0;
        *end = l->unknown_lo <= l->unknown_hi ? l->unknown_hi + 1 : 1;
        return;
    }
    *start = l->maps[m].start;
    *end = l->maps[m].end;
}

void pt_locs_free(pt_locs * l)
{
    free(l->v);
    free(l->maps);
    pt_map_free(&l->idx, 0);
    pt_map_free(&l->byvma, 0);
    memset(l, 0, sizeof *l);
}
