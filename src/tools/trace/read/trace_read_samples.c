/*
    The trace reader's sampling chunks (format version 3: SAMPLES, STACKS,
    SAMPLING, MAPS2, PROCESS; version 4: USAMPLES, see trace_format.h):
    samples handed to the
    handler, stacks, mappings and processes kept in the pt_trace, the
    sampler's settings and counts added up. trace_read.c finds the chunks
    and hands their payloads here; nothing in them is trusted.
    SPDX-License-Identifier: MIT
*/
#include "trace_zones.h"
#include "internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- SAMPLES --------------------------------------------------------------- */

static void deliver(pt_trace * t, size_t ti, pt_tstate * ts, pt_sample * sm)
{
    pt_state * s = t->st;
    if (sm->ticks < ts->last_sample)
        pt_warn(t, W_ORDER, "thread %u: sample at tick %lld before the one at "
                "%lld: kept", sm->tid, (long long) sm->ticks,
                (long long) ts->last_sample);
    else
        ts->last_sample = sm->ticks;
    if (sm->ticks > t->span)
        t->span = sm->ticks;
    t->threads[ti].samples++;
    t->sampling.read++;
    if (sm->flags & PT_SAMPLE_TRUNCATED)
        t->sampling.read_truncated++;
    if (sm->copy != NULL)
        t->sampling.read_copies++;
    if (s->h.sample != NULL)
        s->h.sample(s->h.ctx, t, sm);
}

/* A USAMPLES sample's copy at p[*i..n) into c, *i moved past it; 1 if
   it is whole, 0 (after a warning) if not: the sample keeps its chain,
   and -1 if the rest of the chunk cannot be found. */
static int read_copy(pt_trace * t, uint32_t tid, const unsigned char * p,
                     size_t n, size_t * i, pt_ucopy * c)
{
    size_t at = *i, k, need;
    uint32_t arch, size;
    memset(c, 0, sizeof *c);
    if (n - at < 24)
        goto cut;
    c->have = pt_rd64(p + at);
    arch = pt_rd32(p + at + 8);
    size = pt_rd32(p + at + 12);
    need = 24 + 8 * (size_t) __builtin_popcountll(c->have) + ((size_t) size + 7) / 8 * 8;
    if ((c->have >> PT_UCOPY_REGS) != 0 || size > PROF_TF_MAX_USTACK || need > n - at)
        goto cut;
    at += 16;
    for (k = 0; k < PT_UCOPY_REGS; k++)
        if ((c->have >> k) & 1)
            c->r[k] = pt_rd64(p + at), at += 8;
    c->base = pt_rd64(p + at);
    c->arch = arch;
    c->data = p + at + 8;
    c->size = size;
    *i += need;
    if (arch != PROF_TF_ARCH_X86_64 && arch != PROF_TF_ARCH_ARM64)
    {
        pt_warn(t, W_CORRUPT, "thread %u: stack copy of architecture %u, which "
                "this prof-trace does not know: its chain kept", tid, arch);
        return 0;
    }
    return 1;
cut:
    pt_warn(t, W_CORRUPT, "thread %u: stack copy cut or damaged (%zu bytes left): "
            "its chain kept, the rest of the chunk ignored", tid, n - at);
    return -1;
}

