/*
    Where the next run lands: the run-to-run history.

    One process's epochs show the speeds the machine ran at while they
    ran; a shared machine's speed moves in steps that outlast a run
    (doc/runner.md, "What the interval means"), so the next run's median
    can land anywhere among them. No run sees that from inside. The
    history does: after each run the median of every benchmark goes into a
    small file (one per user and machine), and a later run of the same
    build learns the change between consecutive runs, d = ln(median /
    previous median). The next-run interval is this run's median times
    exp(+-h), h a prediction half-width of those changes: with 19 or more
    of the benchmark's own, their order statistic; with fewer, Student's
    t over them, shrunk towards the pool of every benchmark's changes
    of this program with the same number of processes (the machine's
    speed steps move them all), so that a benchmark or a build new to the
    program gets the program's figure from its first run.

    The file: a first line "profiler-history 1", a "machine" line, then one
    line per benchmark: "b PROG BUILD BENCH PROCESSES WHEN MEDIAN_NS N D..."
    (hashes in hex, WHEN in seconds since 1970, at most HIST_KEEP changes,
    oldest first). Anything else is damage: the file is then ignored, said
    once, and written anew. It is read when a suite's first result is made
    and written whole (outfile.c) by prof_bench_finish, read again just
    before so that other programs' lines are kept.
    SPDX-License-Identifier: MIT
*/
#include "history.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#if !defined(_WIN32)
# include <sys/stat.h>
# include <unistd.h>
#endif

#define HIST_MAGIC "profiler-history 1"
#define HIST_KEEP 32        /* changes kept per benchmark, the newest */
#define HIST_ENTRIES 1024   /* benchmarks kept per file, the newest runs */
#define HIST_PRIOR 4        /* the program pool's weight, in changes */

typedef struct
{
    unsigned long long prog, build, bench;
    int processes;
    long long when;         /* its last run [s since 1970] */
    double median_ns;       /* its last run's median */
    int nd;
    double d[HIST_KEEP];    /* ln(median / previous median), oldest first */
} hist_entry;

struct prof_impl_history
{
    char * path;            /* the file, or NULL: off */
    char machine[300];
    unsigned long long prog, build;     /* this program, this build */
    hist_entry * e;
    int n;
    size_t cap;
    int build_said;
};

/* ---- the model (pure) ---------------------------------------------------- */

/* Student's t quantile at 0.975 for df degrees of freedom (df >= 1): a
   table to 30, then the Cornish-Fisher series in 1/df (within 0.1%). */
static double t975(int df)
{
    static const double t[30] = {
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262,
        2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093,
        2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045,
        2.042 };
    double z = 1.959964, v = df;
    if (df <= 30)
        return t[df < 1 ? 0 : df - 1];
    return z + (z * z * z + z) / (4.0 * v)
             + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96.0 * v * v);
}

/* The prediction bound of the next |change| from n past ones, |x| sorted
   into work: the k-th smallest, k = ceil(0.95 (n + 1)), which a new
   exchangeable change passes with probability at most 5% whatever their
   distribution; NaN under HIST_EXACT changes (k would pass n). */
#define HIST_EXACT 19
static double order_bound(const double * x, int n, double * work)
{
    int i, k = (int) ceil(PROF_CI_LEVEL * (n + 1) - 1e-9);
    if (n < HIST_EXACT)
        return NAN;
    for (i = 0; i < n; i++)
        work[i] = fabs(x[i]);
    prof_impl_sort(work, n);
    return work[(k > n ? n : k) - 1];
}

double prof_impl_next_halfwidth(const double * own, int nown,
        const double * pool, int npool, double * work)
{
    double own_ss = 0.0, pool_ms = 0.0, k, h;
    int i;
    /* enough of its own: distribution-free. Only its own: on a busy
       machine a memory-bound benchmark's median moves by 40% from one run
       to the next where a chain of multiplies moves by 1.5%. */
    if (!isnan(h = order_bound(own, nown, work)))
        return h;
    /* fewer: Student's t, the own changes shrunk towards the pool's mean
       square (a new benchmark starts from the program's spread) */
    for (i = 0; i < nown; i++)
        own_ss += own[i] * own[i];
    for (i = 0; i < npool; i++)
        pool_ms += pool[i] * pool[i];
    pool_ms = npool > 0 ? pool_ms / npool : 0.0;
    k = npool < HIST_PRIOR ? npool : HIST_PRIOR;
    if (nown + k < 1)
        return NAN;
    return t975(nown + (int) k) * sqrt((own_ss + k * pool_ms) / (nown + k));
}

