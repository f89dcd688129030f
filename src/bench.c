/*
    The statistical benchmark runner: settings, calibration, epochs,
    warm-up, time budget, the loop macro's state, interleaved suites and the
    paired comparison. Every time reading goes through prof_impl_read() so
    that tests drive it with a fake clock and check exact results.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* An epoch's iterations never exceed this (2^40): a target whose time does
   not grow with its count stops growing here, far from overflow. */
/* 2^40 iterations, or half the range where ulong is 32 bits (a shift by 40
   would be undefined there; the unsigned conversion below is not). */
#define MAX_ITERS ((unsigned long long) ((ulong) -1 / 2) < 1099511627776ULL \
                   ? (ulong) -1 / 2 : (ulong) 1099511627776ULL)
/* Empty epochs of the loop macro that measure its fixed cost. */
#define OVERHEAD_EPOCHS 11

/* ---- settings ------------------------------------------------------------ */

static int bad(const char * what, double value)
{
    prof_impl_warn("%s: bad value %g; setting unchanged", what, value);
    return -1;
}

/* The name filter: a POSIX extended regular expression, or a plain
   substring where there is no <regex.h> (Windows). */
static int filter_compile(prof_impl_regex * re, const char * text,
        char * msg, size_t size)
{
#if defined(_WIN32)
    size_t n = strlen(text) + 1;
    re->text = (char *) malloc(n);
    if (re->text == NULL)
    {
        prof_impl_copy(msg, size, "out of memory");
        return -1;
    }
    memcpy(re->text, text, n);
    return 0;
#else
    int rc = regcomp(re, text, REG_EXTENDED | REG_NOSUB);
    if (rc != 0)
        regerror(rc, re, msg, size);
    return rc;
#endif
}

static int filter_match(const prof_impl_regex * re, const char * name)
{
#if defined(_WIN32)
    return strstr(name, re->text) != NULL;
#else
    return regexec(re, name, 0, NULL, 0) == 0;
#endif
}

static void filter_free(prof_impl_regex * re)
{
#if defined(_WIN32)
    free(re->text);
#else
    regfree(re);
#endif
}

#define NEED_SUITE(b, func) \
    if ((b) == NULL) { prof_impl_warn("%s: the suite is NULL", func); return -1; }

prof_bench * prof_impl_bench_new(int optimized, int sanitized,
        const char * compiler, const char * flags)
{
    prof_bench * b = (prof_bench *) calloc(1, sizeof *b);
    if (b == NULL)
    {
        prof_impl_warn("prof_bench_new: out of memory");
        return NULL;
    }
    b->s.epochs = 11;
    b->s.min_epoch_ns = 1e6;
    b->s.max_epoch_ns = 1e8;
    b->s.resolution_multiple = 1000.0;
    b->s.min_iters = 1;
    b->s.exact_iters = 0;
    b->s.warmup = 0;
    b->s.retries = 11;
    b->s.budget_s = 5.0;
    b->s.jitter = 0.2;
    b->s.batch = 1.0;
    strcpy(b->s.unit, "op");
    b->s.complexity_n = 0.0;
    strcpy(b->time_unit, "ns");
    b->time_unit_ns = 1.0;
    b->interleave = 0;
    b->baseline = -1;
    b->format = PROF_FORMAT_MD;
    b->out = stdout;
    b->optimized = optimized;
    b->sanitized = sanitized;
    prof_impl_copy(b->compiler, sizeof b->compiler, compiler ? compiler : "");
    prof_impl_copy(b->flags, sizeof b->flags, flags ? flags : "");
    b->overhead_ticks = -1.0;
    b->terminal = -1;
    b->started_ns = prof_impl_now_ns();
    return b;
}

static void free_result(prof_impl_result * r)
{
    if (r == NULL)
        return;
    free(r->name);
    free(r->samples);
    free(r->cpu);
    free(r->iters);
    free(r->ev);
    free(r);
}

void prof_bench_free(prof_bench * b)
{
    int i;
    if (b == NULL)
        return;
    prof_bench_finish(b);
    for (i = 0; i < b->nresults; i++)
        free_result(b->results[i]);
    free(b->results);
    for (i = 0; i < b->nqueue; i++)
        free(b->queue[i].name);
    free(b->queue);
    if (b->has_filter)
        filter_free(&b->filter);
    if (b->own_out && b->out != NULL)
        fclose(b->out);
    free(b);
}

int prof_bench_set_epochs(prof_bench * b, int epochs)
{
    NEED_SUITE(b, "prof_bench_set_epochs");
    if (epochs < 1 || epochs > 100000)
        return bad("prof_bench_set_epochs: epochs must be 1..100000", epochs);
    b->s.epochs = epochs;
    return 0;
}

int prof_bench_set_min_epoch_time_ns(prof_bench * b, double ns)
{
    NEED_SUITE(b, "prof_bench_set_min_epoch_time_ns");
    if (!(ns >= 0.0 && ns < 1e13))
        return bad("prof_bench_set_min_epoch_time_ns", ns);
    b->s.min_epoch_ns = ns;
    return 0;
}

int prof_bench_set_max_epoch_time_ns(prof_bench * b, double ns)
{
    NEED_SUITE(b, "prof_bench_set_max_epoch_time_ns");
    if (!(ns > 0.0 && ns < 1e13))
        return bad("prof_bench_set_max_epoch_time_ns", ns);
    b->s.max_epoch_ns = ns;
    return 0;
}

int prof_bench_set_resolution_multiple(prof_bench * b, double multiple)
{
    NEED_SUITE(b, "prof_bench_set_resolution_multiple");
    if (!(multiple >= 0.0 && multiple < 1e12))
        return bad("prof_bench_set_resolution_multiple", multiple);
    b->s.resolution_multiple = multiple;
    return 0;
}

