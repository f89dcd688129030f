/*
    The reports of a sampled trace: see trace_samples.h.
    SPDX-License-Identifier: MIT
*/
#include "trace_samples.h"
#include "trace_elf.h"
#include "trace_folded.h"
#include "trace_map.h"
#include "trace_sample_zones.h"
#include "trace_sums.h"
#include "trace_locs.h"
#include "trace_log.h"
#include "trace_unwind.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
    uint64_t n;             /* samples (weighted) */
} smp_thread;

typedef struct { size_t first; uint32_t n; } rstack_t; /* fn ids, leaf first */

struct pt_samples
{
    const char * const * binaries;
    int resolve;
    pt_symbols * sym;
    pt_unwinder * uw;       /* the chains of samples with a stack copy */
    char ** fn;             /* function names, owned, distinct */
    size_t nfn, fncap;
    uint32_t * fnmod;       /* each function's module + 1, 0: none */
    size_t fnmodcap;
    char ** mod;            /* the modules' paths, owned, distinct */
    size_t nmod, modcap;
    pt_map fnidx;           /* name hash (probed) -> fn + 1 */
    uint32_t * fr;          /* the frames of the named stacks */
    size_t nfr, frcap;
    uint32_t * lo;          /* their locations, parallel to fr */
    size_t locap;
    pt_locs locs;
    rstack_t * rs;
    size_t nrs, rscap;
    pt_map stackidx;        /* chain key (pt_unwinder_chain) -> rs + 1 */
    pt_map bylocs;          /* hash of a named stack's locations -> rs + 1 */
    smp_thread * th;
    size_t nth, thcap;
    uint64_t weight;        /* samples kept, weighted */
    pt_sums stacks;         /* weight per thread << 32 | named stack */
    pt_sz * sz;             /* the samples by zone; NULL: not asked */
    int sz_stacks;          /* sz sums named stacks (pprof), not leaves */
    pt_log * log;           /* each sample (ticks, stack, weight) by
                               thread, for pt_samples_each; NULL: none */
    int oom;
};

static void say(void * ctx, const char * message)
{
    (void) ctx;
    prof_impl_warn("prof-trace: %s", message);
}

pt_samples * pt_samples_new(const char * const * binaries, int resolve,
                            pt_output kind)
{
    pt_samples * p = (pt_samples *) calloc(1, sizeof *p);
    if (p == NULL)
        return NULL;
    p->binaries = binaries;
    p->resolve = resolve;
    p->sz_stacks = kind == PT_OUT_PPROF;
    if ((resolve && (p->uw = pt_unwinder_new(say, NULL)) == NULL)
        || ((kind == PT_OUT_TEXT || kind == PT_OUT_PPROF)
            && (p->sz = pt_sz_new()) == NULL)
        || ((kind == PT_OUT_SPEEDSCOPE || kind == PT_OUT_PERFETTO)
            && (p->log = pt_log_new()) == NULL))
    {
        pt_unwinder_free(p->uw);
        free(p);
        return NULL;
    }
    return p;
}

void pt_samples_free(pt_samples * p)
{
    size_t i;
    if (p == NULL)
        return;
    pt_symbols_free(p->sym);
    pt_unwinder_free(p->uw);
    for (i = 0; i < p->nfn; i++)
        free(p->fn[i]);
    free(p->fn);
    free(p->fnmod);
    for (i = 0; i < p->nmod; i++)
        free(p->mod[i]);
    free(p->mod);
    pt_map_free(&p->fnidx, 0);
    free(p->fr);
    free(p->lo);
    pt_locs_free(&p->locs);
    free(p->rs);
    pt_map_free(&p->stackidx, 0);
    pt_map_free(&p->bylocs, 0);
    free(p->th);
    pt_log_free(p->log);
    pt_sums_free(&p->stacks);
    pt_sz_free(p->sz);
    free(p);
}

uint64_t pt_samples_count(const pt_samples * p)
{
    return p != NULL ? p->weight : 0;
}

/* ---- naming -------------------------------------------------------------------- */

static uint64_t hash_name(const char * s)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (; *s; s++)
        h = (h ^ (unsigned char) *s) * UINT64_C(1099511628211);
    return h;
}

/* The module number (index + 1) of a mapping's path, copied on first
   use; 0 for none or out of memory. Looked up once a frame of each
   distinct stack, among the few modules of a trace. */