/* SAMPLES, or USAMPLES (copies: each sample's registers and stack). */
static void on_samples(pt_trace * t, uint32_t tid, const unsigned char * p, size_t n,
                       int copies)
{
    size_t ti, i;
    pt_tstate * ts = pt_thread_of(t, tid, &ti);
    uint64_t at61;
    if (ts == NULL || n < 8)
        return;
    at61 = pt_rd64(p) & PROF_TF_TICK_MASK;
    for (i = 8; i + 8 <= n; i += 8)
    {
        uint64_t w = pt_rd64(p + i);
        pt_sample sm;
        pt_ucopy c;
        int whole = 0, bad = 0;
        at61 = (at61 + (w >> 24)) & PROF_TF_TICK_MASK;
        sm.thread = (uint32_t) ti;
        sm.tid = tid;
        sm.ticks = pt_rel_ticks(t->st, at61);
        sm.stack = (uint32_t) (w >> 3) & PROF_TF_NO_STACK;
        sm.flags = (uint8_t) (w & 7);
        sm.weight = 1;
        sm.copy = NULL;
        if (sm.flags & PROF_TF_SAMPLE_WEIGHTED)
        {
            uint64_t wt = i + 16 <= n ? pt_rd64(p + i + 8) : 0;
            i += 8;
            if (wt == 0 || wt > UINT32_MAX)
            {
                pt_warn(t, W_CORRUPT, "thread %u: sample with a weight of %llu "
                        "(missing or out of range): ignored", tid,
                        (unsigned long long) wt);
                bad = 1;
            }
            else
                sm.weight = (uint32_t) wt;
        }
        if (copies)
        {
            size_t next = i + 8;
            whole = next <= n ? read_copy(t, tid, p, n, &next, &c) : -1;
            i = whole < 0 ? n : next - 8; /* -1: the rest cannot be found */
            sm.copy = whole > 0 ? &c : NULL;
        }
        if (bad)
            continue;
        if (sm.stack == PROF_TF_NO_STACK)
            sm.stack = PT_NO_STACK;
        else if (sm.stack >= t->nstacks)
        {
            pt_warn(t, W_CORRUPT, "thread %u: sample of stack %u, which is not "
                    "defined (%zu are): ignored", tid, sm.stack, t->nstacks);
            continue;
        }
        deliver(t, ti, ts, &sm);
    }
}

/* ---- STACKS ---------------------------------------------------------------- */

static void on_stacks(pt_trace * t, uint32_t pid, const unsigned char * p, size_t n)
{
    pt_state * s = t->st;
    size_t i = 0;
    while (i + 8 <= n)
    {
        uint32_t id = pt_rd32(p + i), k = pt_rd32(p + i + 4), j;
        pt_stack * st;
        if (id != t->nstacks || k > PROF_TF_MAX_FRAMES || k > (n - i - 8) / 8)
        {
            pt_warn(t, W_CORRUPT, "stack %u of %u frames (%zu defined, at most %u "
                    "frames): rest of the chunk ignored", id, k, t->nstacks,
                    PROF_TF_MAX_FRAMES);
            return;
        }
        if (prof_impl_grow(&t->stacks, &s->stcap, t->nstacks + 1, sizeof *t->stacks) != 0
            || prof_impl_grow(&t->stack_ips, &s->ipcap, t->nstack_ips + k, 8) != 0)
        {
            s->oom = 1;
            return;
        }
        st = &t->stacks[t->nstacks++];
        st->pid = pid != 0 ? pid : t->pid;
        st->n = k;
        st->first = t->nstack_ips;
        for (j = 0; j < k; j++)
            t->stack_ips[t->nstack_ips++] = pt_rd64(p + i + 8 + 8 * (size_t) j);
        i += 8 + 8 * (size_t) k;
    }
}

/* ---- SAMPLING -------------------------------------------------------------- */

static void sampling_pair(pt_trace * t, uint64_t key, uint64_t v)
{
    pt_sampling * g = &t->sampling;
    switch (key)
    {
    case PROF_TF_SAMPLING_METHOD: g->method = v <= PT_SAMPLING_ITIMER ? (int) v : 0; break;
    case PROF_TF_SAMPLING_EVENT: g->event = (uint32_t) v; break;
    case PROF_TF_SAMPLING_HZ: g->hz = (double) v; break;
    case PROF_TF_SAMPLING_PERIOD_NS: g->period_ns = v; break;
    case PROF_TF_SAMPLING_RING: g->ring_bytes = v; break;
    case PROF_TF_SAMPLING_MAX_STACK: g->max_stack = v; break;
    case PROF_TF_SAMPLING_START: g->start = pt_rel_ticks(t->st, v & PROF_TF_TICK_MASK); break;
    case PROF_TF_SAMPLING_STOP: g->stop = pt_rel_ticks(t->st, v & PROF_TF_TICK_MASK); break;
    case PROF_TF_SAMPLING_NO_ZONES: g->no_zones = v != 0; break;
    case PROF_TF_SAMPLING_SAMPLES: g->recorded += v; break;
    case PROF_TF_SAMPLING_LOST: g->lost += v; break;
    case PROF_TF_SAMPLING_TRUNCATED: g->truncated += v; break;
    case PROF_TF_SAMPLING_DROPPED: g->dropped += v; break;
    case PROF_TF_SAMPLING_CPU_NS: g->cpu_ns += v; break;
    case PROF_TF_SAMPLING_WEIGHT: g->weight += v; break;
    default: break; /* a later key: skipped */
    }
}