int prof_bench_set_min_epoch_iterations(prof_bench * b, ulong iters)
{
    NEED_SUITE(b, "prof_bench_set_min_epoch_iterations");
    if (iters < 1 || iters > MAX_ITERS)
        return bad("prof_bench_set_min_epoch_iterations: must be 1..2^40",
                   (double) iters);
    b->s.min_iters = iters;
    return 0;
}

int prof_bench_set_epoch_iterations(prof_bench * b, ulong iters)
{
    NEED_SUITE(b, "prof_bench_set_epoch_iterations");
    if (iters > MAX_ITERS)
        return bad("prof_bench_set_epoch_iterations: must be 0..2^40",
                   (double) iters);
    b->s.exact_iters = iters;
    return 0;
}

int prof_bench_set_warmup(prof_bench * b, ulong iters)
{
    NEED_SUITE(b, "prof_bench_set_warmup");
    if (iters > MAX_ITERS)
        return bad("prof_bench_set_warmup: must be 0..2^40", (double) iters);
    b->s.warmup = iters;
    return 0;
}

int prof_bench_set_preempt_retries(prof_bench * b, int retries)
{
    NEED_SUITE(b, "prof_bench_set_preempt_retries");
    if (retries < 0 || retries > 1000000)
        return bad("prof_bench_set_preempt_retries: must be 0..1e6", retries);
    b->s.retries = retries;
    return 0;
}

int prof_bench_set_budget_s(prof_bench * b, double seconds)
{
    NEED_SUITE(b, "prof_bench_set_budget_s");
    if (!(seconds > 0.0 && seconds < 1e7))
        return bad("prof_bench_set_budget_s", seconds);
    b->s.budget_s = seconds;
    return 0;
}

int prof_bench_set_epoch_jitter(prof_bench * b, double fraction)
{
    NEED_SUITE(b, "prof_bench_set_epoch_jitter");
    if (!(fraction >= 0.0 && fraction <= 10.0))
        return bad("prof_bench_set_epoch_jitter: must be 0..10", fraction);
    b->s.jitter = fraction;
    return 0;
}

int prof_bench_set_batch(prof_bench * b, double units, const char * unit)
{
    NEED_SUITE(b, "prof_bench_set_batch");
    if (!(units > 0.0 && units < 1e300))
        return bad("prof_bench_set_batch", units);
    b->s.batch = units;
    prof_impl_copy(b->s.unit, sizeof b->s.unit,
                   unit != NULL && *unit ? unit : "op");
    return 0;
}

int prof_bench_set_time_unit(prof_bench * b, const char * unit)
{
    static const char * names[] = { "ns", "us", "ms", "s" };
    static const double scale[] = { 1.0, 1e3, 1e6, 1e9 };
    int i;
    NEED_SUITE(b, "prof_bench_set_time_unit");
    for (i = 0; unit != NULL && i < 4; i++)
        if (strcmp(unit, names[i]) == 0)
        {
            strcpy(b->time_unit, names[i]);
            b->time_unit_ns = scale[i];
            return 0;
        }
    prof_impl_warn("prof_bench_set_time_unit: unknown unit \"%s\" (ns, us, "
                   "ms or s); setting unchanged", unit ? unit : "(null)");
    return -1;
}

int prof_bench_set_relative(prof_bench * b, int on)
{
    NEED_SUITE(b, "prof_bench_set_relative");
    b->relative_next = on != 0;
    if (!on)
        b->baseline = -1;
    return 0;
}

int prof_bench_set_complexity_n(prof_bench * b, double n)
{
    NEED_SUITE(b, "prof_bench_set_complexity_n");
    if (n == -1.0)
    {
        b->s.complexity_n = 0.0;
        return 0;
    }
    if (!(n > 0.0 && n < 1e300))
        return bad("prof_bench_set_complexity_n: N must be > 0", n);
    b->s.complexity_n = n;
    return 0;
}

int prof_bench_set_counters(prof_bench * b, const char * events)
{
    NEED_SUITE(b, "prof_bench_set_counters");
    if (events == NULL || *events == '\0' || strcmp(events, "off") == 0)
    {
        b->s.counters[0] = '\0';
        return 0;
    }
    if (strcmp(events, "default") == 0 || strcmp(events, "on") == 0)
        events = PROF_COUNTERS_DEFAULT;
    if (strlen(events) >= sizeof b->s.counters)
    {
        prof_impl_warn("prof_bench_set_counters: event list too long; "
                       "setting unchanged");
        return -1;
    }
    if (prof_impl_counters_check(events, "prof_bench_set_counters") < 0)
        return -1;  /* the message said which name */
    strcpy(b->s.counters, events);
    return 0;
}

int prof_bench_set_interleave(prof_bench * b, int on)
{
    NEED_SUITE(b, "prof_bench_set_interleave");
    b->interleave = on != 0;
    return 0;
}

int prof_bench_set_format(prof_bench * b, prof_format format)
{
    NEED_SUITE(b, "prof_bench_set_format");
    if ((int) format < 0 || (int) format > PROF_FORMAT_NONE)
        return bad("prof_bench_set_format: unknown format", (double) format);
    b->format = format;
    return 0;
}

int prof_bench_set_output(prof_bench * b, FILE * out)
{
    NEED_SUITE(b, "prof_bench_set_output");
    if (b->own_out && b->out != NULL)
        fclose(b->out);
    b->own_out = 0;
    b->out = out;
    return 0;
}