static uint32_t mod_of(pt_samples * p, const char * path)
{
    size_t i;
    if (path == NULL)
        return 0;
    for (i = 0; i < p->nmod && strcmp(p->mod[i], path) != 0; i++)
        ;
    if (i == p->nmod)
    {
        char * copy;
        if (prof_impl_grow(&p->mod, &p->modcap, p->nmod + 1, sizeof *p->mod) != 0
            || (copy = prof_impl_strdup(path)) == NULL)
            return 0;
        p->mod[p->nmod++] = copy;
    }
    return (uint32_t) (i + 1);
}

/* The function id of name (copied on first use), of the module numbered
   mod if it is new; UINT32_MAX if out of memory. */
static uint32_t fn_of(pt_samples * p, const char * name, uint32_t mod)
{
    uint64_t key = hash_name(name);
    for (;; key++)
    {
        void ** slot = pt_map_find(&p->fnidx, key, 1);
        char * copy;
        if (slot == NULL)
            return UINT32_MAX;
        if (*slot != NULL)
        {
            if (strcmp(p->fn[(size_t) *slot - 1], name) == 0)
                return (uint32_t) ((size_t) *slot - 1);
            continue;   /* another name of the same hash: the next key */
        }
        if (p->nfn >= UINT32_MAX - 1
            || prof_impl_grow(&p->fn, &p->fncap, p->nfn + 1, sizeof *p->fn) != 0
            || prof_impl_grow(&p->fnmod, &p->fnmodcap, p->nfn + 1,
                              sizeof *p->fnmod) != 0
            || (copy = prof_impl_strdup(name)) == NULL)
            return UINT32_MAX;
        p->fnmod[p->nfn] = mod;
        p->fn[p->nfn++] = copy;
        *slot = (void *) p->nfn;
        p->fnidx.n++;
        return (uint32_t) (p->nfn - 1);
    }
}

/* The name of at (a return address - 1 unless a leaf) in the mapping m
   (NULL: none), into buf: a symbol, else module+0xOFFSET. */
static const char * frame_name(pt_samples * p, const pt_vma * m, uint64_t addr,
                               uint64_t at, char * buf, size_t size)
{
    const char * name = NULL;
    if (m == NULL)
    {
        snprintf(buf, size, "[unknown]+0x%llx", (unsigned long long) addr);
        return buf;
    }
    if (p->resolve && p->sym == NULL)
        p->sym = pt_symbols_new(p->binaries, say, NULL);
    if (p->resolve && p->sym != NULL)
        name = pt_symbols_file_name(p->sym, m->path, m->inode,
                                    at - m->start + m->offset);
    if (name != NULL)
        return name;
    pt_module_offset(buf, size, m->path, at - m->start + m->offset);
    return buf;
}

/* Frame i of the named stack at p->nfr: the function and location of
   ip[i] (a return address unless i is 0) in process pid at ticks. 0, or
   1 if it lies in no mapping and is not the leaf: a frame-pointer chain
   ends there (what comes after is not a caller); -1 if out of memory. */
static int put_frame(pt_samples * p, const pt_trace * t, uint32_t pid,
                     const uint64_t * ip, uint32_t i, int64_t ticks)
{
    char buf[1200];
    uint64_t at = i == 0 || ip[i] == 0 ? ip[i] : ip[i] - 1;
    const pt_vma * m = pt_vma_at(t, pid, at, ticks);
    const char * name;
    uint32_t mod;
    if (m == NULL && i > 0)
        return 1;
    name = frame_name(p, m, ip[i], at, buf, sizeof buf);
    mod = mod_of(p, m != NULL ? m->path : NULL);
    p->fr[p->nfr + i] = fn_of(p, name, mod);
    p->lo[p->nfr + i] = p->fr[p->nfr + i] == UINT32_MAX ? UINT32_MAX
        : pt_locs_add(&p->locs, t, m, mod, at, p->fr[p->nfr + i], p->sym);
    return p->lo[p->nfr + i] == UINT32_MAX ? -1 : 0;
}

/* The named stack whose locations are those of r, the stack being named
   (&p->rs[p->nrs]): an earlier one, else r's own index, registered;
   UINT32_MAX if out of memory. Chains that differ only past where they
   were cut (a caller in no mapping) name alike: one stack, one folded
   line. */
