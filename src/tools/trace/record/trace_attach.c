/*
    prof-trace record -p PID[,PID...]: samples running processes and all
    their threads, as perf record -p does: for each thread listed in
    /proc/PID/task, the command's events (one per CPU, inherited by the
    threads it starts from then on, and with --children by its child
    processes), each writing into its CPU's ring (sample_ring.c). A thread
    that none of them started (one made while the threads were listed) is
    found in /proc/PID/task by a look each pass: unknown there twice in a
    row, with no FORK record of the kernel meanwhile, it gets events of its
    own. The mappings are read from /proc/PID/maps once the events run (a
    MAPS2 chunk stamped with the start), then follow the kernel's MMAP2
    records. It stops at --duration, at SIGINT, SIGTERM or SIGHUP (the
    trace written whole, then the same signal ends prof-trace), or when
    every process has ended.
    The access perf_event_open checks is ptrace's read mode (the same user
    and a dumpable process, or CAP_SYS_PTRACE), which Yama's ptrace_scope
    does not restrict; perf_event_paranoid 2 allows a user's own processes
    (user space only, as sampled here), 3 and above (Debian's) none.
    SPDX-License-Identifier: MIT
*/
#include "trace_attach.h"
#include "internal.h"
#include "trace_format.h"
#include "prof_spawn.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct
{
    char state;                 /* R, S, D, Z (ended, not reaped), ... */
    unsigned long ppid;
    unsigned long long start;   /* clock ticks after boot */
    char comm[64];
} proc_stat;

/* /proc/PID/stat (tid 0) or /proc/PID/task/TID/stat into *s: 0, or an
   errno (ENOENT: no such process). */
static int read_stat(long pid, long tid, proc_stat * s)
{
    char path[96], text[1024], * close_paren;
    FILE * f;
    size_t n;
    if (tid != 0)
        snprintf(path, sizeof path, "/proc/%ld/task/%ld/stat", pid, tid);
    else
        snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    if ((f = fopen(path, "r")) == NULL)
        return errno;
    n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    /* pid (comm) state ppid ... field 22, starttime; comm may hold ") " */
    if ((close_paren = strrchr(text, ')')) == NULL || strchr(text, '(') == NULL
        || sscanf(close_paren + 1, " %c %lu %*s %*s %*s %*s %*s %*s %*s %*s %*s "
                  "%*s %*s %*s %*s %*s %*s %*s %llu", &s->state, &s->ppid,
                  &s->start) != 3)
        return EINVAL;
    n = (size_t) (close_paren - strchr(text, '(') - 1);
    n = n < sizeof s->comm - 1 ? n : sizeof s->comm - 1;
    memcpy(s->comm, strchr(text, '(') + 1, n);
    s->comm[n] = '\0';
    return 0;
}

static int ended(const proc_stat * s)
{
    return s->state == 'Z' || s->state == 'X' || s->state == 'x';
}

/* ---- the plan: -p's list ----------------------------------------------------- */

static long pid_of(const char * w, size_t n)
{
    long v = 0;
    size_t i;
    for (i = 0; i < n; i++)
    {
        if (w[i] < '0' || w[i] > '9' || v > (INT_MAX - 9) / 10)
            return -1;
        v = v * 10 + (w[i] - '0');
    }
    return n > 0 && v > 0 ? v : -1;
}

/* One word of -p's list into p: 0, or 2 after a message. */
static int plan_one(pt_attach_plan * p, size_t * cap, const char * list,
                    const char * w, size_t n)
{
    long pid = pid_of(w, n);
    proc_stat s;
    size_t i;
    int e;
    if (pid < 0)
        return prof_impl_warn(PROGRAM ": -p %s: '%.*s' is no process id (a whole "
                              "number > 0; several: PID,PID)", list, (int) n, w), 2;
    if ((e = read_stat(pid, 0, &s)) == ENOENT)
        return prof_impl_warn(PROGRAM ": -p %ld: no such process (ESRCH): "
                              "a running process's id is in ps -e or pgrep "
                              "NAME", pid), 2;
    if (e != 0)
        return prof_impl_warn(PROGRAM ": -p %ld: /proc/%ld/stat: %s", pid, pid,
                              strerror(e)), 2;
    for (i = 0; i < p->n && p->t[i].pid != pid; i++)
        ;
    if (i < p->n) /* a process named twice is sampled once */
        return 0;
    if (prof_impl_grow(&p->t, cap, p->n + 1, sizeof *p->t) != 0)
        return prof_impl_warn(PROGRAM ": out of memory"), 2;
    memset(&p->t[p->n], 0, sizeof *p->t);
    p->t[p->n].pid = pid;
    p->t[p->n++].start = s.start;
    return 0;
}