int prof_bench_set_output_path(prof_bench * b, const char * path)
{
    FILE * f;
    NEED_SUITE(b, "prof_bench_set_output_path");
    if (path == NULL || *path == '\0')
    {
        prof_impl_warn("prof_bench_set_output_path: no file name given");
        return -1;
    }
    f = fopen(path, "w");
    if (f == NULL)
    {
        prof_impl_warn("cannot open \"%s\" for writing: %s; output unchanged",
                       path, strerror(errno));
        return -1;
    }
    prof_bench_set_output(b, f);
    b->own_out = 1;
    return 0;
}

int prof_bench_set_filter(prof_bench * b, const char * regex)
{
    prof_impl_regex re;
    char msg[128];
    NEED_SUITE(b, "prof_bench_set_filter");
    if (regex == NULL || *regex == '\0')
    {
        if (b->has_filter)
            filter_free(&b->filter);
        b->has_filter = 0;
        return 0;
    }
    if (filter_compile(&re, regex, msg, sizeof msg) != 0)
    {
        prof_impl_warn("bad filter \"%s\": %s; filter unchanged", regex, msg);
        return -1;
    }
    if (b->has_filter)
        filter_free(&b->filter);
    b->filter = re;
    b->has_filter = 1;
    return 0;
}

static int parse_format(const char * s, prof_format * f)
{
    if (strcmp(s, "md") == 0 || strcmp(s, "markdown") == 0) *f = PROF_FORMAT_MD;
    else if (strcmp(s, "csv") == 0) *f = PROF_FORMAT_CSV;
    else if (strcmp(s, "json") == 0) *f = PROF_FORMAT_JSON;
    else if (strcmp(s, "none") == 0) *f = PROF_FORMAT_NONE;
    else
    {
        prof_impl_warn("unknown format \"%s\": use md, csv, json or none", s);
        return -1;
    }
    return 0;
}

static int apply_option(prof_bench * b, const char * key, const char * value)
{
    if (strcmp(key, "format") == 0)
    {
        prof_format f;
        if (parse_format(value, &f) != 0)
            return -1;
        b->format = f;
        return 0;
    }
    if (strcmp(key, "out") == 0)
        return prof_bench_set_output_path(b, value);
    if (strcmp(key, "counters") == 0)
        return prof_bench_set_counters(b, value);
    return prof_bench_set_filter(b, value);
}

int prof_bench_args(prof_bench * b, int argc, char ** argv)
{
    static const char * keys[] = { "format", "out", "filter", "counters" };
    static const char * envs[] = { "PROFILER_FORMAT", "PROFILER_OUT",
                                   "PROFILER_FILTER", "PROFILER_COUNTERS" };
    int i, k, rc = 0;
    NEED_SUITE(b, "prof_bench_args");
    for (k = 0; k < 4; k++)
    {
        const char * v = getenv(envs[k]);
        if (v != NULL && *v != '\0' && apply_option(b, keys[k], v) != 0)
            rc = -1;
    }
    for (i = 1; argv != NULL && i < argc; i++)
    {
        const char * a = argv[i];
        if (a == NULL || strncmp(a, "--", 2) != 0)
            continue;
        if (strcmp(a, "--counters") == 0)   /* the default events */
        {
            if (apply_option(b, "counters", "default") != 0)
                rc = -1;
            continue;
        }
        for (k = 0; k < 4; k++)
        {
            size_t n = strlen(keys[k]);
            if (strncmp(a + 2, keys[k], n) == 0 && a[2 + n] == '=')
            {
                if (apply_option(b, keys[k], a + 3 + n) != 0)
                    rc = -1;
                break;
            }
        }
    }
    return rc;
}

/* ---- one benchmark's run: a state machine fed with epoch timings --------- */

static double ns_per_tick(void)
{
    return 1e9 / prof_impl_read_rate();
}

/* Median ticks of back-to-back reads of the runner's clock: the fixed cost
   inside every timed interval of a function target. */
static double read_overhead_ticks(void)
{
    enum { PAIRS = 101 };
    double d[PAIRS];
    int i;
    for (i = 0; i < 20; i++)
        (void) prof_impl_read();
    for (i = 0; i < PAIRS; i++)
    {
        double a = prof_impl_read();
        double c = prof_impl_read();
        d[i] = c - a;
    }
    prof_impl_sort(d, PAIRS);
    return d[PAIRS / 2];
}

static double suite_overhead(prof_bench * b)
{
    if (b->overhead_ticks < 0.0 || b->fake_seen != (prof_impl_fake_read != NULL))
    {
        b->overhead_ticks = read_overhead_ticks();
        b->fake_seen = prof_impl_fake_read != NULL;
    }
    return b->overhead_ticks;
}