static uint32_t stack_by_locs(pt_samples * p, const rstack_t * r)
{
    uint64_t key = UINT64_C(14695981039346656037);
    uint32_t i;
    for (i = 0; i < r->n; i++)
        key = (key ^ p->lo[r->first + i]) * UINT64_C(1099511628211);
    for (;; key++)
    {
        void ** slot = pt_map_find(&p->bylocs, key, 1);
        const rstack_t * o;
        if (slot == NULL)
            return UINT32_MAX;
        if (*slot == NULL)
        {
            *slot = (void *) (p->nrs + 1);
            p->bylocs.n++;
            return (uint32_t) p->nrs;
        }
        o = &p->rs[(size_t) *slot - 1];
        if (o->n == r->n && memcmp(p->lo + o->first, p->lo + r->first,
                                   r->n * sizeof *p->lo) == 0)
            return (uint32_t) ((size_t) *slot - 1);
    }
}

/* The named stack of sample s's chain (its stack, or the one unwound
   from its copy: pt_unwinder_chain), named on first use; UINT32_MAX if
   out of memory. A sample with no stack is one frame, "[no stack]". Its
   chain is found for each sample (each copy is unwound), named once. A
   stack ends at its first caller in no mapping. */
static uint32_t rstack_of(pt_samples * p, const pt_trace * t, const pt_sample * s)
{
    void ** slot;
    const uint64_t * ip;
    uint64_t key = s->stack;
    uint32_t n, i, k, pid = 0;
    rstack_t * r;
    if (p->uw != NULL)
    {
        if (pt_unwinder_chain(p->uw, t, s, &key, &ip, &n, &pid) != 0)
            return UINT32_MAX;
    }
    else if ((ip = pt_stack_frames(t, s->stack, &n)) != NULL)
        pid = t->stacks[s->stack].pid;
    if ((slot = pt_map_find(&p->stackidx, key, 1)) == NULL)
        return UINT32_MAX;
    if (*slot != NULL)
        return (uint32_t) ((size_t) *slot - 1);
    if (prof_impl_grow(&p->rs, &p->rscap, p->nrs + 1, sizeof *p->rs) != 0
        || prof_impl_grow(&p->fr, &p->frcap, p->nfr + (n ? n : 1),
                          sizeof *p->fr) != 0
        || prof_impl_grow(&p->lo, &p->locap, p->nfr + (n ? n : 1),
                          sizeof *p->lo) != 0)
        return UINT32_MAX;
    r = &p->rs[p->nrs];
    r->first = p->nfr;
    r->n = n ? n : 1;
    if (n == 0 && ((p->fr[p->nfr] = fn_of(p, "[no stack]", 0)) == UINT32_MAX
                   || (p->lo[p->nfr] = pt_locs_add(&p->locs, t, NULL, 0,
                       PT_LOC_NONE, p->fr[p->nfr], NULL)) == UINT32_MAX))
        return UINT32_MAX;
    for (i = 0; i < n; i++)
    {
        int rc = put_frame(p, t, pid, ip, i, s->ticks);
        if (rc < 0)
            return UINT32_MAX;
        if (rc > 0)
        {
            r->n = i;   /* the callers end here */
            break;
        }
    }
    if ((k = stack_by_locs(p, r)) == UINT32_MAX)
        return UINT32_MAX;
    if (k == p->nrs)    /* new: keep its frames */
    {
        p->nfr += r->n;
        p->nrs++;
    }
    *slot = (void *) ((size_t) k + 1);
    p->stackidx.n++;
    return k;
}

/* ---- samples and zones -------------------------------------------------------- */

static smp_thread * thread_of(pt_samples * p, uint32_t thread)
{
    if (thread >= p->nth)
    {
        if (prof_impl_grow(&p->th, &p->thcap, (size_t) thread + 1,
                           sizeof *p->th) != 0)
            return NULL;
        memset(p->th + p->nth, 0, (thread + 1 - p->nth) * sizeof *p->th);
        p->nth = (size_t) thread + 1;
    }
    return &p->th[thread];
}

/* s (named stack rs, weight w) for pt_samples_each, if kept. */
static int log_sample(pt_samples * p, const pt_sample * s, uint32_t rs,
                      uint32_t w)
{
    pt_rec r;
    if (p->log == NULL)
        return 0;
    r.ticks = s->ticks;
    r.a = rs;
    r.b = w;
    return pt_log_add(p->log, s->thread, &r);
}