int pt_attach_parse(pt_attach_plan * p, const char * list)
{
    const char * w = list;
    size_t cap = 0;
    memset(p, 0, sizeof *p);
    for (;;)
    {
        size_t n = strcspn(w, ",");
        if (plan_one(p, &cap, list, w, n) != 0)
        {
            pt_attach_plan_free(p);
            return 2;
        }
        if (w[n] == '\0')
            return 0;
        w += n + 1;
    }
}

void pt_attach_plan_free(pt_attach_plan * p)
{
    free(p->t);
    memset(p, 0, sizeof *p);
}

/* ---- threads ---------------------------------------------------------------- */

typedef struct
{
    long * v;
    size_t n, cap;
} tid_set;

typedef struct
{
    recorder * r;
    pt_attach_plan * p;
    tid_set known;              /* threads with events: opened, or started by
                                   one that has them (a FORK record) */
    tid_set maybe;              /* seen without events by the last look */
    tid_set seen;               /* what a look saw */
    int oom, follow_warned;
} attacher;

static void tid_add(attacher * a, tid_set * s, long tid)
{
    if (prof_impl_grow(&s->v, &s->cap, s->n + 1, sizeof *s->v) != 0)
        a->oom = 1;
    else
        s->v[s->n++] = tid;
}

static int tid_cmp(const void * x, const void * y)
{
    long a = *(const long *) x, b = *(const long *) y;
    return (a > b) - (a < b);
}

static void tid_sort(tid_set * s)
{
    if (s->n > 1)
        qsort(s->v, s->n, sizeof *s->v, tid_cmp);
}

static int tid_has(const tid_set * s, long tid)
{
    return s->n > 0 && bsearch(&tid, s->v, s->n, sizeof *s->v, tid_cmp) != NULL;
}

/* The threads of pid now (/proc/PID/task) into a->seen (emptied first): 0,
   or an errno (ENOENT: the process has ended). */
static int list_threads(attacher * a, long pid)
{
    char path[64];
    DIR * d;
    struct dirent * e;
    snprintf(path, sizeof path, "/proc/%ld/task", pid);
    a->seen.n = 0;
    if ((d = opendir(path)) == NULL)
        return errno;
    while ((e = readdir(d)) != NULL)
    {
        long tid = pid_of(e->d_name, strlen(e->d_name));
        if (tid > 0)
            tid_add(a, &a->seen, tid);
    }
    closedir(d);
    tid_sort(&a->seen);
    return 0;
}

/* FORK: a thread started by one with events has them (recorder.forked). */
static void on_forked(void * ctx, uint32_t pid, uint32_t tid)
{
    attacher * a = (attacher * ) ctx;
    (void) pid;
    tid_add(a, &a->known, (long) tid);
}

/* Events on thread tid (the first one opens the rings, enabled at once so
   that a thread it starts is known by its FORK record): 0 or an errno. */
static int open_thread(attacher * a, long tid)
{
    recorder * r = a->r;
    int e;
    if (r->opened)
        return prof_impl_sample_rings_follow(&r->rings, tid);
    if ((e = prof_impl_sample_rings_attach(&r->rings, r->hz, tid, r->children, r->cg)) == 0)
    {
        r->opened = 1;
        prof_impl_sample_rings_enable(&r->rings, 1);
    }
    return e;
}

/* Whether t still runs: its leader, or another thread when the leader has
   ended alone (pthread_exit). */
static int alive(attacher * a, pt_target * t)
{
    proc_stat s;
    if (read_stat(t->pid, 0, &s) != 0 || s.start != t->start)
        return 0;
    if (!ended(&s))
        return 1;
    return list_threads(a, t->pid) == 0 && (a->seen.n > 1
                                            || (a->seen.n == 1 && a->seen.v[0] != t->pid));
}

/* ---- refusals ----------------------------------------------------------------- */

/* Why perf_event_open said e for process pid, and the way out. */
static void say_refused(long pid, int e)
{
    char path[64], why[512];
    struct stat st;
    int paranoid = prof_impl_perf_paranoid();
    unsigned process = prof_impl_why_process();
    snprintf(path, sizeof path, "/proc/%ld", pid);
    if ((e == EACCES || e == EPERM) && !(process & PROF_IMPL_WHY_SECCOMP)
        && (paranoid < 3 || geteuid() == 0) && stat(path, &st) == 0)
    {
        if (st.st_uid != geteuid())
            prof_impl_warn(PROGRAM ": -p %ld: may not trace it (%s): it belongs to "
                           "uid %lu, this is uid %lu; perf events on another process "
                           "need ptrace's read access to it (its user, or "
                           "CAP_SYS_PTRACE: root), whatever ptrace_scope says; "
                           "perf_event_paranoid is %d (2 allows a user's own "
                           "processes): run as its user or as root", pid, strerror(e),
                           (unsigned long) st.st_uid, (unsigned long) geteuid(), paranoid);
        else
            prof_impl_warn(PROGRAM ": -p %ld: may not trace it (%s) although it is "
                           "this user's: it is not dumpable (set-uid or set-gid, or "
                           "prctl PR_SET_DUMPABLE 0) or in another user namespace; "
                           "perf_event_paranoid is %d: run as root (CAP_SYS_PTRACE)",
                           pid, strerror(e), paranoid);
        return;
    }
    prof_impl_counters_reason(why, sizeof why, e, process, paranoid);
    prof_impl_warn(PROGRAM ": -p %ld: perf events refused (%s): %s; another process "
                   "cannot be sampled without them (no fallback)", pid, strerror(e), why);
}

