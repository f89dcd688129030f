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
    own benchmarks with the epochs of all workers pooled.

    A worker that crashes, hangs past the time limit or sends a damaged
    record is named with the benchmark it was running; the parent keeps
    the other workers' epochs and prof_bench_finish returns -1. A signal
    that ends the parent (Ctrl-C) ends the running worker first.
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
# include <poll.h>
# include <signal.h>
# include <sys/wait.h>
# include <unistd.h>
# if defined(__linux__)
#  include <sys/prctl.h>
# endif
extern char ** environ;
#endif

#define WORKER_VAR "PROFILER_WORKER"
#define PAD_VAR "PROFILER_WORKER_PAD"

/* ---- the worker side ----------------------------------------------------- */

static int worker_fd = -2;      /* -2: not looked at yet; -1: not a worker */
static int worker_index, worker_count;

static void worker_init(void)
{
    const char * v = getenv(WORKER_VAR);
    char * end;
    long fd, k, n;
    worker_fd = -1;
    if (v == NULL || *v == '\0')
        return;
    fd = strtol(v, &end, 10);
    k = *end == ',' ? strtol(end + 1, &end, 10) : -1;
    n = *end == ',' ? strtol(end + 1, &end, 10) : -1;
    if (*end != '\0' || fd < 3 || k < 0 || n < 1 || k >= n)
    {
        prof_impl_warn("%s=\"%s\" is not a worker marker; running as a "
                       "program of its own", WORKER_VAR, v);
        return;
    }
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

typedef struct
{
    prof_impl_wire_record * recs;   /* EPOCHS and COMPARE, in order */
    size_t n, cap, next;            /* next: where the search starts */
    int failed;                     /* its stream ended badly */
} worker_log;

static struct
{
    int state;              /* 0: not run; 1: ran; -1: could not run */
    int count;
    worker_log * logs;
    int failed;             /* workers that failed, or results missing */
} pool;

int prof_impl_workers_failed(void)
{
    return pool.failed;
}

/* The record of worker w for (suite, index), or NULL. */
static prof_impl_wire_record * find(worker_log * w, int suite, int index)
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
        worker_log * log = &pool.logs[w];
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
        prof_impl_warn("\"%s\": no worker process ran it; no result", name);
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

/* ---- the parent: running the workers ------------------------------------- */

static int saved_argc;
static char ** saved_argv, ** saved_copy;

void prof_impl_workers_argv(int argc, char ** argv)
{
    /* a copy of the array: prof_bench_init moves the caller's words */
    char ** copy = argv ? (char **) malloc(((size_t) argc + 1) * sizeof *copy)
                        : NULL;
    if (copy == NULL)
        return;
    memcpy(copy, argv, (size_t) argc * sizeof *copy);
    copy[argc] = NULL;
    free(saved_copy);
    saved_copy = saved_argv = copy;
    saved_argc = argc;
}

#if defined(_WIN32)
static int run_workers(prof_bench * b)
{
    (void) b;
    prof_impl_warn("worker processes need fork and exec, which Windows "
                   "lacks: running in this process");
    return -1;
}
#else

/* The command line to run again: prof_bench_args's argv, else (Linux)
   /proc/self/cmdline. NULL-terminated; *owned is what to free. */
static char ** command_line(char ** owned)
{
    static char * none[1];
    FILE * f;
    char * text, ** argv;
    size_t n = 0, cap = 0, i, k = 0, count = 0;
    int c;
    *owned = NULL;
    if (saved_argv != NULL && saved_argc > 0)
        return saved_argv;
    if ((f = fopen("/proc/self/cmdline", "rb")) == NULL)
        return NULL;
    text = NULL;
    while ((c = getc(f)) != EOF)
        if (prof_impl_grow(&text, &cap, n + 2, 1) == 0)
            text[n++] = (char) c;
    fclose(f);
    if (text == NULL || n == 0)
    {
        free(text);
        return n == 0 ? none : NULL;
    }
    text[n] = '\0';
    for (i = 0; i < n; i++)
        count += text[i] == '\0';
    argv = (char **) malloc((count + 2) * sizeof *argv);
    if (argv == NULL)
    {
        free(text);
        return NULL;
    }
    for (i = 0; i < n; i += strlen(text + i) + 1)
        argv[k++] = text + i;
    argv[k] = NULL;
    /* one block: the pointers, then the text they point into */
    *owned = text;
    saved_argv = argv;      /* kept for the process's life: later suites */
    saved_argc = (int) k;
    return argv;
}

/* environ without our variables, plus the marker and a padding of len
   bytes (so that each worker's stack starts elsewhere). */
static char ** worker_environ(int fd, int k, int n, size_t pad)
{
    size_t count = 0, i, j = 0;
    char ** env, * marker, * padding;
    while (environ[count] != NULL)
        count++;
    env = (char **) malloc((count + 3) * sizeof *env);
    marker = (char *) malloc(64);
    padding = (char *) malloc(sizeof PAD_VAR + pad + 1);
    if (env == NULL || marker == NULL || padding == NULL)
    {
        free(env); free(marker); free(padding);
        return NULL;
    }
    for (i = 0; i < count; i++)
        if (strncmp(environ[i], WORKER_VAR, sizeof WORKER_VAR - 1) != 0)
            env[j++] = environ[i];
    snprintf(marker, 64, "%s=%d,%d,%d", WORKER_VAR, fd, k, n);
    memcpy(padding, PAD_VAR "=", sizeof PAD_VAR);
    memset(padding + sizeof PAD_VAR, 'x', pad);
    padding[sizeof PAD_VAR + pad] = '\0';
    env[j++] = marker;
    env[j++] = padding;
    env[j] = NULL;
    return env;
}

static void free_environ(char ** env)
{
    size_t n = 0;
    if (env == NULL)
        return;
    while (env[n] != NULL)
        n++;
    free(env[n - 2]);
    free(env[n - 1]);
    free(env);
}

/* A worker while it runs. */
typedef struct
{
    int k, n;               /* worker k of n (from 0) */
    pid_t pid;
    int fd;                 /* the pipe's read end */
    unsigned char * buf;
    size_t len, cap;
    worker_log * log;
    char current[256];      /* the benchmark it said it starts */
    int done_current;       /* ... and sent */
    char problem[160];      /* why its stream was cut, or "" */
} worker;

static volatile sig_atomic_t got_signal;
static volatile pid_t running_pid;

static void on_signal(int sig)
{
    got_signal = sig;
    if (running_pid > 0)
        kill(running_pid, SIGKILL);
}

static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };
enum { NFORWARDED = (int) (sizeof forwarded / sizeof forwarded[0]) };