void pt_samples_add(pt_samples * p, const pt_trace * t, const pt_sample * s)
{
    smp_thread * th = thread_of(p, s->thread);
    uint32_t rs, w = s->weight ? s->weight : 1;
    if (p->sz != NULL && t->sampling.no_zones)
        pt_sz_no_zones(p->sz);  /* its samples are named at once */
    if (th == NULL || (rs = rstack_of(p, t, s)) == UINT32_MAX
        || pt_sums_add(&p->stacks, (uint64_t) s->thread << 32 | rs, w) != 0
        || log_sample(p, s, rs, w) != 0
        || (p->sz != NULL && pt_sz_sample(p->sz, s->thread, s->ticks,
                                          p->sz_stacks ? rs
                                          : p->fr[p->rs[rs].first], w) != 0))
    {
        p->oom = 1;
        return;
    }
    th->n += w;
    p->weight += w;
}

void pt_samples_begin(pt_samples * p, const pt_trace * t, const pt_zone * z)
{
    if (p != NULL && p->sz != NULL && t->version >= 3
        && pt_sz_begin(p->sz, z) != 0)
        p->oom = 1;
}

void pt_samples_zone(pt_samples * p, const pt_trace * t, const pt_zone * z)
{
    if (p != NULL && p->sz != NULL && t->version >= 3
        && pt_sz_end(p->sz, z) != 0)
        p->oom = 1;
}

/* ---- the top functions ------------------------------------------------------------ */

typedef pt_top top_t;

/* Nanoseconds a unit of weight stands for: the fixed period, else the
   period of the rate asked for, else the CPU time counted per sample; 0 if
   the trace says none. */
double pt_samples_period_ns(const pt_trace * t)
{
    const pt_sampling * s = &t->sampling;
    if (s->period_ns > 0)
        return (double) s->period_ns;
    if (s->hz > 0)
        return 1e9 / s->hz;
    return s->weight > 0 ? (double) s->cpu_ns / (double) s->weight : 0;
}

static int cmp_top(const void * a, const void * b)
{
    const top_t * x = (const top_t *) a, * y = (const top_t *) b;
    if (x->self != y->self)
        return x->self < y->self ? 1 : -1;
    if (x->total != y->total)
        return x->total < y->total ? 1 : -1;
    return strcmp(x->name, y->name);
}

/* The weight of each named stack over thread ti's samples (all threads:
   ti = SIZE_MAX) into w (p->nrs), the sum returned. */
static uint64_t stack_weights(const pt_samples * p, size_t ti, uint64_t * w)
{
    uint64_t sum = 0;
    size_t i;
    for (i = 0; i < p->stacks.n; i++)
        if (ti == SIZE_MAX || ti == (size_t) (p->stacks.v[i].key >> 32))
        {
            w[(uint32_t) p->stacks.v[i].key] += p->stacks.v[i].w;
            sum += p->stacks.v[i].w;
        }
    return sum;
}

/* The functions of thread ti's samples (or all), sorted by self then
   total, those with samples only: *n of them; NULL if out of memory. */
static top_t * tally(pt_samples * p, size_t ti, size_t * n, uint64_t * sum)
{
    uint64_t * w = (uint64_t *) calloc(p->nrs + 1, sizeof *w);
    uint32_t * seen = (uint32_t *) calloc(p->nfn + 1, sizeof *seen);
    top_t * rows = (top_t *) calloc(p->nfn + 1, sizeof *rows);
    size_t r, k;
    *n = 0;
    if (w == NULL || seen == NULL || rows == NULL)
    {
        free(w), free(seen), free(rows);
        return NULL;
    }
    *sum = stack_weights(p, ti, w);
    for (r = 0; r < p->nrs; r++)
    {
        const uint32_t * f = p->fr + p->rs[r].first;
        rows[f[0]].self += w[r];
        for (k = 0; w[r] > 0 && k < p->rs[r].n; k++)
            if (seen[f[k]] != r + 1)    /* a recursive function once */
            {
                seen[f[k]] = (uint32_t) r + 1;
                rows[f[k]].total += w[r];
            }
    }
    for (r = 0; r < p->nfn; r++)
        if (rows[r].total > 0)
        {
            rows[*n] = rows[r];
            rows[(*n)++].name = p->fn[r];
        }
    free(w), free(seen);
    qsort(rows, *n, sizeof *rows, cmp_top);
    return rows;
}

