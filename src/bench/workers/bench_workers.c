/*
    Worker processes (prof_bench_set_processes): each process differs in
    address-space layout, environment size and code placement, so one
    process's epochs say little about the next run. With n processes the
    program re-executes itself n times, one after another (Linux:
    /proc/self/exe; elsewhere argv[0]), with the same arguments, a marker in
    the environment and an environment of a different size each time. A
    worker runs the whole program as usual but writes no output: it sends
    every benchmark's epochs over a pipe (bench_wire.c). The parent runs
    the workers when its first benchmark starts, then answers each of its
    own benchmarks with the epochs of all workers pooled. This file is the
    worker's side and the pooling; bench_procs.c runs the workers.

    A worker that fails is named (bench_procs.c); the parent keeps the
    other workers' epochs and prof_bench_finish returns -1.
    SPDX-License-Identifier: MIT
*/
#include "bench.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if !defined(_WIN32)
# include <fcntl.h>
# include <sys/stat.h>
# include <unistd.h>
#endif

#define WORKER_VAR PROF_IMPL_WORKER_VAR

/* ---- the worker side ----------------------------------------------------- */

static int worker_fd = -2;      /* -2: not looked at yet; -1: not a worker */
static int worker_index, worker_count;

/* Why the marker's fd and parent pid cannot be this worker's (into why),
   or 0 when they can: the parent that started this process, and a pipe
   open for writing. A marker left in an environment (a shell, a process
   that a worker started) names a closed descriptor, or another process's
   pipe, or another parent. */
static int stale(long fd, long parent, char * why, size_t size)
{
#if !defined(_WIN32)
    struct stat st;
    int flags = fd <= INT_MAX ? fcntl((int) fd, F_GETFL) : -1;
    if ((long) getppid() != parent)
        snprintf(why, size, "it names process %ld as the parent, and this "
                 "process's parent is %ld", parent, (long) getppid());
    else if (flags < 0)
        snprintf(why, size, "descriptor %ld is not open", fd);
    else if ((flags & O_ACCMODE) == O_RDONLY
             || fstat((int) fd, &st) != 0 || !S_ISFIFO(st.st_mode))
        snprintf(why, size, "descriptor %ld is not a pipe open for writing",
                 fd);
    else
        return 0;
    return 1;
#else
    (void) fd;
    (void) parent;
    snprintf(why, size, "Windows has no worker processes");
    return 1;
#endif
}

static void worker_init(void)
{
    const char * v = getenv(WORKER_VAR);
    char * end, why[160];
    long fd, k, n, parent;
    worker_fd = -1;
    if (v == NULL || *v == '\0')
        return;
    fd = strtol(v, &end, 10);
    k = *end == ',' ? strtol(end + 1, &end, 10) : -1;
    n = *end == ',' ? strtol(end + 1, &end, 10) : -1;
    parent = *end == ',' ? strtol(end + 1, &end, 10) : -1;
    if (*end != '\0' || fd < 3 || k < 0 || n < 1 || k >= n || parent < 1)
    {
        prof_impl_warn("%s=\"%s\" is not a worker marker; running as a "
                       "program of its own", WORKER_VAR, v);
        return;
    }
    if (stale(fd, parent, why, sizeof why))
    {
        prof_impl_warn("%s=\"%s\" is a stale worker marker (%s); running as "
                       "a program of its own", WORKER_VAR, v, why);
        return;
    }
#if !defined(_WIN32)
    /* it survived this program's exec; the processes it starts must not
       hold it open (the parent would wait for them) */
    (void) fcntl((int) fd, F_SETFD, fcntl((int) fd, F_GETFD) | FD_CLOEXEC);
#endif
    worker_fd = (int) fd;
    worker_index = (int) k;
    worker_count = (int) n;
}

int prof_impl_worker_mode(void)
{
    if (worker_fd == -2)
        worker_init();
    return worker_fd >= 0;
}