/* ---- attach --------------------------------------------------------------------- */

/* Events on every thread of t (a PROCESS chunk for each), t->sampled if
   one was opened: 0, or -1 after a message (refused). */
static int attach_process(attacher * a, pt_target * t)
{
    recorder * r = a->r;
    proc_stat s;
    size_t i;
    if (!alive(a, t) || read_stat(t->pid, 0, &s) != 0 || list_threads(a, t->pid) != 0)
        return 0; /* ended (or gone, its id reused) since the plan */
    for (i = 0; i < a->seen.n; i++)
    {
        long tid = a->seen.v[i];
        proc_stat ts;
        int e;
        if (read_stat(t->pid, tid, &ts) != 0 || ended(&ts))
            continue;
        if ((e = open_thread(a, tid)) == ESRCH)
            continue; /* it has just ended */
        if (e != 0)
        {
            say_refused(t->pid, e);
            return -1;
        }
        if (!t->sampled)
            /* not its parent (0): a fork record would give it the
               parent's mappings, which it may have replaced */
            pt_rec_process(r, (uint32_t) tid, r->ns0, (uint32_t) t->pid, 0,
                           PROF_TF_PROC_START, s.comm);
        pt_rec_process(r, (uint32_t) tid, r->ns0, (uint32_t) t->pid, 0,
                       PROF_TF_PROC_THREAD, "");
        tid_add(a, &a->known, tid);
        if (!t->sampled)
            t->sampled = tid;
    }
    return 0;
}

/* The mappings of process pid as a MAPS2 chunk stamped with the start
   (the events ran before they were read: a later change is in their MMAP2
   records too), read through its thread tid (/proc/PID/maps is empty
   once the main thread has ended). */
static void put_maps(recorder * r, long pid, long tid)
{
    char path[96];
    size_t len = 0;
    char * text = NULL;
    FILE * f;
    snprintf(path, sizeof path, "/proc/%ld/task/%ld/maps", pid, tid);
    if ((f = fopen(path, "r")) != NULL)
    {
        text = prof_impl_read_all(f, &len, (size_t) 1 << 28);
        fclose(f);
    }
    if (text == NULL)
    {
        prof_impl_warn(PROGRAM ": -p %ld: %s: %s: its functions are left unnamed",
                       pid, path, strerror(errno));
        return;
    }
    {
        uint64_t * p = (uint64_t *) calloc(1, 16 + len + 8);
        uint32_t flags[2] = { 0, 0 };
        if (p != NULL)
        {
            p[0] = r->ns0 & PROF_TF_TICK_MASK;
            memcpy(p + 1, flags, 8);
            memcpy(p + 2, text, len);
            pt_rec_put(r, PROF_TF_MAPS2, (uint32_t) pid, p, 16 + (len + 7) / 8 * 8);
            free(p);
        }
    }
    free(text);
}

/* ---- while sampling ----------------------------------------------------------- */

/* A look at each live process's threads: one without events that the last
   look saw too gets its own (no FORK record came in between: not started
   by a thread with events). known keeps only the threads seen. */
static void follow_new(attacher * a)
{
    tid_set keep = { NULL, 0, 0 }, next = { NULL, 0, 0 };
    size_t k, i;
    tid_sort(&a->known);
    tid_sort(&a->maybe);
    for (k = 0; k < a->p->n; k++)
    {
        pt_target * t = &a->p->t[k];
        if (t->gone || list_threads(a, t->pid) != 0)
            continue;
        for (i = 0; i < a->seen.n; i++)
        {
            long tid = a->seen.v[i];
            int e;
            if (tid_has(&a->known, tid))
                tid_add(a, &keep, tid);
            else if (!tid_has(&a->maybe, tid))
                tid_add(a, &next, tid);
            else if ((e = open_thread(a, tid)) == 0)
            {
                tid_add(a, &keep, tid);
                pt_rec_process(a->r, (uint32_t) tid, pt_rec_now_ns(), (uint32_t) t->pid,
                               0, PROF_TF_PROC_THREAD, "");
            }
            else if (e != ESRCH && !a->follow_warned)
            {
                a->follow_warned = 1;
                prof_impl_warn(PROGRAM ": -p %ld: thread %ld not followed (%s): its "
                               "samples are missing", t->pid, tid, strerror(e));
            }
        }
    }
    free(a->known.v);
    free(a->maybe.v);
    a->known = keep;
    a->maybe = next;
}

