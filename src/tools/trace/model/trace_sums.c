/*
    Weights summed per key: see trace_sums.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_sums.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

int pt_sums_add(pt_sums * m, uint64_t key, uint64_t w)
{
    void ** slot = pt_map_find(&m->idx, key, 1);
    if (slot == NULL)
        return -1;
    if (*slot == NULL)
    {
        if (prof_impl_grow(&m->v, &m->cap, m->n + 1, sizeof *m->v) != 0)
            return -1;
        m->v[m->n].key = key;
        m->v[m->n++].w = 0;
        *slot = (void *) m->n;
        m->idx.n++;
    }
    m->v[(size_t) *slot - 1].w += w;
    return 0;
}

static int cmp_key(const void * a, const void * b)
{
    const pt_sum * x = (const pt_sum *) a, * y = (const pt_sum *) b;
    return (x->key > y->key) - (x->key < y->key);
}

pt_sum * pt_sums_sorted(const pt_sums * m, size_t * n)
{
    pt_sum * e = (pt_sum *) malloc((m->n + 1) * sizeof *e);
    *n = 0;
    if (e == NULL)
        return NULL;
    if (m->n > 0)
        memcpy(e, m->v, m->n * sizeof *e);
    qsort(e, m->n, sizeof *e, cmp_key);
    *n = m->n;
    return e;
}

void pt_sums_free(pt_sums * m)
{
    free(m->v);
    pt_map_free(&m->idx, 0);
    memset(m, 0, sizeof *m);
}
