/*
    The suite: what a benchmark program calls to run benchmarks
    (prof_bench_run, the queue of prof_bench_add and prof_bench_run_all,
    interleaved or not, the loop macro) and the results it keeps.
    SPDX-License-Identifier: MIT
*/
#include "report.h"         /* the families of size sweeps */
#include "history.h"        /* the next-run interval */

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Suites made so far: their numbers, the same in the parent and workers. */
static int suites_made;

prof_bench * prof_impl_bench_new(int optimized, int sanitized,
        const char * compiler, const char * flags)
{
    prof_bench * b = (prof_bench *) calloc(1, sizeof *b);
    if (b == NULL)
    {
        prof_impl_warn("prof_bench_new: out of memory");
        return NULL;
    }
    prof_impl_settings_default(&b->s);
    prof_impl_gbench_default(b);
    b->interleave = 0;
    b->baseline = -1;
    b->console.format = PROF_FORMAT_MD;
    prof_impl_output_set(b, stdout);
    b->optimized = optimized;
    b->sanitized = sanitized;
    prof_impl_copy(b->compiler, sizeof b->compiler, compiler ? compiler : "");
    prof_impl_copy(b->flags, sizeof b->flags, flags ? flags : "");
    b->overhead_ticks = -1.0;
    b->terminal = -1;
    b->started_ns = prof_impl_now_ns();
    b->processes = 1;
    b->s.measures = b->measures;
    b->suite_number = suites_made++;
    b->worker = prof_impl_worker_mode();
    if (b->worker)
    {
        /* the parent prints and writes: a worker only sends its epochs */
        b->console.format = PROF_FORMAT_NONE;
        prof_impl_output_set(b, NULL);
    }
    return b;
}

void prof_bench_free(prof_bench * b)
{
    int i;
    if (b == NULL)
        return;
    prof_bench_finish(b);
    for (i = 0; i < b->nresults; i++)
        prof_impl_result_free(b->results[i]);
    free(b->results);
    for (i = 0; i < b->nqueue; i++)
        free(b->queue[i].name);
    free(b->queue);
    prof_impl_filter_free(b);
    prof_impl_output_forget(b);
    free(b->file.path);
    free(b->cli_sizes);
    free(b->history_path);
    prof_impl_history_free(b->history);
    prof_impl_gbench_free(b);
    free(b);
}

const char * prof_impl_run_name(prof_bench * b, const char * name,
        int threads, char * buf)
{
    if (name == NULL)
    {
        sprintf(buf, "benchmark %d", b->nresults + b->nqueue + 1);
        prof_impl_warn("benchmark name is NULL; named \"%s\"", buf);
        name = buf;
    }
    if (threads > 1)
    {
        char copy[PROF_IMPL_NAME_BUF];
        prof_impl_copy(copy, sizeof copy, name);
        snprintf(buf, PROF_IMPL_NAME_BUF, "%.600s/threads:%d", copy, threads);
        name = buf;
    }
    if (prof_impl_filter_match(b, name))
    {
        b->matched++;
        return name;
    }
    b->filtered++;
    if (b->relative_next)
    {
        /* the next run would be measured against another baseline */
        prof_impl_warn("the baseline \"%s\" is filtered out: the relative "
                       "figures are n/a", name);
        b->relative_next = 0;
        b->baseline = PROF_IMPL_BASELINE_FILTERED;
    }
    return NULL;
}

int prof_impl_listed(const prof_bench * b, const char * name)
{
    if (!b->list_only)
        return 0;
    printf("%s\n", name);
    fflush(stdout);
    return 1;
}

double prof_impl_suite_overhead(prof_bench * b)
{
    if (b->overhead_ticks < 0.0 || b->fake_seen != (prof_impl_fake_read != NULL))
    {
        (void) prof_impl_cpu_read_cost();   /* once, before any epoch */
        b->overhead_ticks = prof_impl_read_overhead();
        b->fake_seen = prof_impl_fake_read != NULL;
    }
    return b->overhead_ticks;
}

/* The first result measured under a load over the cores: said once per
   process (the rows are marked). */
static void said_loaded(const prof_result * p)
{
    static int said;
    if (said)
        return;
    said = 1;
    prof_impl_warn("%s: measured while the load average (%.2f) exceeded the "
                   "%d cores: figures measured so include other processes' "
                   "time, and their rows are marked loaded (doc/runner.md, "
                   "\"Quiet figures\"; --check)", p->name, p->load_avg,
                   prof_impl_online_cores());
}