#if !defined(_WIN32)
static void worker_write(const prof_impl_wire_record * r)
{
    unsigned char * buf;
    size_t len, done = 0;
    if (prof_impl_wire_encode(r, &buf, &len) != 0)
    {
        prof_impl_warn("worker %d of %d: out of memory; stopping",
                       worker_index + 1, worker_count);
        _exit(3);
    }
    while (done < len)
    {
        ssize_t w = write(worker_fd, buf + done, len - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(3);       /* the parent is gone: nobody wants the rest */
        done += (size_t) w;
    }
    free(buf);
}
#else
static void worker_write(const prof_impl_wire_record * r)
{
    (void) r;
}
#endif

void prof_impl_worker_begin(const prof_bench * b, int index, const char * name)
{
    static int last_suite = -1, last_index = -1;
    prof_impl_wire_record r;
    if (!prof_impl_worker_mode()
        || (b->suite_number == last_suite && index == last_index))
        return;
    last_suite = b->suite_number;
    last_index = index;
    memset(&r, 0, sizeof r);
    r.type = PROF_IMPL_WIRE_BEGIN;
    r.suite = b->suite_number;
    r.index = index;
    r.name = (char *) name;
    worker_write(&r);
}

void prof_impl_worker_send(const prof_bench * b, int index,
        const prof_impl_epochs * a, const prof_impl_epochs * bside)
{
    prof_impl_wire_record r;
    if (!prof_impl_worker_mode())
        return;
    memset(&r, 0, sizeof r);
    r.type = bside ? PROF_IMPL_WIRE_COMPARE : PROF_IMPL_WIRE_EPOCHS;
    r.suite = b->suite_number;
    r.index = index;
    r.a = *a;
    if (bside)
        r.b = *bside;
    worker_write(&r);
}

/* ---- the parent: what the workers sent ----------------------------------- */

static struct
{
    int state;              /* 0: not run; 1: ran; -1: could not run */
    int count;
    prof_impl_worker_log * logs;
    int failed;             /* workers that failed, or results missing */
} pool;

int prof_impl_workers_failed(void)
{
    return pool.failed;
}

/* The record of worker w for (suite, index), or NULL. */
static prof_impl_wire_record * find(prof_impl_worker_log * w, int suite, int index)
{
    size_t i;
    for (i = w->next; i < w->n; i++)
        if (w->recs[i].suite == suite && w->recs[i].index == index)
        {
            w->next = i + 1;
            return &w->recs[i];
        }
    return NULL;
}

/* Whether a table of rows x cols doubles, and one more, has a size_t
   size (as the pooled tables need; on 32 bits they can pass it). */
static int table_fits(size_t rows, size_t cols)
{
    return cols == 0 || rows <= (SIZE_MAX / sizeof(double) - 1) / cols;
}

/* The user columns of src appended to dst's got epochs (src's columns
   matched by name; one dst lacks becomes a new column, NaN in dst's
   epochs, as a column src lacks is in its epochs). 0, or -1 out of
   memory (dst unchanged). */
static int append_user(prof_impl_epochs * dst, int got,
        const prof_impl_epochs * src)
{
    int map[PROF_IMPL_USER_COLS], k, j, nu = dst->nuser;
    size_t rows = (size_t) got + (size_t) src->got, i, cells;
    double * v;
    for (k = 0; k < src->nuser; k++)
    {
        for (j = 0; j < nu; j++)
            if (strcmp(dst->user_cols[j].name, src->user_cols[k].name) == 0)
                break;
        if (j == nu && nu == PROF_IMPL_USER_COLS)
            j = -1;             /* no room: left out */
        else if (j == nu)
            dst->user_cols[nu++] = src->user_cols[k];
        map[k] = j;
    }
    if (nu == 0)
        return 0;
    /* sizes and indexes in size_t: rows x nu can pass INT_MAX */
    if (!table_fits(rows, (size_t) nu))
        return -1;
    cells = rows * (size_t) nu;
    v = (double *) malloc(cells * sizeof *v);
    if (v == NULL)
        return -1;
    for (i = 0; i < cells; i++)
        v[i] = NAN;
    for (i = 0; i < (size_t) got; i++)
        for (j = 0; j < dst->nuser; j++)
            v[i * (size_t) nu + (size_t) j]
                = dst->user[i * (size_t) dst->nuser + (size_t) j];
    for (i = 0; i < (size_t) src->got; i++)
        for (k = 0; k < src->nuser; k++)
            if (map[k] >= 0)
                v[((size_t) got + i) * (size_t) nu + (size_t) map[k]]
                    = src->user[i * (size_t) src->nuser + (size_t) k];
    free(dst->user);
    dst->user = v;
    dst->nuser = nu;
    dst->user_dropped |= src->user_dropped;
    return 0;
}

int prof_impl_workers_append(prof_impl_epochs * dst,
        const prof_impl_epochs * src, int p)
{
    size_t n = (size_t) dst->got + (size_t) src->got, i;
    double * s, * c, * ev = NULL;
    ulong * it;
    int * pr;
    /* the count is an int, and every table must have a size: refused
       before anything is allocated */
    if (n > (size_t) INT_MAX || !table_fits(n, (size_t) src->nev)
        || !table_fits(n, PROF_IMPL_USER_COLS))
        return -1;
    s = (double *) realloc(dst->samples, (n + 1) * sizeof *s);
    c = s ? (double *) realloc(dst->cpu, (n + 1) * sizeof *c) : NULL;
    it = c ? (ulong *) realloc(dst->iters, (n + 1) * sizeof *it) : NULL;
    pr = it ? (int *) realloc(dst->process, (n + 1) * sizeof *pr) : NULL;
    if (s) dst->samples = s;
    if (c) dst->cpu = c;
    if (it) dst->iters = it;
    if (pr) dst->process = pr;
    if (pr && src->nev > 0)
    {
        ev = (double *) realloc(dst->ev, (n * (size_t) src->nev + 1) * sizeof *ev);
        if (ev != NULL)
            dst->ev = ev;
    }
    if (pr == NULL || (src->nev > 0 && ev == NULL)
        || append_user(dst, dst->got, src) != 0)
        return -1;
    memcpy(dst->samples + dst->got, src->samples, (size_t) src->got * sizeof *s);
    memcpy(dst->cpu + dst->got, src->cpu, (size_t) src->got * sizeof *c);
    memcpy(dst->iters + dst->got, src->iters, (size_t) src->got * sizeof *it);
    for (i = (size_t) dst->got; i < n; i++)
        dst->process[i] = p;
    if (src->nev > 0)
        memcpy(dst->ev + (size_t) dst->got * (size_t) src->nev, src->ev,
               (size_t) src->got * (size_t) src->nev * sizeof *ev);
    dst->got = (int) n;
    dst->spent_ns += src->spent_ns;
    dst->net_ns_sum += src->net_ns_sum;
    dst->low_epochs += src->low_epochs;
    dst->preempted += src->preempted;
    dst->cpu_timed += src->cpu_timed;
    dst->at_max_iters |= src->at_max_iters;
    dst->budget_hit |= src->budget_hit;
    dst->load = fmax(dst->load, src->load);     /* NaN: unknown */
    return 0;
}

/* Whether two workers ran the same benchmark: name and events. */
static int same_run(const prof_impl_epochs * a, const prof_impl_epochs * b)
{
    return strcmp(a->name, b->name) == 0 && a->nev == b->nev
        && memcmp(a->ev_names, b->ev_names, (size_t) a->nev * sizeof a->ev_names[0]) == 0;
}

/* Pool side k (0: a, 1: b) of the records of (suite, index) into out; the
   first record found sets the name, settings and events. Returns the
   number of workers pooled. */
static int pool_side(int suite, int index, int type, int k,
        const char * want, prof_impl_epochs * out, double * overheads)
{
    int w, got = 0;
    memset(out, 0, sizeof *out);
    out->load = NAN;
    for (w = 0; w < pool.count; w++)
    {
        prof_impl_worker_log * log = &pool.logs[w];
        prof_impl_wire_record * r = find(log, suite, index);
        prof_impl_epochs * e = r ? (k ? &r->b : &r->a) : NULL;
        if (e == NULL || r->type != type || strcmp(e->name, want) != 0
            || (got > 0 && !same_run(out, e)))
        {
            if (e != NULL && !log->failed)
                prof_impl_warn("worker %d of %d ran \"%s\" as its benchmark "
                               "%d, not \"%s\": the program's benchmarks "
                               "differ between runs; its epochs are left out",
                               w + 1, pool.count, e->name, index + 1, want);
            if (e != NULL)
                log->failed = 1;
            out->failed++;
            continue;
        }
        if (got == 0)
        {
            out->name = e->name;
            out->s = e->s;
            out->nev = e->nev;
            memcpy(out->ev_names, e->ev_names, sizeof out->ev_names);
        }
        if (prof_impl_workers_append(out, e, got) != 0)
        {
            prof_impl_warn("\"%s\": too many epochs or out of memory pooling "
                           "the workers", want);
            out->failed++;
            continue;
        }
        overheads[got++] = e->overhead_ns;
    }
    out->processes = got;
    out->overhead_ns = got > 0 ? prof_impl_median(overheads, got) : 0.0;
    if (out->failed > 0)
        pool.failed = 1;
    return got;
}

int prof_impl_workers_take(prof_bench * b, int index, const char * name,
        prof_impl_epochs * e)
{
    double * oh = (double *) malloc(((size_t) pool.count + 1) * sizeof *oh);
    int got = oh ? pool_side(b->suite_number, index, PROF_IMPL_WIRE_EPOCHS,
                             0, name, e, oh) : 0;
    free(oh);
    if (got == 0)
    {
        if (!prof_impl_interrupt_signal)    /* else the run ends here */
            prof_impl_warn("\"%s\": no worker process ran it; no result",
                           name);
        prof_impl_epochs_free(e);
        pool.failed = 1;
        return -1;
    }
    e->name = name;     /* the pool's copy goes with the records */
    e->is_baseline = b->relative_next;
    return 0;
}

int prof_impl_workers_take_compare(prof_bench * b, int index,
        const char * name_a, const char * name_b, prof_impl_epochs * a,
        prof_impl_epochs * bside)
{
    double * oh = (double *) malloc(((size_t) pool.count + 1) * sizeof *oh);
    size_t * next = (size_t *) malloc(((size_t) pool.count + 1) * sizeof *next);
    int w, ga = 0, gb = 0;
    if (oh != NULL && next != NULL)
    {
        /* both sides come from the same records: search them twice */
        for (w = 0; w < pool.count; w++)
            next[w] = pool.logs[w].next;
        ga = pool_side(b->suite_number, index, PROF_IMPL_WIRE_COMPARE, 0,
                       name_a, a, oh);
        for (w = 0; w < pool.count; w++)
            pool.logs[w].next = next[w];
        gb = pool_side(b->suite_number, index, PROF_IMPL_WIRE_COMPARE, 1,
                       name_b, bside, oh);
    }
    free(oh);
    free(next);
    if (ga == 0 || ga != gb)
    {
        prof_impl_warn("compare \"%s\" / \"%s\": the worker processes did "
                       "not all run it; nothing compared", name_a, name_b);
        prof_impl_epochs_free(a);
        prof_impl_epochs_free(bside);
        pool.failed = 1;
        return -1;
    }
    a->name = name_a;
    bside->name = name_b;
    return 0;
}

int prof_impl_workers_ready(prof_bench * b)
{
    if (b->processes <= 1 || b->list_only || prof_impl_worker_mode())
        return 0;
    if (pool.state == 0)
    {
        int ran, k;
        size_t i;
        pool.logs = (prof_impl_worker_log *) calloc((size_t) b->processes,
                                                    sizeof *pool.logs);
        ran = pool.logs == NULL ? -1 : prof_impl_workers_run(b, pool.logs,
                                              b->processes, &pool.failed);
        /* interrupted: the workers that ran to the end are the pool */
        for (k = ran > 0 ? ran : 0; pool.logs != NULL && k < b->processes; k++)
        {
            for (i = 0; i < pool.logs[k].n; i++)
                prof_impl_wire_free(&pool.logs[k].recs[i]);
            free(pool.logs[k].recs);
        }
        pool.count = ran > 0 ? ran : 0;
        pool.state = ran > 0 ? 1 : -1;
    }
    return pool.state == 1;
}

int prof_impl_workers_ready_count(const prof_bench * b)
{
    return b->processes > 1 && pool.state == 1 ? pool.count : 1;
}