void prof_impl_next_interval(prof_result * p, double h, int changes)
{
    double lo = NAN, hi = NAN, m = p->median_ns;
    /* the processes' interval already aims at the next run; one process's
       holds its own epochs: the next run's median has its noise too */
    double widen = p->processes > 1 ? 1.0 : sqrt(2.0);
    if (!isnan(p->ci_low_ns) && p->ci_level > 0.0)
    {
        lo = m - widen * (m - p->ci_low_ns);
        hi = m + widen * (p->ci_high_ns - m);
    }
    p->next_runs = changes;
    p->next_level = NAN;
    p->next_low_ns = p->next_high_ns = NAN;
    if (isnan(h) && p->processes <= 1)
        return;             /* one process, nothing learned: unknown */
    if (!isnan(h))
    {
        lo = isnan(lo) ? m * exp(-h) : fmin(lo, m * exp(-h));
        hi = isnan(hi) ? m * exp(h) : fmax(hi, m * exp(h));
    }
    if (isnan(lo))
        return;
    p->next_low_ns = lo < 0.0 ? 0.0 : lo;
    p->next_high_ns = hi;
    p->next_level = isnan(h) ? p->ci_level : PROF_CI_LEVEL;
}

/* ---- identities ---------------------------------------------------------- */

static unsigned long long fnv(unsigned long long h, const void * data,
        size_t n)
{
    const unsigned char * s = (const unsigned char *) data;
    size_t i;
    for (i = 0; i < n; i++)
        h = (h ^ s[i]) * 1099511628211ULL;
    return h;
}
#define FNV0 14695981039346656037ULL

static unsigned long long hash_str(const char * s)
{
    return fnv(FNV0, s, strlen(s));
}

/* This program (its path) and this build of it (the file's identity:
   device, inode, size, time of change): 0, or -1 when unknown. */
static int identify(prof_impl_history * h)
{
#if defined(_WIN32)
    (void) h;
    return -1;
#else
    char path[4096];
    struct stat st;
    ssize_t n = readlink("/proc/self/exe", path, sizeof path - 1);
    long long id[5];
    if (n <= 0 || stat("/proc/self/exe", &st) != 0)
        return -1;
    path[n] = '\0';
    h->prog = hash_str(path);
    id[0] = (long long) st.st_dev;
    id[1] = (long long) st.st_ino;
    id[2] = (long long) st.st_size;
    id[3] = (long long) st.st_mtime;
# if defined(__linux__)
    id[4] = (long long) st.st_mtim.tv_nsec;
# else
    id[4] = 0;
# endif
    h->build = fnv(FNV0, id, sizeof id);
    return 0;
#endif
}

static void machine_of(char * buf, size_t size)
{
    prof_impl_sysinfo si;
    memset(&si, 0, sizeof si);
    prof_impl_sysinfo_read(&si);
    snprintf(buf, size, "%s|%d|%s", si.cpu, si.cores, si.host);
    for (; *buf; buf++)     /* one word on its line */
        if (*buf == ' ' || *buf == '\n' || *buf == '\t')
            *buf = '_';
}

/* ---- the file ------------------------------------------------------------ */

const char * prof_impl_history_default(char * buf, size_t size)
{
    const char * env = getenv("PROFILER_HISTORY"), * base;
    if (env != NULL && env[0] != '\0')
        return env;
    base = getenv("XDG_CACHE_HOME");
    if (base != NULL && base[0] == '/')
        snprintf(buf, size, "%s/profiler/history", base);
    else if ((base = getenv("HOME")) != NULL && base[0] == '/')
        snprintf(buf, size, "%s/.cache/profiler/history", base);
    else
        return "off";
    return buf;
}

static int add_entry(prof_impl_history * h, const hist_entry * x)
{
    if (prof_impl_grow(&h->e, &h->cap, (size_t) h->n + 1, sizeof *h->e) != 0)
        return -1;
    h->e[h->n++] = *x;
    return 0;
}