static int add_result(prof_bench * b, prof_impl_result * res)
{
    if (prof_impl_grow(&b->results, &b->capresults, (size_t) b->nresults + 1,
                       sizeof *b->results) != 0)
        return -1;
    b->results[b->nresults++] = res;
    return 0;
}

/* The row result p is compared with: the baseline, but in a size sweep
   (both have an N) the baseline family's row of p's N; NULL if it has
   none (n/a). */
static const prof_result * baseline_row(const prof_bench * b,
        const prof_result * p)
{
    const prof_result * base = &b->results[b->baseline]->pub;
    int i;
    if (!(base->complexity_n > 0.0 && p->complexity_n > 0.0))
        return base;
    for (i = b->baseline; i < b->nresults; i++)
    {
        const prof_result * q = &b->results[i]->pub;
        if (q->complexity_n == p->complexity_n
            && prof_impl_same_family(q->name, base->name))
            return q;
    }
    return NULL;
}

/* p's relative_pct: 100 x the baseline row's median / p's (> 100%:
   faster), NaN without a row to compare with. */
static void set_relative(const prof_bench * b, prof_result * p)
{
    const prof_result * base = baseline_row(b, p);
    p->relative_pct = base != NULL && p->median_ns > 0.0
                    ? 100.0 * base->median_ns / p->median_ns : NAN;
}

/* The relative figures of a new result p, and, when it is a row of the
   baseline family, of earlier rows of its N that had none (an
   interleaved suite ends them in any order). */
static void relative_figures(const prof_bench * b, prof_result * p)
{
    int i;
    if (b->baseline < 0)    /* relative_pct stays NaN when filtered out */
        return;
    set_relative(b, p);
    if (!(p->complexity_n > 0.0) || baseline_row(b, p) != p)
        return;
    for (i = b->baseline + 1; i < b->nresults; i++)
        if (isnan(b->results[i]->pub.relative_pct)
            && b->results[i]->pub.complexity_n == p->complexity_n)
            set_relative(b, &b->results[i]->pub);
}

/* p's next-run interval, from the history opened with the suite's first
   result (none in a worker: its parent keeps it). */
static void history_apply(prof_bench * b, prof_result * p)
{
    char buf[4096];
    if (b->history_state == 0 && !prof_impl_worker_mode())
        b->history = prof_impl_history_open(b->history_path != NULL
                ? b->history_path : prof_impl_history_default(buf, sizeof buf));
    b->history_state = 1;
    prof_impl_history_apply(b->history, p);
}

const prof_result * prof_impl_suite_finish_epochs(prof_bench * b,
        prof_impl_epochs * e)
{
    prof_impl_result * res = prof_impl_result_make(e);
    prof_result * p;
    if (res == NULL)
        return NULL;
    if (add_result(b, res) != 0)
    {
        prof_impl_warn("%s: out of memory; result lost", e->name);
        prof_impl_result_free(res);
        return NULL;
    }
    p = &res->pub;
    history_apply(b, p);
    if (e->is_baseline)
    {
        b->baseline = b->nresults - 1;
        b->relative_next = 0;
    }
    relative_figures(b, p);
    /* the row first: the context and header come before any advice */
    prof_impl_output_row(b, b->nresults - 1);
    if (res->warning[0] != '\0' && !prof_impl_worker_mode())
        prof_impl_warn("%s: %s", p->name, res->warning);
    if ((p->flags & PROF_RESULT_LOADED) && !prof_impl_worker_mode())
        said_loaded(p);
    return p;
}

const prof_result * prof_impl_suite_finish_run(prof_bench * b,
        prof_impl_run * r, int index)
{
    prof_impl_epochs e;
    prof_impl_run_take(r, &e);
    e.load = prof_impl_run_load();
    prof_impl_worker_send(b, index, &e, NULL);
    return prof_impl_suite_finish_epochs(b, &e);
}

/* Benchmark index of the suite from the worker processes' epochs. */
static const prof_result * from_workers(prof_bench * b, int index,
        const char * name, int baseline)
{
    prof_impl_epochs e;
    (void) prof_impl_suite_overhead(b);     /* for the context line */
    if (prof_impl_workers_take(b, index, name, &e) != 0)
    {
        /* interrupted: what the workers finished is answered; here the
           run ends */
        PROF_IMPL_INTERRUPT_POLL();
        return NULL;
    }
    e.is_baseline = baseline;
    return prof_impl_suite_finish_epochs(b, &e);
}

