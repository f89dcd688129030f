/*
    Chains of addresses (call stacks) interned (chains.c): the sampler's
    writer and the trace reader's unwinder. Internal; included by
    internal.h, and alone where profiler.h must not come yet.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_CHAINS_H
#define PROF_CHAINS_H

#include <stddef.h>
#include <stdint.h>

/* One number for each distinct (process, chain), 0, 1, 2... in the order
   first seen. */
typedef struct
{
    uint64_t * ips;             /* every chain's frames, one after another */
    size_t nips, ipcap;
    size_t * first;             /* id -> start in ips; first[id + 1]: end */
    uint32_t * pid;             /* id -> process */
    size_t n, firstcap, pidcap;
    uint32_t * table;           /* hash table of id + 1, 0 empty */
    size_t tcap;
} prof_impl_chains;
/* The number of process pid's chain ip[0..n), made if new; -1 if there is
   no room (limit chains already, or out of memory). */
long prof_impl_chain_intern(prof_impl_chains * c, uint32_t pid, const uint64_t * ip,
                            size_t n, size_t limit);
static inline size_t prof_impl_chain_len(const prof_impl_chains * c, size_t id)
{
    return c->first[id + 1] - c->first[id];
}
void prof_impl_chains_free(prof_impl_chains * c);
#endif
