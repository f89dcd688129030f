/*
    The trace tools' hash map: see trace_map.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_map.h"

#include <stdlib.h>
#include <string.h>

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= UINT64_C(0xff51afd7ed558ccd);
    x ^= x >> 33;
    return x;
}

/* Double the table (rehashing). 0 or -1. */
static int map_grow(pt_map * m)
{
    pt_map g;
    size_t j;
    g.cap = m->cap ? m->cap * 2 : 64;
    g.n = 0;
    g.k = (uint64_t *) calloc(g.cap, sizeof *g.k);
    g.v = (void **) calloc(g.cap, sizeof *g.v);
    if (g.k == NULL || g.v == NULL)
    {
        free(g.k);
        free(g.v);
        return -1;
    }
    for (j = 0; j < m->cap; j++)
        if (m->v[j] != NULL)
            *pt_map_find(&g, m->k[j], 1) = m->v[j], g.n++;
    free(m->k);
    free(m->v);
    *m = g;
    return 0;
}

void ** pt_map_find(pt_map * m, uint64_t key, int create)
{
    size_t i;
    if (create && (m->n + 1) * 2 > m->cap && map_grow(m) != 0)
        return NULL;
    if (m->cap == 0)
        return NULL;
    for (i = mix(key) & (m->cap - 1); m->v[i] != NULL; i = (i + 1) & (m->cap - 1))
        if (m->k[i] == key)
            return &m->v[i];
    if (!create)
        return NULL;
    m->k[i] = key;
    return &m->v[i];
}

void pt_map_free(pt_map * m, int free_values)
{
    size_t i;
    if (free_values)
        for (i = 0; i < m->cap; i++)
            free(m->v[i]);
    free(m->k);
    free(m->v);
    memset(m, 0, sizeof *m);
}