static void handlers(struct sigaction * old, int install)
{
    struct sigaction sa;
    int i;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (i = 0; i < NFORWARDED; i++)
        if (install)
            sigaction(forwarded[i], &sa, &old[i]);
        else
            sigaction(forwarded[i], &old[i], NULL);
}

/* Take the complete records of w->buf into the log. -1 if one is bad. */
static int take_records(prof_bench * b, worker * w)
{
    size_t used = 0;
    for (;;)
    {
        prof_impl_wire_record r;
        char msg[128];
        long n = prof_impl_wire_decode(w->buf + used, w->len - used, &r, msg,
                                       sizeof msg);
        if (n == 0)
            break;
        if (n < 0)
        {
            snprintf(w->problem, sizeof w->problem, "sent a damaged record "
                     "(%s)", msg);
            return -1;
        }
        used += (size_t) n;
        if (r.type == PROF_IMPL_WIRE_BEGIN)
        {
            char what[300];
            prof_impl_copy(w->current, sizeof w->current, r.name);
            w->done_current = 0;
            snprintf(what, sizeof what, "worker %d/%d: %s", w->k + 1, w->n,
                     r.name);
            prof_impl_progress(b, what, 0, 0);
            prof_impl_wire_free(&r);
        }
        else if (prof_impl_grow(&w->log->recs, &w->log->cap, w->log->n + 1,
                                sizeof r) == 0)
        {
            w->log->recs[w->log->n++] = r;
            w->done_current = 1;
        }
        else
        {
            prof_impl_wire_free(&r);
            snprintf(w->problem, sizeof w->problem, "out of memory");
            return -1;
        }
    }
    memmove(w->buf, w->buf + used, w->len - used);
    w->len -= used;
    return 0;
}

/* Read w's records until its pipe closes, a bad record, the time limit
   without a record, or a signal. */
static void read_worker(prof_bench * b, worker * w, double limit_s)
{
    double last = prof_impl_now_ns();
    for (;;)
    {
        struct pollfd p;
        double left_ms = limit_s * 1e3 - (prof_impl_now_ns() - last) * 1e-6;
        ssize_t got;
        p.fd = w->fd;
        p.events = POLLIN;
        if (got_signal)
            return;
        if (left_ms <= 0.0 || poll(&p, 1, (int) (left_ms < 1e9 ? left_ms + 1 : 1e9)) == 0)
        {
            snprintf(w->problem, sizeof w->problem, "sent nothing for %g s "
                     "(10 x the budget + 10 s): stopped", limit_s);
            kill(w->pid, SIGKILL);
            return;
        }
        if (prof_impl_grow(&w->buf, &w->cap, w->len + 65536, 1) != 0)
        {
            snprintf(w->problem, sizeof w->problem, "out of memory");
            kill(w->pid, SIGKILL);
            return;
        }
        got = read(w->fd, w->buf + w->len, 65536);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return;
        w->len += (size_t) got;
        last = prof_impl_now_ns();
        if (take_records(b, w) != 0)
        {
            kill(w->pid, SIGKILL);
            return;
        }
    }
}

/* What ended w, said once with the benchmark it was running; returns 1 if
   it failed. */
