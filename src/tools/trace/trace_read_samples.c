/*
    The trace reader's sampling chunks (format version 3: SAMPLES, STACKS,
    SAMPLING, MAPS2, PROCESS): see trace_read.h for what they become.
    trace_read.c finds the chunks and hands their payloads here.
    SPDX-License-Identifier: MIT
*/
#include "trace_zones.h"
#include "internal.h"
#include "trace_format.h"

#include <stdlib.h>
#include <string.h>

const pt_vma * pt_vma_at(const pt_trace * t, uint32_t pid, uint64_t addr,
                         int64_t ticks)
{
    size_t i = t->nvmas;
    while (i-- > 0) /* the latest first: a later mapping hides an earlier one */
    {
        const pt_vma * v = &t->vmas[i];
        if (v->pid == pid && addr >= v->start && addr < v->end && ticks >= v->from
            && ticks < v->until)
            return v;
    }
    return NULL;
}

const uint64_t * pt_stack_frames(const pt_trace * t, uint32_t id, uint32_t * n)
{
    *n = 0;
    if (id >= t->nstacks)
        return NULL;
    *n = t->stacks[id].n;
    return t->stack_ips + t->stacks[id].first;
}

void pt_samples_release(pt_trace * t)
{
    size_t i;
    for (i = 0; i < t->nvmas; i++)
        free(t->vmas[i].path);
    free(t->vmas);
    free(t->stacks);
    free(t->stack_ips);
    free(t->processes);
}