static void on_sampling(pt_trace * t, const unsigned char * p, size_t n)
{
    size_t i;
    if (!t->st->has_sampling)
        t->sampling.stop = -1;
    t->st->has_sampling = 1;
    for (i = 0; i + 16 <= n; i += 16)
        sampling_pair(t, pt_rd64(p + i), pt_rd64(p + i + 8));
}

/* ---- MAPS, MAPS2 ----------------------------------------------------------- */

/* One line of /proc/PID/maps: an executable mapping (of a file, or named
   like [vdso]) is kept. */
static void vma_line(pt_trace * t, uint32_t pid, int64_t from, const char * line)
{
    unsigned long long a, b, off, inode;
    char perms[8];
    int used = 0;
    pt_vma * v;
    if (sscanf(line, "%llx-%llx %7s %llx %*s %llu %n", &a, &b, perms, &off,
               &inode, &used) < 5 || used == 0 || line[used] == '\0'
        || strchr(perms, 'x') == NULL || b <= a)
        return;
    if (prof_impl_grow(&t->vmas, &t->st->vmacap, t->nvmas + 1, sizeof *t->vmas) != 0
        || (t->vmas[t->nvmas].path = prof_impl_strdup(line + used)) == NULL)
    {
        t->st->oom = 1;
        return;
    }
    v = &t->vmas[t->nvmas++];
    v->pid = pid;
    v->from = from;
    v->until = INT64_MAX;
    v->start = a;
    v->end = b;
    v->offset = off;
    v->inode = inode;
}

typedef struct { pt_trace * t; uint32_t pid; int64_t from; } vma_ctx;

static void vma_each(void * ctx, const char * line)
{
    vma_ctx * v = (vma_ctx *) ctx;
    vma_line(v->t, v->pid, v->from, line);
}

void pt_vmas_add(pt_trace * t, uint32_t pid, int64_t from,
                 const unsigned char * p, size_t n)
{
    vma_ctx v;
    v.t = t;
    v.pid = pid;
    v.from = from;
    pt_each_line(p, n, vma_each, &v);
}

static void on_maps2(pt_trace * t, uint32_t pid, const unsigned char * p, size_t n)
{
    int64_t at;
    size_t i;
    if (n < 16)
    {
        pt_warn(t, W_CORRUPT, "mappings record of %zu bytes: ignored", n);
        return;
    }
    at = pt_rel_ticks(t->st, pt_rd64(p) & PROF_TF_TICK_MASK);
    pid = pid != 0 ? pid : t->pid;
    if (pt_rd32(p + 8) & PROF_TF_MAPS_REPLACE)
        for (i = 0; i < t->nvmas; i++)
            if (t->vmas[i].pid == pid && t->vmas[i].until == INT64_MAX)
                t->vmas[i].until = at;
    pt_vmas_add(t, pid, at, p + 16, n - 16);
    if (pid == t->pid && t->st->syms != NULL) /* names for instrumented code */
        pt_symbols_maps(t->st->syms, p + 16, n - 16, t->process, sizeof t->process);
}

/* ---- PROCESS --------------------------------------------------------------- */

static pt_process * process_of(pt_trace * t, uint32_t pid)
{
    size_t i = t->nprocesses;
    pt_process * pr;
    while (i-- > 0)
        if (t->processes[i].pid == pid)
            return &t->processes[i];
    if (prof_impl_grow(&t->processes, &t->st->proccap, t->nprocesses + 1,
                       sizeof *t->processes) != 0)
    {
        t->st->oom = 1;
        return NULL;
    }
    pr = &t->processes[t->nprocesses++];
    memset(pr, 0, sizeof *pr);
    pr->pid = pid;
    pr->end = -1;
    return pr;
}