static void start_run(prof_bench * b, prof_impl_run * r, const char * name,
        const prof_impl_settings * s, prof_impl_run_kind kind, int baseline)
{
    prof_impl_run_init(r, name, s, kind, prof_impl_suite_overhead(b));
    r->is_baseline = baseline;
}

const prof_result * prof_bench_run(prof_bench * b, const char * name,
        profile_target_t target, void * arg)
{
    prof_impl_run r;
    char buf[PROF_IMPL_NAME_BUF];
    int index;
    if (b == NULL || target == NULL)
    {
        prof_impl_warn("prof_bench_run(\"%s\"): the %s is NULL; nothing run",
                       name ? name : "(null)", b == NULL ? "suite" : "target");
        return NULL;
    }
    name = prof_impl_run_name(b, name, b->s.threads, buf);
    if (name == NULL || prof_impl_listed(b, name))
        return NULL;
    index = b->nbench++;
    if (prof_impl_workers_ready(b))
        return from_workers(b, index, name, b->relative_next);
    PROF_IMPL_INTERRUPT_POLL();     /* one that came in the program's code */
    if (b->sweep_total > 0)     /* a size of a sweep (bench_sizes.c) */
        prof_impl_progress(b, name, b->sweep_done + 1, b->sweep_total);
    else
        prof_impl_progress(b, name, b->nresults + 1, 0);
    prof_impl_worker_begin(b, index, name);
    start_run(b, &r, name, &b->s, PROF_IMPL_RUN_FUNCTION, b->relative_next);
    while (r.phase != PH_DONE)
    {
        prof_impl_run_epoch(&r, target, arg);
        PROF_IMPL_INTERRUPT_POLL();
    }
    return prof_impl_suite_finish_run(b, &r, index);
}

const prof_result * prof_bench_run_threads(prof_bench * b, const char * name,
        profile_target_t target, void * arg, int threads)
{
    const prof_result * r;
    int saved = b != NULL ? b->s.threads : 1;
    if (prof_bench_set_threads(b, threads) != 0)
    {
        prof_impl_warn("prof_bench_run_threads(\"%s\"): nothing run",
                       name ? name : "(null)");
        return NULL;
    }
    r = prof_bench_run(b, name, target, arg);
    b->s.threads = saved;
    return r;
}

int prof_bench_add(prof_bench * b, const char * name,
        profile_target_t target, void * arg)
{
    char buf[PROF_IMPL_NAME_BUF];
    prof_impl_queued * q;
    PROF_IMPL_NEED_SUITE(b, "prof_bench_add");
    if (target == NULL)
    {
        prof_impl_warn("prof_bench_add(\"%s\"): the target is NULL; not added",
                       name ? name : "(null)");
        return -1;
    }
    name = prof_impl_run_name(b, name, b->s.threads, buf);
    if (name == NULL)
        return 0;
    if (prof_impl_grow(&b->queue, &b->capqueue, (size_t) b->nqueue + 1,
                       sizeof *b->queue) != 0
        || (b->queue[b->nqueue].name = prof_impl_strdup(name)) == NULL)
    {
        prof_impl_warn("prof_bench_add: out of memory");
        return -1;
    }
    q = &b->queue[b->nqueue++];
    q->target = target;
    q->arg = arg;
    q->s = b->s;
    q->is_baseline = b->relative_next;
    b->relative_next = 0;
    return 0;
}

/* One measured epoch of each run per round, in an order shuffled every
   round: in a fixed order, a disturbance with a period near a round's
   length (a scheduler time slice, another process's timer) hits the same
   benchmark every round. Measured here: fixed order turned 1 run in 3
   into a 4x outlier for one kernel (p-bench --stability). */