/* Sample until the end (see the top). Returns the signal, or 0. */
static int watch(attacher * a)
{
    recorder * r = a->r;
    uint64_t end = a->p->duration_s > 0 ? r->ns0 + (uint64_t) (a->p->duration_s * 1e9)
                                        : UINT64_MAX;
    for (;;)
    {
        uint64_t now = pt_rec_now_ns();
        size_t k, live = 0;
        int sig;
        if (now >= end)
            return 0;
        pt_rec_poll(r, end - now < (uint64_t) SAMPLE_POLL_MS * 1000000
                       ? (int) ((end - now) / 1000000) + 1 : SAMPLE_POLL_MS);
        if ((sig = prof_spawn_held()) != 0)
            return sig;
        for (k = 0; k < a->p->n; k++)
        {
            pt_target * t = &a->p->t[k];
            if (!t->gone && !(t->gone = !alive(a, t)))
                live++;
        }
        if (live == 0)
            return 0;
        follow_new(a);
    }
}

/* ---- the run ------------------------------------------------------------------- */

/* The soft limit on open files raised to the hard one: each thread takes
   a file descriptor per CPU (as perf record does). */
static void more_files(void)
{
    struct rlimit l;
    if (getrlimit(RLIMIT_NOFILE, &l) == 0 && l.rlim_cur < l.rlim_max)
    {
        l.rlim_cur = l.rlim_max;
        (void) setrlimit(RLIMIT_NOFILE, &l);
    }
}

/* What was attached, said once; 1 if anything was. */
static int say_attached(const pt_attach_plan * p, size_t nthreads)
{
    char list[256] = "";
    size_t k, len = 0, sampled = 0;
    for (k = 0; k < p->n; k++)
        if (p->t[k].sampled)
        {
            sampled++;
            if (len + 24 < sizeof list)
                len += (size_t) snprintf(list + len, sizeof list - len, "%s%ld",
                                         len > 0 ? "," : "", p->t[k].pid);
        }
        else
            prof_impl_warn(PROGRAM ": -p %ld: the process ended as it was attached "
                           "(it is gone, or a zombie its parent has not reaped): "
                           "nothing of it is sampled", p->t[k].pid);
    if (sampled == 0)
        prof_impl_warn(PROGRAM ": no process of -p could be sampled: the trace, "
                       "written, holds none of their samples");
    else
        fprintf(stderr, PROGRAM ": sampling %s %s (%zu thread%s) until %s\n",
                sampled > 1 ? "processes" : "process", list, nthreads,
                nthreads == 1 ? "" : "s",
                p->duration_s > 0 ? "--duration, Ctrl-C or its end"
                                  : "Ctrl-C or its end");
    return sampled > 0;
}

int pt_attach_run(recorder * r, pt_attach_plan * p, int * sig)
{
    attacher a;
    size_t k;
    int rc = 0;
    memset(&a, 0, sizeof a);
    a.r = r;
    a.p = p;
    r->forked = on_forked;
    r->forked_ctx = &a;
    *sig = 0;
    prof_spawn_hold(); /* a signal from here on: the trace written, then it */
    more_files();
    r->ns0 = pt_rec_now_ns();
    pt_rec_header(r, (uint32_t) p->t[0].pid, r->ns0);
    for (k = 0; k < p->n && rc == 0; k++)
        rc = attach_process(&a, &p->t[k]);
    if (rc != 0 || a.oom)
    {
        if (a.oom)
            prof_impl_warn(PROGRAM ": out of memory");
        prof_impl_sample_rings_close(&r->rings);
        r->keep = 0;
        rc = 2;
    }
    else
    {
        for (k = 0; k < p->n; k++)
            if (p->t[k].sampled)
                put_maps(r, p->t[k].pid, p->t[k].sampled);
            else
                p->t[k].gone = 1;
        rc = say_attached(p, a.known.n) ? 0 : 2;
        if (rc == 0)
            *sig = watch(&a);
        prof_impl_sample_rings_enable(&r->rings, 0);
        pt_rec_drain(r, 1);
        /* no signal in the end record: the processes were not ended by it */
        pt_rec_end(r, prof_impl_sample_rings_close(&r->rings), 0);
        r->keep = 1;
    }
    free(a.known.v);
    free(a.maybe.v);
    free(a.seen.v);
    r->forked = NULL;
    return rc;
}