/* A small deterministic generator (xorshift64*) for the epoch jitter. */
static double next_uniform(unsigned long long * state)
{
    unsigned long long x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return (double) ((x * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static void run_after_overhead(prof_impl_run * r);
static void run_after_warmup(prof_impl_run * r);

static void run_init(prof_impl_run * r, prof_bench * b, const char * name,
        const prof_impl_settings * s, int is_loop)
{
    double npt = ns_per_tick(), res;
    memset(r, 0, sizeof *r);
    r->b = b;
    r->s = *s;
    r->name = name;
    r->is_loop = is_loop;
    r->pair_ticks = suite_overhead(b);
    r->rng = 0x9E3779B97F4A7C15ULL;
    /* The resolution: one tick, or the cost of a read if larger. */
    res = r->pair_ticks > 1.0 ? r->pair_ticks : 1.0;
    r->target_ticks = res * s->resolution_multiple;
    if (r->target_ticks < s->min_epoch_ns / npt)
        r->target_ticks = s->min_epoch_ns / npt;
    if (r->target_ticks > s->max_epoch_ns / npt)
        r->target_ticks = s->max_epoch_ns / npt;
    r->budget_ticks = s->budget_s * 1e9 / npt;
    r->samples = (double *) calloc((size_t) s->epochs, sizeof *r->samples);
    r->iters = (ulong *) calloc((size_t) s->epochs, sizeof *r->iters);
    r->cpu_samples = (double *) calloc((size_t) s->epochs, sizeof *r->cpu_samples);
    prof_impl_bench_counters_init(&r->ctr, s->counters);
    if (r->ctr.n > 0)
        r->ev_samples = (double *) calloc((size_t) s->epochs * (size_t) r->ctr.n,
                                          sizeof *r->ev_samples);
    if (r->samples == NULL || r->iters == NULL || r->cpu_samples == NULL
        || (r->ctr.n > 0 && r->ev_samples == NULL))
    {
        prof_impl_warn("%s: out of memory", name);
        r->phase = PH_DONE;
        return;
    }
    /* Function targets: the cost of the reads is known; the loop macro
       measures its own fixed cost with empty epochs first. */
    r->overhead_ticks = is_loop ? 0.0 : r->pair_ticks;
    if (is_loop)
    {
        r->phase = PH_OVERHEAD;
        r->count = 0;
    }
    else
        run_after_overhead(r);
}

static void run_after_overhead(prof_impl_run * r)
{
    if (r->s.warmup > 0)
    {
        r->phase = PH_WARMUP;
        r->count = r->s.warmup;
    }
    else
        run_after_warmup(r);
}

static void run_after_warmup(prof_impl_run * r)
{
    if (r->s.exact_iters > 0)
    {
        r->base = r->s.exact_iters;
        r->s.jitter = 0.0;
        r->phase = PH_MEASURE;
        r->count = r->base;
    }
    else
    {
        r->phase = PH_CALIBRATE;
        r->count = r->s.min_iters;
    }
}

/* Iterations per epoch from the best cost per iteration: the nearest
   count to the target epoch time, within [min_iters, MAX_ITERS]. */
static void rebase(prof_impl_run * r)
{
    double base = floor(r->target_ticks / r->best_iter_ticks + 0.5);
    r->base = base >= (double) MAX_ITERS ? MAX_ITERS
            : base < 1.0 ? 1 : (ulong) base;
    if (r->base < r->s.min_iters)
        r->base = r->s.min_iters;
}

static void set_measure_count(prof_impl_run * r)
{
    double c = (double) r->base;
    if (r->s.jitter > 0.0)
        c += floor(c * r->s.jitter * (next_uniform(&r->rng) - 0.5));
    r->count = c >= (double) MAX_ITERS ? MAX_ITERS : (ulong) c;
    if (r->count < 1)
        r->count = 1;
}

static void record(prof_impl_run * r, double net_ticks, double cpu_ns)
{
    double npt = ns_per_tick();
    int i = r->got++, k;
    r->iters[i] = r->count;
    r->net_ticks_sum += net_ticks;
    if (net_ticks < 10.0 * r->pair_ticks && r->pair_ticks > 0.0)
        r->low_epochs++;
    if (net_ticks < 0.0)
        net_ticks = 0.0;
    r->samples[i] = net_ticks * npt / ((double) r->count * r->s.batch);
    r->cpu_samples[i] = cpu_ns / ((double) r->count * r->s.batch);
    for (k = 0; k < r->ctr.n; k++)
        r->ev_samples[i * r->ctr.n + k] = r->ctr.epoch[k]
                                        / ((double) r->count * r->s.batch);
    r->cpu_ns_sum += cpu_ns;
}

/* Feed the epoch just run (r->count iterations, timed_ticks between the
   reads, whole_ticks for the whole call, cpu_ns of processor time); set up
   the next. Returns 1 if there is a next epoch (r->count iterations), 0 when
   the run is over. */
int prof_impl_run_step(prof_impl_run * r, double timed_ticks,
        double whole_ticks, double cpu_ns, long switches)
{
    double net = timed_ticks - r->overhead_ticks;
    r->spent_ticks += whole_ticks > timed_ticks ? whole_ticks : timed_ticks;
    switch (r->phase)
    {
    case PH_OVERHEAD:
        r->oh[r->noh++] = timed_ticks;
        if (r->noh == OVERHEAD_EPOCHS)
        {
            prof_impl_sort(r->oh, r->noh);
            r->overhead_ticks = r->oh[r->noh / 2];
            run_after_overhead(r);
        }
        return 1;
    case PH_WARMUP:
        run_after_warmup(r);
        break;
    case PH_CALIBRATE:
        if (net >= r->target_ticks / 10.0 && net > 0.0)
        {
            r->best_iter_ticks = net / (double) r->count;
            rebase(r);
        }
        else if (r->count >= MAX_ITERS)
            r->base = MAX_ITERS;
        else
        {
            r->count = r->count * 10 > MAX_ITERS ? MAX_ITERS : r->count * 10;
            break;
        }
        if (r->base < r->s.min_iters)
            r->base = r->s.min_iters;
        r->phase = PH_MEASURE;
        r->calibration_epochs = 0;
        set_measure_count(r);
        break;
    case PH_MEASURE:
        if (switches > 0 && r->retried < r->s.retries)
        {
            /* The scheduler took the CPU away during this epoch: its time
               includes another process's. Run it again (same count). */
            r->retried++;
            break;
        }
        record(r, net, cpu_ns);
        /* Noise only ever adds time: the fastest epoch so far is the best
           estimate of an iteration's cost, so a calibration that a
           preemption inflated is corrected by the next clean epoch. */
        if (r->s.exact_iters == 0 && net > 0.0
            && net / (double) r->count < r->best_iter_ticks)
        {
            r->best_iter_ticks = net / (double) r->count;
            rebase(r);
        }
        if (r->got == r->s.epochs)
        {
            r->phase = PH_DONE;
            return 0;
        }
        set_measure_count(r);
        break;
    default:
        return 0;
    }
    if (r->spent_ticks > r->budget_ticks)
    {
        if (r->got == 0)
            record(r, net, cpu_ns); /* the epoch just run: better than none */
        r->budget_hit = 1;
        r->phase = PH_DONE;
        return 0;
    }
    return 1;
}

/* ---- results ------------------------------------------------------------- */

static char * dup_string(const char * s)
{
    size_t n = strlen(s) + 1;
    char * d = (char *) malloc(n);
    if (d != NULL)
        memcpy(d, s, n);
    return d;
}

static int add_result(prof_bench * b, prof_impl_result * res)
{
    if (b->nresults == b->capresults)
    {
        int cap = b->capresults ? 2 * b->capresults : 16;
        prof_impl_result ** p = (prof_impl_result **) realloc(b->results,
                (size_t) cap * sizeof *p);
        if (p == NULL)
            return -1;
        b->results = p;
        b->capresults = cap;
    }
    b->results[b->nresults++] = res;
    return 0;
}

static void append(char * buf, size_t size, const char * text)
{
    size_t n = strlen(buf);
    if (n + 1 < size)
        prof_impl_copy(buf + n, size - n, text);
}

/* The per-unit median over the measured epochs of each counted event (NaN
   epochs left out: a failed read), IPC and branch-miss % from those
   medians, into res; work has room for the epochs. */
static void counter_results(prof_impl_result * res, prof_impl_run * r,
        double * work)
{
    prof_result * p = &res->pub;
    int i, k, m, n = r->got, nev = r->ctr.n;
    double ins = NAN, cyc = NAN, bra = NAN, miss = NAN;
    res->nev = nev;
    res->ev = r->ev_samples;
    for (k = 0; k < nev; k++)
    {
        for (i = m = 0; i < n; i++)
            if (r->ev_samples[i * nev + k] == r->ev_samples[i * nev + k])
                work[m++] = r->ev_samples[i * nev + k];
        prof_impl_sort(work, m);
        res->ev_names[k] = r->ctr.names[k];
        res->ev_median[k] = m > 0 ? prof_impl_quantile(work, m, 0.5) : NAN;
        if (strcmp(r->ctr.names[k], "instructions") == 0) ins = res->ev_median[k];
        if (strcmp(r->ctr.names[k], "cycles") == 0) cyc = res->ev_median[k];
        if (strcmp(r->ctr.names[k], "branches") == 0) bra = res->ev_median[k];
        if (strcmp(r->ctr.names[k], "branch-misses") == 0) miss = res->ev_median[k];
    }
    p->ncounters = nev;
    p->counter_names = nev > 0 ? res->ev_names : NULL;
    p->counters = nev > 0 ? res->ev_median : NULL;
    p->ipc = cyc > 0.0 ? ins / cyc : NAN;
    p->branch_miss_pct = bra > 0.0 ? 100.0 * miss / bra : NAN;
}

double prof_result_counter(const prof_result * r, const char * event)
{
    const char * name = prof_impl_counters_canonical(event);
    int k;
    if (r == NULL || name == NULL)
    {
        prof_impl_warn("prof_result_counter: %s", r == NULL ? "the result is "
                       "NULL" : "unknown event name");
        return NAN;
    }
    for (k = 0; k < r->ncounters; k++)
        if (strcmp(r->counter_names[k], name) == 0)
            return r->counters[k];
    return NAN;
}

/* Turn a finished run into a result kept by the suite; prints its row. */
static const prof_result * run_finish(prof_impl_run * r)
{
    prof_bench * b = r->b;
    prof_impl_result * res = (prof_impl_result *) calloc(1, sizeof *res);
    prof_result * p;
    double * sorted, npt = ns_per_tick(), cpu = 0.0;
    int n = r->got, i;
    char line[256];

    if (res == NULL || n == 0 || (sorted = (double *) malloc((size_t) n * sizeof *sorted)) == NULL)
    {
        if (n == 0)
            prof_impl_warn("%s: no epoch ran; no result", r->name);
        else
            prof_impl_warn("%s: out of memory; result lost", r->name);
        free(res);
        free(r->samples); free(r->iters); free(r->cpu_samples);
        free(r->ev_samples);
        return NULL;
    }
    res->name = dup_string(r->name);
    res->samples = r->samples;
    res->iters = r->iters;
    p = &res->pub;
    p->name = res->name ? res->name : "";
    p->samples_ns = res->samples;
    p->epoch_iters = res->iters;
    p->epochs = n;
    memcpy(sorted, r->samples, (size_t) n * sizeof *sorted);
    prof_impl_sort(sorted, n);
    p->median_ns = prof_impl_quantile(sorted, n, 0.5);
    p->min_ns = sorted[0];
    p->max_ns = sorted[n - 1];
    p->mean_ns = 0.0;
    p->iterations = 0;
    for (i = 0; i < n; i++)
    {
        p->mean_ns += r->samples[i];
        p->iterations += r->iters[i];
    }
    cpu = r->cpu_ns_sum;
    p->mean_ns /= n;
    p->cpu_ns = cpu / ((double) p->iterations * r->s.batch);
    p->err_pct = prof_impl_mdape(sorted, n);
    if (!(p->err_pct >= 0.0))
        p->err_pct = 0.0;
    prof_impl_median_interval(sorted, n, 0.95, &p->ci_low_ns, &p->ci_high_ns,
                              &p->ci_level);
    p->total_s = r->spent_ticks * npt * 1e-9;
    p->overhead_ns = r->overhead_ticks * npt;
    p->batch = r->s.batch;
    prof_impl_copy(res->unit, sizeof res->unit, r->s.unit);
    p->unit = res->unit;
    p->complexity_n = r->s.complexity_n;
    p->relative_pct = NAN;
    p->warning = res->warning;

    if (r->budget_hit && n < r->s.epochs)
    {
        p->flags |= PROF_RESULT_BUDGET;
        snprintf(line, sizeof line, "stopped by the time budget (%g s) after %d of %d "
                "epochs; raise it with prof_bench_set_budget_s. ",
                r->s.budget_s, n, r->s.epochs);
        append(res->warning, sizeof res->warning, line);
    }
    if (n < 6)
    {
        p->flags |= PROF_RESULT_FEW_EPOCHS;
        snprintf(line, sizeof line, "%d epoch%s: too few for an interval (6 needed). ", n,
                n == 1 ? "" : "s");
        append(res->warning, sizeof res->warning, line);
    }
    if (r->low_epochs * 2 > n || r->base >= MAX_ITERS)
    {
        p->flags |= PROF_RESULT_RESOLUTION;
        snprintf(line, sizeof line, "an epoch of %lu iterations takes %.3g ns, under 10x "
                "the counter overhead: is the work optimised away? "
                "(PROF_DO_NOT_OPTIMIZE). ", (unsigned long) r->iters[0],
                r->net_ticks_sum / n * npt);
        append(res->warning, sizeof res->warning, line);
    }
    if (p->err_pct > 5.0)
    {
        p->flags |= PROF_RESULT_UNSTABLE;
        snprintf(line, sizeof line, "unstable: err%% %.1f%%: the epochs scatter (other "
                "load, frequency changes); the min is steadier, and "
                "prof_bench_compare pairs epochs for a comparison. ",
                p->err_pct);
        append(res->warning, sizeof res->warning, line);
    }
    i = prof_impl_bimodal(sorted, n);
    if (i > 0)
    {
        p->flags |= PROF_RESULT_BIMODAL;
        snprintf(line, sizeof line, "bimodal: %d epochs near %.4g ns and %d near %.4g ns; "
                "the machine changed speed during the run (frequency "
                "scaling, other load): rerun or raise the epochs. ",
                i, sorted[i / 2], n - i, sorted[i + (n - i) / 2]);
        append(res->warning, sizeof res->warning, line);
    }
    {
        size_t len = strlen(res->warning);
        if (len > 0 && res->warning[len - 1] == ' ')
            res->warning[len - 1] = '\0';
    }
    res->cpu = r->cpu_samples;
    counter_results(res, r, sorted);
    free(sorted);

    if (add_result(b, res) != 0)
    {
        prof_impl_warn("%s: out of memory; result lost", r->name);
        free_result(res);
        return NULL;
    }
    if (r->is_baseline)
    {
        b->baseline = b->nresults - 1;
        b->relative_next = 0;
    }
    if (b->baseline >= 0)
    {
        double base = b->results[b->baseline]->pub.median_ns;
        p->relative_pct = p->median_ns > 0.0 ? 100.0 * base / p->median_ns
                                             : NAN;
    }
    if (res->warning[0] != '\0')
        prof_impl_warn("%s: %s", p->name, res->warning);
    prof_impl_print_row(b, b->nresults - 1);
    return p;
}

/* The name to run under, or NULL if the filter rejects it. */
static const char * run_name(prof_bench * b, const char * name, char * buf)
{
    if (name == NULL)
    {
        sprintf(buf, "benchmark %d", b->nresults + b->nqueue + 1);
        prof_impl_warn("benchmark name is NULL; named \"%s\"", buf);
        name = buf;
    }
    if (b->has_filter && !filter_match(&b->filter, name))
        return NULL;
    return name;
}

static void run_epoch(prof_impl_run * r, profile_target_t f, void * arg)
{
    double whole, timed, c0, c1;
    long s0 = prof_impl_switches();
    c0 = prof_impl_fake_read ? 0.0 : prof_impl_cpu_ns();
    /* The counters run around the whole call, their ioctls outside the
       clock reads. */
    prof_impl_bench_counters_start(&r->ctr);
    timed = prof_impl_call_target(f, arg, r->count, &whole);
    prof_impl_bench_counters_stop(&r->ctr, r->count);
    c1 = prof_impl_fake_read ? whole * ns_per_tick() : prof_impl_cpu_ns();
    if (isnan(timed))
        timed = whole;
    (void) prof_impl_run_step(r, timed, whole, c1 - c0,
                              prof_impl_switches() - s0);
}

const prof_result * prof_bench_run(prof_bench * b, const char * name,
        profile_target_t target, void * arg)
{
    prof_impl_run r;
    char buf[32];
    if (b == NULL || target == NULL)
    {
        prof_impl_warn("prof_bench_run(\"%s\"): the %s is NULL; nothing run",
                       name ? name : "(null)", b == NULL ? "suite" : "target");
        return NULL;
    }
    name = run_name(b, name, buf);
    if (name == NULL)
        return NULL;
    prof_impl_progress(b, name, b->nresults + 1, 0);
    run_init(&r, b, name, &b->s, 0);
    r.is_baseline = b->relative_next;
    while (r.phase != PH_DONE)
        run_epoch(&r, target, arg);
    return run_finish(&r);
}

int prof_bench_add(prof_bench * b, const char * name,
        profile_target_t target, void * arg)
{
    char buf[32];
    prof_impl_queued * q;
    NEED_SUITE(b, "prof_bench_add");
    if (target == NULL)
    {
        prof_impl_warn("prof_bench_add(\"%s\"): the target is NULL; not added",
                       name ? name : "(null)");
        return -1;
    }
    name = run_name(b, name, buf);
    if (name == NULL)
        return 0;
    if (b->nqueue == b->capqueue)
    {
        int cap = b->capqueue ? 2 * b->capqueue : 8;
        q = (prof_impl_queued *) realloc(b->queue, (size_t) cap * sizeof *q);
        if (q == NULL)
        {
            prof_impl_warn("prof_bench_add: out of memory");
            return -1;
        }
        b->queue = q;
        b->capqueue = cap;
    }
    q = &b->queue[b->nqueue];
    q->name = dup_string(name);
    if (q->name == NULL)
    {
        prof_impl_warn("prof_bench_add: out of memory");
        return -1;
    }
    q->target = target;
    q->arg = arg;
    q->s = b->s;
    q->is_baseline = b->relative_next;
    b->relative_next = 0;
    b->nqueue++;
    return 0;
}

int prof_bench_run_all(prof_bench * b)
{
    prof_impl_run * runs;
    int i, n, left, ran = 0, round = 0;
    NEED_SUITE(b, "prof_bench_run_all");
    n = b->nqueue;
    if (n <= 0)
        return 0;
    runs = (prof_impl_run *) calloc((size_t) n, sizeof *runs);
    if (runs == NULL)
    {
        prof_impl_warn("prof_bench_run_all: out of memory");
        return 0;
    }
    for (i = 0; i < n; i++)
    {
        run_init(&runs[i], b, b->queue[i].name, &b->queue[i].s, 0);
        runs[i].is_baseline = b->queue[i].is_baseline;
    }
    if (b->interleave)
    {
        /* Warm up and calibrate each in turn, then one measured epoch of
           each per round. */
        for (i = 0; i < n; i++)
            while (runs[i].phase != PH_DONE && runs[i].phase != PH_MEASURE)
                run_epoch(&runs[i], b->queue[i].target, b->queue[i].arg);
        /* The order within a round is shuffled every round: in a fixed
           order, a disturbance with a period near a round's length (a
           scheduler time slice, another process's timer) hits the same
           benchmark every round. Measured here: fixed order turned 1 run
           in 3 into a 4x outlier for one kernel (p-bench --stability). */
        int * order = (int *) malloc((size_t) n * sizeof *order);
        unsigned long long rng = 0x2545F4914F6CDD1DULL;
        if (order == NULL)
        {
            prof_impl_warn("prof_bench_run_all: out of memory");
            free(runs);
            return 0;
        }
        for (i = 0; i < n; i++)
            order[i] = i;
        do
        {
            prof_impl_progress(b, "interleaved rounds", ++round, b->s.epochs);
            left = 0;
            for (i = n - 1; i > 0; i--)
            {
                int j = (int) (next_uniform(&rng) * (i + 1)), t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
            for (i = 0; i < n; i++)
            {
                int k = order[i];
                if (runs[k].phase != PH_DONE)
                {
                    run_epoch(&runs[k], b->queue[k].target, b->queue[k].arg);
                    left += runs[k].phase != PH_DONE;
                }
            }
        } while (left > 0);
        free(order);
    }
    else
        for (i = 0; i < n; i++)
        {
            prof_impl_progress(b, b->queue[i].name, i + 1, n);
            while (runs[i].phase != PH_DONE)
                run_epoch(&runs[i], b->queue[i].target, b->queue[i].arg);
        }
    for (i = 0; i < n; i++)
    {
        ran += run_finish(&runs[i]) != NULL;
        free(b->queue[i].name);
    }
    b->nqueue = 0;
    free(runs);
    return ran;
}

int prof_bench_count(const prof_bench * b)
{
    return b == NULL ? 0 : b->nresults;
}

const prof_result * prof_bench_result(const prof_bench * b, int i)
{
    if (b == NULL || i < 0 || i >= b->nresults)
        return NULL;
    return &b->results[i]->pub;
}

double prof_result_percentile(const prof_result * r, double p)
{
    double * sorted, v;
    if (r == NULL || r->epochs < 1 || !(p >= 0.0 && p <= 100.0))
        return NAN;
    sorted = (double *) malloc((size_t) r->epochs * sizeof *sorted);
    if (sorted == NULL)
        return NAN;
    memcpy(sorted, r->samples_ns, (size_t) r->epochs * sizeof *sorted);
    prof_impl_sort(sorted, r->epochs);
    v = prof_impl_quantile(sorted, r->epochs, p / 100.0);
    free(sorted);
    return v;
}

/* ---- the loop macro ------------------------------------------------------ */

prof_loop prof_impl_loop_begin(prof_bench * b, const char * name)
{
    prof_loop l;
    prof_impl_run * r;
    char buf[32];
    l.iterations = 0;
    l.impl = NULL;
    if (b == NULL)
    {
        prof_impl_warn("PROF_BENCH_LOOP(\"%s\"): the suite is NULL; the code "
                       "is not run", name ? name : "(null)");
        return l;
    }
    name = run_name(b, name, buf);
    if (name == NULL)
        return l;
    r = (prof_impl_run *) malloc(sizeof *r);
    if (r == NULL)
    {
        prof_impl_warn("PROF_BENCH_LOOP: out of memory");
        return l;
    }
    prof_impl_progress(b, name, b->nresults + 1, 0);
    {
        char * copy = dup_string(name);
        run_init(r, b, copy ? copy : "", &b->s, 1);
        r->owned_name = copy;
    }
    r->is_baseline = b->relative_next;
    r->started = 0;
    l.impl = r;
    return l;
}

int prof_impl_loop_next(prof_loop * l)
{
    double t1 = prof_impl_read(), c1;
    prof_impl_run * r = (prof_impl_run *) l->impl;
    if (r == NULL)
        return 0;
    if (r->started)
        prof_impl_bench_counters_stop(&r->ctr, r->count); /* after the clock read */
    c1 = prof_impl_fake_read ? 0.0 : prof_impl_cpu_ns();
    if (r->started)
    {
        double timed = t1 - r->t0;
        double cpu = prof_impl_fake_read ? timed * ns_per_tick()
                                         : c1 - r->c0;
        if (!prof_impl_run_step(r, timed, timed, cpu,
                                prof_impl_switches() - r->sw0))
        {
            run_finish(r);
            free(r->owned_name);
            free(r);
            l->impl = NULL;
            return 0;
        }
    }
    else if (r->phase == PH_DONE)
    {
        free(r->samples); free(r->iters); free(r->cpu_samples);
        free(r->ev_samples);
        free(r->owned_name);
        free(r);
        l->impl = NULL;
        return 0;
    }
    r->started = 1;
    l->iterations = r->count;
    r->sw0 = prof_impl_switches();
    r->c0 = prof_impl_fake_read ? 0.0 : prof_impl_cpu_ns();
    prof_impl_bench_counters_start(&r->ctr);        /* before the clock read */
    r->t0 = prof_impl_read();
    return 1;
}

/* Where PROF_DO_NOT_OPTIMIZE sends its pointer on compilers without asm. */
const void * volatile prof_impl_escape_sink;

void prof_impl_escape(const void * p)
{
    prof_impl_escape_sink = p;
}

/* ---- the paired comparison ----------------------------------------------- */

prof_comparison prof_bench_compare(prof_bench * b,
        const char * name_a, profile_target_t a, void * arg_a,
        const char * name_b, profile_target_t b_target, void * arg_b)
{
    prof_comparison c;
    prof_impl_run ra, rb;
    double * ratio;
    int i, n, above = 0, below = 0, k;

    memset(&c, 0, sizeof c);
    c.median_a_ns = c.median_b_ns = c.ratio = c.ci_low = c.ci_high = NAN;
    c.ci_level = NAN;
    c.p_value = NAN;
    if (b == NULL || a == NULL || b_target == NULL)
    {
        prof_impl_warn("prof_bench_compare: the %s is NULL; nothing compared",
                       b == NULL ? "suite" : "target");
        return c;
    }
    if (name_a == NULL) name_a = "a";
    if (name_b == NULL) name_b = "b";
    run_init(&ra, b, name_a, &b->s, 0);
    run_init(&rb, b, name_b, &b->s, 0);
    while (ra.phase != PH_DONE && ra.phase != PH_MEASURE)
        run_epoch(&ra, a, arg_a);
    while (rb.phase != PH_DONE && rb.phase != PH_MEASURE)
        run_epoch(&rb, b_target, arg_b);
    /* Rounds: a then b, then b then a, so neither always goes first. */
    for (i = 0; ra.phase != PH_DONE || rb.phase != PH_DONE; i++)
    {
        if (i % 2 == 0)
        {
            if (ra.phase != PH_DONE) run_epoch(&ra, a, arg_a);
            if (rb.phase != PH_DONE) run_epoch(&rb, b_target, arg_b);
        }
        else
        {
            if (rb.phase != PH_DONE) run_epoch(&rb, b_target, arg_b);
            if (ra.phase != PH_DONE) run_epoch(&ra, a, arg_a);
        }
    }
    n = ra.got < rb.got ? ra.got : rb.got;
    ratio = (double *) malloc((size_t) (n > 0 ? n : 1) * sizeof *ratio);
    if (ratio != NULL && n > 0)
    {
        for (i = 0; i < n; i++)
        {
            /* a's epoch at 0 (work below the counter overhead): b/a is
               infinite, or 1 if b's is 0 too. NaN here made the ratio NaN
               and qsort's order undefined (NaN compares as equal to all). */
            ratio[i] = ra.samples[i] > 0.0 ? rb.samples[i] / ra.samples[i]
                     : rb.samples[i] > 0.0 ? INFINITY : 1.0;
            above += rb.samples[i] > ra.samples[i];
            below += rb.samples[i] < ra.samples[i];
        }
        prof_impl_sort(ratio, n);
        c.rounds = n;
        c.ratio = prof_impl_quantile(ratio, n, 0.5);
        prof_impl_median_interval(ratio, n, 0.95, &c.ci_low, &c.ci_high,
                                  &c.ci_level);
        /* two-sided sign test; ties carry no sign and are dropped */
        k = above < below ? above : below;
        c.p_value = above + below == 0 ? 1.0
                  : 2.0 * prof_impl_binom_cdf_half(above + below, k);
        if (c.p_value > 1.0)
            c.p_value = 1.0;
        c.significant = c.ci_low > 1.0 || c.ci_high < 1.0;
        prof_impl_sort(ra.samples, ra.got);
        prof_impl_sort(rb.samples, rb.got);
        c.median_a_ns = prof_impl_quantile(ra.samples, ra.got, 0.5);
        c.median_b_ns = prof_impl_quantile(rb.samples, rb.got, 0.5);
    }
    else if (ratio == NULL)
        prof_impl_warn("prof_bench_compare: out of memory");
    /* Markdown only: a text line in a CSV or JSON output made the file
       unreadable (the results are written after it). */
    if (b->format == PROF_FORMAT_MD && b->out != NULL && n > 0)
    {
        fprintf(b->out, "%s: %.4g %s/%s vs %s: %.4g: ratio %.4f [%.4f, %.4f] "
                "over %d rounds, sign test p = %.3g: %s\n",
                name_a, c.median_a_ns / b->time_unit_ns, b->time_unit,
                b->s.unit, name_b, c.median_b_ns / b->time_unit_ns, c.ratio,
                c.ci_low, c.ci_high, n, c.p_value,
                c.significant ? (c.ratio > 1.0 ? "b is slower, significant"
                                                : "b is faster, significant")
                              : "no significant difference");
        fflush(b->out);
    }
    free(ratio);
    free(ra.samples); free(ra.iters); free(ra.cpu_samples); free(ra.ev_samples);
    free(rb.samples); free(rb.iters); free(rb.cpu_samples); free(rb.ev_samples);
    return c;
}