/* One "b" line into x: 0, or -1 if damaged. */
static int parse_entry(char * line, hist_entry * x)
{
    char * p = line, * end;
    int i;
    if (strncmp(p, "b ", 2) != 0)
        return -1;
    p += 2;
    x->prog = strtoull(p, &end, 16);
    if (end == p || *end != ' ') return -1;
    x->build = strtoull(p = end + 1, &end, 16);
    if (end == p || *end != ' ') return -1;
    x->bench = strtoull(p = end + 1, &end, 16);
    if (end == p || *end != ' ') return -1;
    x->processes = (int) strtol(p = end + 1, &end, 10);
    if (end == p || *end != ' ' || x->processes < 1) return -1;
    x->when = strtoll(p = end + 1, &end, 10);
    if (end == p || *end != ' ') return -1;
    x->median_ns = strtod(p = end + 1, &end);
    if (end == p || *end != ' ' || !(x->median_ns > 0.0)
        || !(x->median_ns < INFINITY)) return -1;
    x->nd = (int) strtol(p = end + 1, &end, 10);
    if (end == p || x->nd < 0 || x->nd > HIST_KEEP) return -1;
    for (i = 0; i < x->nd; i++)
    {
        x->d[i] = strtod(p = end, &end);
        if (end == p || !(fabs(x->d[i]) < 5.0)) return -1;
    }
    while (*end == ' ' || *end == '\n')
        end++;
    return *end == '\0' ? 0 : -1;
}

/* Read h->path into h's entries (none when it does not exist). 0, or -1
   after a message when it cannot be trusted (damaged, another machine's:
   it is then written anew). */
static int load(prof_impl_history * h)
{
    char line[64 + 24 * HIST_KEEP + 256];
    FILE * f = fopen(h->path, "r");
    int lineno = 0;
    h->n = 0;
    if (f == NULL)
        return 0;
    while (fgets(line, sizeof line, f) != NULL)
    {
        hist_entry x;
        const char * why = NULL;
        lineno++;
        if (strchr(line, '\n') == NULL && !feof(f))
            why = "a line too long";
        else if (lineno == 1)
            why = strncmp(line, HIST_MAGIC "\n", sizeof HIST_MAGIC) != 0
                ? "not a profiler history (or another version)" : NULL;
        else if (lineno == 2)
        {
            line[strcspn(line, "\n")] = '\0';
            why = strncmp(line, "machine ", 8) != 0 ? "no machine line"
                : strcmp(line + 8, h->machine) != 0
                ? "from another machine" : NULL;
        }
        else if (parse_entry(line, &x) != 0)
            why = "a damaged line";
        else if (add_entry(h, &x) != 0)
            why = "out of memory";
        if (why != NULL)
        {
            prof_impl_warn("history %s: %s (line %d): ignored, and written "
                           "anew at the end of this run", h->path, why,
                           lineno);
            fclose(f);
            h->n = 0;
            return -1;
        }
    }
    fclose(f);
    return 0;
}

static int find(const prof_impl_history * h, unsigned long long bench,
        int processes)
{
    int i;
    for (i = 0; i < h->n; i++)
        if (h->e[i].prog == h->prog && h->e[i].bench == bench
            && h->e[i].processes == processes)
            return i;
    return -1;
}

prof_impl_history * prof_impl_history_open(const char * path)
{
    prof_impl_history * h;
    /* a fake clock's figures are no machine's */
    if (path == NULL || strcmp(path, "off") == 0 || prof_impl_fake_read != NULL)
        return NULL;
    h = (prof_impl_history *) calloc(1, sizeof *h);
    if (h == NULL || (h->path = prof_impl_strdup(path)) == NULL)
    {
        free(h);
        prof_impl_warn("history: out of memory; the intervals are this "
                       "process's");
        return NULL;
    }
    machine_of(h->machine, sizeof h->machine);
    if (identify(h) != 0)
    {
        prof_impl_warn("history: this program's file cannot be read "
                       "(/proc/self/exe): no history, the intervals are this "
                       "process's");
        prof_impl_history_free(h);
        return NULL;
    }
    (void) load(h);
    return h;
}

void prof_impl_history_free(prof_impl_history * h)
{
    if (h == NULL)
        return;
    free(h->path);
    free(h->e);
    free(h);
}

/* Whether x's changes say how p's next run may land: this program's (any
   build: the machine's speed steps move all its benchmarks), with as many
   processes. Other programs' are not pooled: a program of noisy or
   unlike work would widen every other's interval. */
static int in_pool(const prof_impl_history * h, const hist_entry * x,
        const prof_result * p)
{
    return x->prog == h->prog && x->processes == p->processes;
}