pt_top * pt_samples_top(pt_samples * p, size_t * n, uint64_t * sum)
{
    return tally(p, SIZE_MAX, n, sum);
}

uint64_t * pt_samples_stack_weights(const pt_samples * p)
{
    uint64_t * w = (uint64_t *) calloc(p->nrs + 1, sizeof *w);
    if (w != NULL)
        stack_weights(p, SIZE_MAX, w);
    return w;
}

static void put_name(FILE * out, const char * s, int csv)
{
    if (csv && strpbrk(s, ",\"\r\n") != NULL)
        prof_impl_csv_string(out, s);
    else
        for (; *s; s++)
            fputc((unsigned char) *s < 32 || *s == 127 ? '?' : *s, out);
}

static void put_text(FILE * out, const char * s)
{
    put_name(out, s, 0);
}

/* One table: thread ti's (or all merged, ti = SIZE_MAX). */
static int put_top(pt_samples * p, FILE * out, const pt_trace * t, size_t ti,
                   int csv, int by_thread)
{
    double ms = pt_samples_period_ns(t) / 1e6;
    uint64_t sum;
    size_t n, i;
    top_t * rows = tally(p, ti, &n, &sum);
    const pt_thread * th = ti != SIZE_MAX ? &t->threads[ti] : NULL;
    if (rows == NULL)
        return -1;
    if (!csv && th != NULL)
    {
        fprintf(out, "\nthread %u", th->tid);
        if (th->name[0] != '\0')
            fputc(' ', out), put_name(out, th->name, 0);
        fprintf(out, ": %llu samples\n", (unsigned long long) sum);
    }
    if (!csv)
        fprintf(out, "%10s %7s %12s %10s %7s %12s  %s\n", "self", "self_%",
                "self_ms", "total", "total_%", "total_ms", "function");
    for (i = 0; i < n && (csv || i < PT_TOP_FUNCTIONS); i++)
    {
        double s = (double) rows[i].self, u = (double) rows[i].total;
        double d = sum ? 100.0 / (double) sum : 0;
        if (csv && by_thread && th != NULL)
            fprintf(out, "%u,", th->tid), put_name(out, th->name, 1), fputc(',', out);
        else if (csv && by_thread)
            fputs("all,,", out);
        if (csv)
            put_name(out, rows[i].name, 1);
        fprintf(out, csv ? ",%.0f,%.2f,%.3f,%.0f,%.2f,%.3f\n"
                : "%10.0f %6.1f%% %12.3f %10.0f %6.1f%% %12.3f  ", s, s * d,
                s * ms, u, u * d, u * ms);
        if (!csv)
            put_name(out, rows[i].name, 0), fputc('\n', out);
    }
    if (!csv && n > PT_TOP_FUNCTIONS)
        fprintf(out, "... and %zu more functions (--csv lists them all)\n",
                n - PT_TOP_FUNCTIONS);
    free(rows);
    return 0;
}

static const char * method_name(int method)
{
    return method == PT_SAMPLING_PERF ? "perf events"
           : method == PT_SAMPLING_TIMER ? "a CPU-time timer (SIGPROF)"
           : method == PT_SAMPLING_ITIMER ? "setitimer (SIGPROF)"
           : "an unknown method";
}

/* The text report's first line: what was sampled and what is missing. */
static void top_line(const pt_samples * p, FILE * out, const pt_trace * t)
{
    const pt_sampling * s = &t->sampling;
    size_t i, threads = 0;
    for (i = 0; i < p->nth; i++)
        threads += p->th[i].n > 0;
    fprintf(out, "%llu samples in %zu threads, by %s", (unsigned long long)
            p->weight, threads, method_name(s->method));
    if (s->hz > 0)
        fprintf(out, " at %.6g Hz asked", s->hz);
    if (s->achieved_hz > 0)
        fprintf(out, ", %.6g Hz achieved", s->achieved_hz);
    fprintf(out, "; %llu lost, %llu stacks truncated, %llu dropped\n",
            (unsigned long long) s->lost, (unsigned long long) (s->truncated
            > s->read_truncated ? s->truncated : s->read_truncated),
            (unsigned long long) s->dropped);
    if (s->lost > 0 || s->dropped > 0)
        fputs("SAMPLES LOST: the shares below leave them out\n", out);
    pt_unwinder_summary(p->uw, out);
}

