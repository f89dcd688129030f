/*
    Chains of addresses (call stacks) interned, one number for each
    distinct chain of a process: the sampler's writer (src/sample) and the
    trace reader's unwinder (src/tools/trace/model/trace_unwind.c). See
    internal.h.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <stdlib.h>
#include <string.h>

static uint64_t hash_chain(uint32_t pid, const uint64_t * ip, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15u ^ n ^ (uint64_t) pid << 40;
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ ip[i]) * 0x100000001B3u;
    return h ^ (h >> 29);
}

static int grow_table(prof_impl_chains * c)
{
    size_t cap = c->tcap ? 2 * c->tcap : 4096, i;
    uint32_t * t = (uint32_t *) calloc(cap, sizeof *t);
    if (t == NULL)
        return -1;
    for (i = 0; i < c->n; i++)
    {
        size_t at = hash_chain(c->pid[i], c->ips + c->first[i],
                               prof_impl_chain_len(c, i)) & (cap - 1);
        while (t[at] != 0)
            at = (at + 1) & (cap - 1);
        t[at] = (uint32_t) i + 1;
    }
    free(c->table);
    c->table = t;
    c->tcap = cap;
    return 0;
}

long prof_impl_chain_intern(prof_impl_chains * c, uint32_t pid, const uint64_t * ip,
                            size_t n, size_t limit)
{
    size_t at, id;
    if ((c->n + 1) * 2 > c->tcap && grow_table(c) != 0)
        return -1;
    at = hash_chain(pid, ip, n) & (c->tcap - 1);
    for (; c->table[at] != 0; at = (at + 1) & (c->tcap - 1))
    {
        id = c->table[at] - 1;
        if (c->pid[id] == pid && prof_impl_chain_len(c, id) == n
            && (n == 0 || memcmp(c->ips + c->first[id], ip, n * 8) == 0))
            return (long) id;
    }
    if (c->n >= limit || c->n >= UINT32_MAX - 1
        || prof_impl_grow(&c->ips, &c->ipcap, c->nips + n, 8) != 0
        || prof_impl_grow(&c->first, &c->firstcap, c->n + 2, sizeof *c->first) != 0
        || prof_impl_grow(&c->pid, &c->pidcap, c->n + 1, sizeof *c->pid) != 0)
        return -1;
    if (n > 0)
        memcpy(c->ips + c->nips, ip, n * 8);
    c->first[c->n] = c->nips;
    c->nips += n;
    c->first[c->n + 1] = c->nips;
    c->pid[c->n] = pid;
    c->table[at] = (uint32_t) ++c->n;
    return (long) c->n - 1;
}

void prof_impl_chains_free(prof_impl_chains * c)
{
    free(c->ips);
    free(c->first);
    free(c->pid);
    free(c->table);
    memset(c, 0, sizeof *c);
}