static int interleaved_rounds(prof_bench * b, prof_impl_run * runs, int n,
        int base)
{
    unsigned long long rng = 0x2545F4914F6CDD1DULL;
    int * order = (int *) malloc((size_t) n * sizeof *order);
    int i, left, round = 0;
    if (order == NULL)
        return -1;
    for (i = 0; i < n; i++)
    {
        order[i] = i;
        prof_impl_worker_begin(b, base + i, runs[i].name);
        prof_impl_run_calibrate(&runs[i], b->queue[i].target, b->queue[i].arg);
    }
    do
    {
        prof_impl_progress(b, "interleaved rounds", ++round, b->s.epochs);
        left = 0;
        for (i = n - 1; i > 0; i--)
        {
            int j = (int) (prof_impl_uniform(&rng) * (i + 1)), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        for (i = 0; i < n; i++)
        {
            prof_impl_run * r = &runs[order[i]];
            if (r->phase != PH_DONE)
            {
                prof_impl_worker_begin(b, base + order[i], r->name);
                prof_impl_run_epoch(r, b->queue[order[i]].target,
                                    b->queue[order[i]].arg);
                left += r->phase != PH_DONE;
            }
            PROF_IMPL_INTERRUPT_POLL();
        }
    } while (left > 0);
    free(order);
    return 0;
}

/* The queue from the worker processes' epochs. */
static int run_all_from_workers(prof_bench * b, int base)
{
    int i, ran = 0;
    for (i = 0; i < b->nqueue; i++)
        ran += from_workers(b, base + i, b->queue[i].name,
                            b->queue[i].is_baseline) != NULL;
    return ran;
}

/* The queue in this process: one after the other, or interleaved. */
static int run_all_here(prof_bench * b, int base)
{
    prof_impl_run * runs;
    int i, n = b->nqueue, ran = 0;
    runs = (prof_impl_run *) calloc((size_t) n, sizeof *runs);
    if (runs == NULL)
    {
        prof_impl_warn("prof_bench_run_all: out of memory");
        return 0;
    }
    for (i = 0; i < n; i++)
        start_run(b, &runs[i], b->queue[i].name, &b->queue[i].s,
                  PROF_IMPL_RUN_FUNCTION, b->queue[i].is_baseline);
    if (!b->interleave)
        for (i = 0; i < n; i++)
        {
            prof_impl_progress(b, b->queue[i].name, i + 1, n);
            prof_impl_worker_begin(b, base + i, b->queue[i].name);
            while (runs[i].phase != PH_DONE)
            {
                prof_impl_run_epoch(&runs[i], b->queue[i].target,
                                    b->queue[i].arg);
                PROF_IMPL_INTERRUPT_POLL();
            }
        }
    else if (interleaved_rounds(b, runs, n, base) != 0)
    {
        prof_impl_warn("prof_bench_run_all: out of memory");
        for (i = 0; i < n; i++)
            prof_impl_run_free(&runs[i]);
        free(runs);
        return 0;
    }
    for (i = 0; i < n; i++)
        ran += prof_impl_suite_finish_run(b, &runs[i], base + i) != NULL;
    free(runs);
    return ran;
}

int prof_bench_run_all(prof_bench * b)
{
    int i, ran, base;
    PROF_IMPL_NEED_SUITE(b, "prof_bench_run_all");
    if (b->nqueue <= 0)
        return 0;
    for (i = 0; b->list_only && i < b->nqueue; i++)
        prof_impl_listed(b, b->queue[i].name);
    base = b->nbench;
    b->nbench += b->nqueue;
    if (!b->list_only && !prof_impl_workers_ready(b))
        PROF_IMPL_INTERRUPT_POLL();
    ran = b->list_only ? 0
        : prof_impl_workers_ready(b) ? run_all_from_workers(b, base)
        : run_all_here(b, base);
    for (i = 0; i < b->nqueue; i++)
        free(b->queue[i].name);
    b->nqueue = 0;
    return ran;
}

int prof_bench_finish(prof_bench * b)
{
    int rc;
    if (b == NULL)
        return -1;
    prof_impl_status_clear();
    /* a signal noted (in the program's code, or answered from the workers
       that ran to the end): the run was cut short, the file says so */
    PROF_IMPL_INTERRUPT_POLL();
    if (b->nqueue > 0)
    {
        prof_impl_warn("%d benchmark%s added but not run: call "
                       "prof_bench_run_all; running them now", b->nqueue,
                       b->nqueue == 1 ? "" : "s");
        prof_bench_run_all(b);
    }
    rc = prof_impl_output_finish(b);
    if (b->history != NULL && b->nresults > b->history_saved)
    {
        (void) prof_impl_history_save(b->history,
                b->results + b->history_saved, b->nresults - b->history_saved);
        b->history_saved = b->nresults;
    }
    return rc;
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

/* ---- the loop macro ------------------------------------------------------ */

/* A loop macro's run: the suite it reports to, and its own name. */
typedef struct
{
    prof_impl_run r;
    prof_bench * b;
    int index;          /* the benchmark's number in the suite */
} loop_run;

prof_loop prof_impl_loop_begin(prof_bench * b, const char * name)
{
    prof_loop l;
    loop_run * lr;
    prof_impl_settings s;
    char buf[PROF_IMPL_NAME_BUF];
    l.iterations = 0;
    l.impl = NULL;
    if (b == NULL)
    {
        prof_impl_warn("PROF_BENCH_LOOP(\"%s\"): the suite is NULL; the code "
                       "is not run", name ? name : "(null)");
        return l;
    }
    name = prof_impl_run_name(b, name, 1, buf);
    if (name == NULL || prof_impl_listed(b, name))
        return l;
    s = b->s;
    if (s.threads > 1 && !prof_impl_worker_mode())   /* said once */
        prof_impl_warn("PROF_BENCH_LOOP(\"%s\"): inline code runs on one "
                       "thread; the %d threads of prof_bench_set_threads are "
                       "for function targets", name, s.threads);
    s.threads = 1;
    if (prof_impl_workers_ready(b))
    {
        /* the workers ran the code: the result is theirs, the body is
           not run here */
        from_workers(b, b->nbench++, name, b->relative_next);
        return l;
    }
    PROF_IMPL_INTERRUPT_POLL();     /* one that came in the program's code */
    lr = (loop_run *) malloc(sizeof *lr);
    if (lr == NULL)
    {
        prof_impl_warn("PROF_BENCH_LOOP: out of memory");
        return l;
    }
    prof_impl_progress(b, name, b->nresults + 1, 0);
    {
        char * copy = prof_impl_strdup(name);
        start_run(b, &lr->r, copy ? copy : "", &s, PROF_IMPL_RUN_LOOP,
                  b->relative_next);
        lr->r.owned_name = copy;
    }
    lr->b = b;
    lr->index = b->nbench++;
    lr->r.started = 0;
    prof_impl_worker_begin(b, lr->index, lr->r.name);
    l.impl = lr;
    return l;
}

static int loop_end(prof_loop * l, loop_run * lr, int finished)
{
    if (finished)
        prof_impl_suite_finish_run(lr->b, &lr->r, lr->index);
    prof_impl_run_free(&lr->r);
    free(lr->r.owned_name);
    free(lr);
    l->impl = NULL;
    return 0;
}

int prof_impl_loop_next(prof_loop * l)
{
    double t1 = prof_impl_read(), c1;
    loop_run * lr = (loop_run *) l->impl;
    prof_impl_run * r;
    if (lr == NULL)
        return 0;
    r = &lr->r;
    c1 = prof_impl_epoch_cpu();
    if (r->started)
    {
        prof_impl_epoch ep;
        long waits;
        prof_impl_bench_counters_stop(&r->ctr, r->count); /* after the clock reads */
        ep.timed_ticks = ep.whole_ticks = t1 - r->t0;
        ep.cpu_ns = prof_impl_epoch_cpu_ns(r->c0, c1, ep.timed_ticks);
        ep.switches = prof_impl_switch_counts(&waits) - r->sw0;
        ep.ran_alone = waits == r->wait0;
        prof_impl_user_harvest(r->user.epoch);
        prof_impl_measures_stop(&r->user);
        if (!prof_impl_run_step(r, &ep))
            return loop_end(l, lr, 1);
        PROF_IMPL_INTERRUPT_POLL();         /* between epochs: untimed */
    }
    else if (r->phase == PH_DONE)
        return loop_end(l, lr, 0);
    r->started = 1;
    l->iterations = r->count;
    prof_impl_measures_start(&r->user);
    prof_impl_user_reset();
    r->sw0 = prof_impl_switch_counts(&r->wait0);
    prof_impl_bench_counters_start(&r->ctr);        /* before the clock read */
    r->c0 = prof_impl_epoch_cpu();
    r->t0 = prof_impl_read();
    return 1;
}

/* Where PROF_DO_NOT_OPTIMIZE sends its pointer on compilers without asm. */
const void * volatile prof_impl_escape_sink;

void prof_impl_escape(const void * p)
{
    prof_impl_escape_sink = p;
}