void prof_impl_history_apply(prof_impl_history * h, prof_result * p)
{
    double * pool = NULL, mine[HIST_KEEP + 1], work[HIST_KEEP + 1];
    double hw = NAN;
    int i, k, nown = 0, npool = 0, total = 1, at;
    if (h != NULL && p->median_ns > 0.0 && p->median_ns < INFINITY)
    {
        at = find(h, hash_str(p->name), p->processes);
        for (i = 0; i < h->n; i++)
            if (in_pool(h, &h->e[i], p))
                total += h->e[i].nd;
        pool = (double *) malloc((size_t) total * sizeof *pool);
        for (i = 0; pool != NULL && i < h->n; i++)
            if (in_pool(h, &h->e[i], p))
                for (k = 0; k < h->e[i].nd; k++)
                    pool[npool++] = h->e[i].d[k];
        if (at >= 0)
        {
            nown = h->e[at].nd;
            memcpy(mine, h->e[at].d, (size_t) nown * sizeof *mine);
            /* this run's own change, known as its median is: a second run
               has one to learn from */
            if (h->e[at].build == h->build)
            {
                mine[nown++] = log(p->median_ns / h->e[at].median_ns);
                if (pool != NULL)
                    pool[npool++] = mine[nown - 1];
            }
        }
        if (pool != NULL)
            hw = prof_impl_next_halfwidth(mine, nown, pool, npool, work);
        free(pool);
    }
    prof_impl_next_interval(p, hw, isnan(hw) ? 0 : npool);
}

/* This run's result r into h: a change against the last run of the same
   build, the median kept for the next. */
static void record(prof_impl_history * h, const prof_result * r,
        long long now)
{
    hist_entry x;
    int at;
    if (!(r->median_ns > 0.0) || !(r->median_ns < INFINITY)
        || (r->flags & PROF_RESULT_PARTIAL))
        return;
    at = find(h, hash_str(r->name), r->processes);
    if (at < 0)
    {
        memset(&x, 0, sizeof x);
        x.prog = h->prog;
        x.bench = hash_str(r->name);
        x.processes = r->processes;
        x.build = h->build;
        x.when = now;
        x.median_ns = r->median_ns;
        (void) add_entry(h, &x);
        return;
    }
    if (h->e[at].build == h->build)
    {
        hist_entry * e = &h->e[at];
        if (e->nd == HIST_KEEP)
            memmove(e->d, e->d + 1, (HIST_KEEP - 1) * sizeof e->d[0]);
        else
            e->nd++;
        e->d[e->nd - 1] = log(r->median_ns / e->median_ns);
    }
    else if (!h->build_said)    /* a change across builds is the code's */
    {
        prof_impl_warn("history: a new build of this program: the change "
                       "from the last build's medians is not counted as "
                       "run-to-run spread");
        h->build_said = 1;
    }
    h->e[at].build = h->build;
    h->e[at].when = now;
    h->e[at].median_ns = r->median_ns;
}

static int by_when_desc(const void * a, const void * b)
{
    const hist_entry * x = (const hist_entry *) a, * y = (const hist_entry *) b;
    return (x->when < y->when) - (x->when > y->when);
}

/* mkdir -p of path's directory (the cache's is the user's only). */
static void make_dirs(const char * path)
{
#if !defined(_WIN32)
    char dir[4096];
    char * s;
    prof_impl_copy(dir, sizeof dir, path);
    for (s = dir + 1; (s = strchr(s, '/')) != NULL; s++)
    {
        *s = '\0';
        (void) mkdir(dir, 0700);
        *s = '/';
    }
#else
    (void) path;
#endif
}

int prof_impl_history_save(prof_impl_history * h,
        prof_impl_result * const * results, int n)
{
    prof_impl_outfile o;
    long long now = (long long) time(NULL);
    int i, k;
    if (h == NULL || n == 0)
        return 0;
    if (load(h) != 0)           /* others' lines since: kept */
        h->n = 0;
    for (i = 0; i < n; i++)
        record(h, &results[i]->pub, now);
    if (h->n > HIST_ENTRIES)
    {
        qsort(h->e, (size_t) h->n, sizeof *h->e, by_when_desc);
        h->n = HIST_ENTRIES;
    }
    make_dirs(h->path);
    if (prof_impl_outfile_open(&o, h->path) != 0)
        return -1;
    fprintf(o.f, "%s\nmachine %s\n", HIST_MAGIC, h->machine);
    for (i = 0; i < h->n; i++)
    {
        const hist_entry * e = &h->e[i];
        fprintf(o.f, "b %llx %llx %llx %d %lld %.9g %d", e->prog, e->build,
                e->bench, e->processes, e->when, e->median_ns, e->nd);
        for (k = 0; k < e->nd; k++)
            fprintf(o.f, " %.6g", e->d[k]);
        fputc('\n', o.f);
    }
    return prof_impl_outfile_commit(&o);
}