int pt_samples_write_top(pt_samples * p, FILE * out, const pt_trace * t,
                         int csv, int by_thread)
{
    size_t i;
    int rc = 0;
    if (!csv)
        top_line(p, out, t);
    else
        fprintf(out, "%sfunction,self,self_pct,self_ms,total,total_pct,"
                "total_ms\n", by_thread ? "thread,thread_name," : "");
    rc |= put_top(p, out, t, SIZE_MAX, csv, by_thread);
    for (i = 0; by_thread && i < p->nth && i < t->nthreads; i++)
        if (p->th[i].n > 0)
            rc |= put_top(p, out, t, i, csv, by_thread);
    if (!csv && p->sz != NULL && !p->sz_stacks)
        rc |= pt_sz_write(p->sz, out, (const char * const *) p->fn, p->weight,
                          put_text);
    return rc != 0 || p->oom ? -1 : 0;
}

/* ---- collapsed stacks --------------------------------------------------------- */

int pt_samples_write_folded(pt_samples * p, FILE * out, const pt_trace * t)
{
    size_t i, m;
    pt_sum * e = pt_sums_sorted(&p->stacks, &m);
    if (e == NULL)
        return -1;
    for (i = 0; i < m && (e[i].key >> 32) < t->nthreads; i++)
    {
        const rstack_t * r = &p->rs[(uint32_t) e[i].key];
        uint64_t w = e[i].w;
        uint32_t f;
        pt_folded_thread(out, &t->threads[e[i].key >> 32]);
        for (f = r->n; f-- > 0;)
        {
            fputc(';', out);
            pt_folded_frame(out, p->fn[p->fr[r->first + f]]);
        }
        fprintf(out, " %llu\n", (unsigned long long) w);
    }
    free(e);
    return p->oom ? -1 : 0;
}

/* ---- for the other writers ---------------------------------------------------- */

const char * pt_samples_function(const pt_samples * p, uint32_t fn)
{
    return p->fn[fn];
}

size_t pt_samples_functions(const pt_samples * p)
{
    return p != NULL ? p->nfn : 0;
}

uint32_t pt_samples_function_module(const pt_samples * p, uint32_t fn)
{
    return p->fnmod[fn];
}

size_t pt_samples_modules(const pt_samples * p)
{
    return p != NULL ? p->nmod : 0;
}

const char * pt_samples_module(const pt_samples * p, uint32_t mod)
{
    return p->mod[mod - 1];
}

const uint32_t * pt_samples_stack(const pt_samples * p, uint32_t rs,
                                  uint32_t * n)
{
    *n = p->rs[rs].n;
    return p->fr + p->rs[rs].first;
}

const uint32_t * pt_samples_stack_locs(const pt_samples * p, uint32_t rs)
{
    return p->lo + p->rs[rs].first;
}

const pt_locs * pt_samples_locs(const pt_samples * p)
{
    return &p->locs;
}

size_t pt_samples_stacks(const pt_samples * p)
{
    return p != NULL ? p->nrs : 0;
}

int pt_samples_resolving(const pt_samples * p)
{
    return p->resolve;
}

int pt_samples_by_zone(pt_samples * p, void * ctx, pt_sz_each_fn each)
{
    if (p == NULL || p->sz == NULL || !p->sz_stacks)
        return -1;
    return pt_sz_each(p->sz, ctx, each) != 0 || p->oom ? -1 : 0;
}

typedef struct
{
    pt_samples_each_fn each;
    void * ctx;
    uint32_t thread;
} each_ctx;

static void each_rec(void * ctx, const pt_rec * r)
{
    const each_ctx * c = (const each_ctx *) ctx;
    c->each(c->ctx, c->thread, r->ticks, r->a, r->b);
}

uint64_t pt_samples_of(const pt_samples * p, uint32_t thread)
{
    return p != NULL && thread < p->nth ? p->th[thread].n : 0;
}

int pt_samples_each_of(pt_samples * p, uint32_t thread, void * ctx,
                       pt_samples_each_fn each)
{
    each_ctx c;
    c.each = each;
    c.ctx = ctx;
    c.thread = thread;
    return p != NULL ? pt_log_each(p->log, thread, &c, each_rec) : 0;
}

int pt_samples_each(pt_samples * p, void * ctx, pt_samples_each_fn each)
{
    size_t i;
    int rc = 0;
    for (i = 0; p != NULL && i < p->nth; i++)
        rc |= pt_samples_each_of(p, (uint32_t) i, ctx, each);
    return rc;
}