/* A fork: the child has the parent's mappings of that time. */
static void fork_vmas(pt_trace * t, uint32_t pid, uint32_t ppid, int64_t at)
{
    size_t i, n = t->nvmas;
    if (pid == ppid)
        return;
    for (i = 0; i < n; i++)
    {
        pt_vma v = t->vmas[i];
        if (v.pid != ppid || v.from > at || v.until <= at)
            continue;
        if (prof_impl_grow(&t->vmas, &t->st->vmacap, t->nvmas + 1, sizeof *t->vmas) != 0
            || (v.path = prof_impl_strdup(v.path)) == NULL)
        {
            t->st->oom = 1;
            return;
        }
        v.pid = pid;
        v.from = at;
        t->vmas[t->nvmas++] = v;
    }
}

static void on_process(pt_trace * t, uint32_t tid, const unsigned char * p, size_t n)
{
    int64_t at;
    uint32_t pid, kind;
    size_t ti, len;
    pt_process * pr;
    if (n < 24)
    {
        pt_warn(t, W_CORRUPT, "process record of %zu bytes: ignored", n);
        return;
    }
    at = pt_rel_ticks(t->st, pt_rd64(p) & PROF_TF_TICK_MASK);
    pid = pt_rd32(p + 8);
    kind = pt_rd32(p + 16);
    if (kind == PROF_TF_PROC_THREAD || kind == PROF_TF_PROC_THREAD_EXIT)
    {
        if (pt_thread_of(t, tid, &ti) != NULL)
            t->threads[ti].pid = pid;
        return;
    }
    if (kind < PROF_TF_PROC_START || kind > PROF_TF_PROC_EXIT
        || (pr = process_of(t, pid)) == NULL)
        return;
    if (kind == PROF_TF_PROC_START)
    {
        pr->ppid = pt_rd32(p + 12);
        pr->start = at;
        fork_vmas(t, pid, pr->ppid, at);
    }
    else if (kind == PROF_TF_PROC_EXIT)
        pr->end = at;
    len = memchr(p + 24, '\0', n - 24) != NULL
          ? (size_t) ((const unsigned char *) memchr(p + 24, '\0', n - 24) - (p + 24))
          : n - 24;
    if (len > 0 && kind != PROF_TF_PROC_EXIT)
    {
        len = len < sizeof pr->name - 1 ? len : sizeof pr->name - 1;
        memcpy(pr->name, p + 24, len);
        pr->name[len] = '\0';
    }
}

/* ---- the chunks, the end --------------------------------------------------- */

int pt_sampling_chunk(pt_trace * t, const prof_tf_chunk * c,
                      const unsigned char * p)
{
    switch (c->type)
    {
    case PROF_TF_SAMPLES: on_samples(t, c->tid, p, c->size, 0); return 1;
    case PROF_TF_USAMPLES: on_samples(t, c->tid, p, c->size, 1); return 1;
    case PROF_TF_STACKS: on_stacks(t, c->tid, p, c->size); return 1;
    case PROF_TF_SAMPLING: on_sampling(t, p, c->size); return 1;
    case PROF_TF_MAPS2: on_maps2(t, c->tid, p, c->size); return 1;
    case PROF_TF_PROCESS: on_process(t, c->tid, p, c->size); return 1;
    default: return 0;
    }
}

void pt_samples_finish(pt_trace * t)
{
    pt_sampling * g = &t->sampling;
    uint64_t periods = g->weight != 0 ? g->weight : g->recorded;
    if (g->cpu_ns > 0)
        g->achieved_hz = (double) periods / ((double) g->cpu_ns * 1e-9);
    if (g->lost > 0)
        pt_warn(t, W_TRUNC, "the kernel lost %llu samples (its ring buffer was "
                "full: the reader fell behind)", (unsigned long long) g->lost);
    if (g->dropped > 0)
        pt_warn(t, W_TRUNC, "the recorder could not keep %llu samples (see its "
                "profiler: message)", (unsigned long long) g->dropped);
    if (g->read < g->recorded)
        pt_warn(t, W_TRUNC, "%llu samples were recorded, %llu read (the file is "
                "cut or damaged)", (unsigned long long) g->recorded,
                (unsigned long long) g->read);
}

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