static int judge(worker * w, int status)
{
    char why[200];
    if (w->problem[0] != '\0')
        prof_impl_copy(why, sizeof why, w->problem);
    else if (WIFSIGNALED(status))
        snprintf(why, sizeof why, "was killed by signal %d (%s)",
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    else if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
        snprintf(why, sizeof why, "exited with status %d%s",
                 WEXITSTATUS(status), WEXITSTATUS(status) == 127
                 && w->log->n == 0 ? " (it could not be started)" : "");
    else if (w->len > 0)
        snprintf(why, sizeof why, "ended in the middle of a record");
    else
        return 0;
    if (w->current[0] != '\0' && !w->done_current)
        prof_impl_warn("worker %d of %d (pid %ld) %s while running \"%s\"; "
                       "the other results are kept", w->k + 1, w->n,
                       (long) w->pid, why, w->current);
    else if (w->current[0] == '\0')
        prof_impl_warn("worker %d of %d (pid %ld) %s before its first "
                       "benchmark", w->k + 1, w->n, (long) w->pid, why);
    else
        prof_impl_warn("worker %d of %d (pid %ld) %s after its last "
                       "benchmark; its results are kept", w->k + 1, w->n,
                       (long) w->pid, why);
    w->log->failed = 1;
    return 1;
}

/* The padding of worker k of n: spread over a page (so that each worker's
   stack starts at another offset), or PROFILER_WORKER_PAD_BYTES for all
   (to measure what the spread changes: profile/p-coverage). */
static size_t pad_bytes(int k, int n)
{
    const char * fixed = getenv("PROFILER_WORKER_PAD_BYTES");
    if (fixed != NULL && *fixed != '\0')
    {
        long v = atol(fixed);
        return v > 0 && v <= 65536 ? (size_t) v : 0;
    }
    return (size_t) k * 4096 / (size_t) n;
}

/* Start worker k of n running argv. 0, or -1 after a message. */
static int start_worker(worker * w, const char * path, char ** argv)
{
    int fds[2], devnull;
    char ** env;
    if (pipe(fds) != 0)
    {
        prof_impl_warn("worker processes: pipe: %s", strerror(errno));
        return -1;
    }
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    env = worker_environ(fds[1], w->k, w->n, pad_bytes(w->k, w->n));
    devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    fflush(NULL);
    w->pid = env && devnull >= 0 ? fork() : -1;
    if (w->pid == 0)
    {
#if defined(__linux__)
        prctl(PR_SET_PDEATHSIG, SIGKILL);   /* if the parent dies, so do we */
#endif
        dup2(devnull, 1);                   /* the parent prints the tables */
        execve(path, argv, env);
        _exit(127);
    }
    free_environ(env);
    if (devnull >= 0)
        close(devnull);
    close(fds[1]);
    if (w->pid < 0)
    {
        prof_impl_warn("worker processes: cannot start one: %s",
                       strerror(errno));
        close(fds[0]);
        return -1;
    }
    w->fd = fds[0];
    return 0;
}

static int run_workers(prof_bench * b)
{
    char * owned;
    char ** argv = command_line(&owned);
    const char * path = "/proc/self/exe";
    double limit_s = 10.0 * b->s.budget_s + 10.0;
    struct sigaction old[NFORWARDED];
    int k, n = b->processes;
    (void) owned;           /* kept with argv for the process's life */
#if !defined(__linux__)
    path = argv ? argv[0] : NULL;
#endif
    if (argv == NULL || argv[0] == NULL || path == NULL)
    {
        prof_impl_warn("worker processes: cannot tell how this program was "
                       "started (call prof_bench_args); running in this "
                       "process");
        return -1;
    }
    pool.logs = (worker_log *) calloc((size_t) n, sizeof *pool.logs);
    if (pool.logs == NULL)
        return -1;
    pool.count = n;
    for (k = 0; k < n && !got_signal; k++)
    {
        worker w;
        int status = 0;
        memset(&w, 0, sizeof w);
        w.k = k;
        w.n = n;
        w.log = &pool.logs[k];
        if (start_worker(&w, path, argv) != 0)
        {
            pool.logs[k].failed = pool.failed = 1;
            continue;
        }
        running_pid = w.pid;
        handlers(old, 1);
        read_worker(b, &w, limit_s);
        while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR)
            ;
        running_pid = 0;
        handlers(old, 0);
        close(w.fd);
        if (got_signal)
            raise(got_signal);      /* the worker is reaped: no zombie */
        pool.failed |= judge(&w, status);
        free(w.buf);
    }
    prof_impl_status_clear();
    return 0;
}
#endif

int prof_impl_workers_ready(prof_bench * b)
{
    if (b->processes <= 1 || b->list_only || prof_impl_worker_mode())
        return 0;
    if (pool.state == 0)
        pool.state = run_workers(b) == 0 ? 1 : -1;
    return pool.state == 1;
}

int prof_impl_workers_ready_count(const prof_bench * b)
{
    return b->processes > 1 && pool.state == 1 ? pool.count : 1;
}
