/*
    A finished run as a result: the median and its interval, the spread,
    the warnings that say when a figure is not to be trusted, and the
    event counts per unit. Pure functions of the run's samples.
    SPDX-License-Identifier: MIT
*/
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void prof_impl_result_free(prof_impl_result * r)
{
    if (r == NULL)
        return;
    free(r->name);
    free(r->samples);
    free(r->cpu);
    free(r->iters);
    free(r->ev);
    free(r->process);
    free(r->process_median);
    free(r->user);
    free(r);
}

void prof_impl_epochs_free(prof_impl_epochs * e)
{
    free(e->samples);
    free(e->cpu);
    free(e->iters);
    free(e->process);
    free(e->ev);
    free(e->user);
    e->samples = e->cpu = e->ev = e->user = NULL;
    e->iters = NULL;
    e->process = NULL;
}

int prof_impl_derive(const char * const * names, int n, const double * v,
        double * ipc, double * miss_pct)
{
    int k, ins = -1, cyc = -1, bra = -1, miss = -1, can = 0;
    for (k = 0; k < n; k++)
    {
        if (strcmp(names[k], "instructions") == 0) ins = k;
        if (strcmp(names[k], "cycles") == 0) cyc = k;
        if (strcmp(names[k], "branches") == 0) bra = k;
        if (strcmp(names[k], "branch-misses") == 0) miss = k;
    }
    if (ins >= 0 && cyc >= 0)
        can |= PROF_IMPL_HAS_IPC;
    if (bra >= 0 && miss >= 0)
        can |= PROF_IMPL_HAS_MISS;
    if (ipc != NULL)
        *ipc = (can & PROF_IMPL_HAS_IPC) && v[cyc] > 0.0 ? v[ins] / v[cyc]
                                                         : NAN;
    if (miss_pct != NULL)
        *miss_pct = (can & PROF_IMPL_HAS_MISS) && v[bra] > 0.0
                  ? 100.0 * v[miss] / v[bra] : NAN;
    return can;
}

/* Append text to the warning in buf. */
static void append(char * buf, size_t size, const char * text)
{
    size_t n = strlen(buf);
    if (n + 1 < size)
        prof_impl_copy(buf + n, size - n, text);
}

/* The median of column k of v[rows][cols], NaN cells left out (NaN if
   all are); work has room for the rows. */
static double column_median(const double * v, int rows, int cols, int k,
        double * work)
{
    int i, m;
    for (i = m = 0; i < rows; i++)
        if (!isnan(v[i * cols + k]))
            work[m++] = v[i * cols + k];
    return m > 0 ? prof_impl_median(work, m) : NAN;
}

/* The per-unit median over the measured epochs of each counted event (NaN
   epochs left out: a failed read), IPC and branch-miss % from those
   medians; work has room for the epochs. */
static void counter_results(prof_impl_result * res, prof_impl_epochs * e,
        double * work)
{
    prof_result * p = &res->pub;
    int k, n = e->got, nev = e->nev;
    res->nev = nev;
    res->ev = e->ev;
    e->ev = NULL;
    for (k = 0; k < nev; k++)
    {
        res->ev_names[k] = e->ev_names[k];
        res->ev_median[k] = column_median(res->ev, n, nev, k, work);
    }
    p->ncounters = nev;
    p->counter_names = nev > 0 ? res->ev_names : NULL;
    p->counters = nev > 0 ? res->ev_median : NULL;
    prof_impl_derive(res->ev_names, nev, res->ev_median, &p->ipc,
                     &p->branch_miss_pct);
}

/* The user measures and counters: each epoch's amount as reported (per
   unit, or per second of the epoch's time with PROF_USER_RATE) and the
   median over the epochs that have one. */
static void user_results(prof_impl_result * res, prof_impl_epochs * e,
        double * work)
{
    prof_result * p = &res->pub;
    int i, k, n = e->got, nu = e->nuser;
    res->nuser = nu;
    res->user = e->user;
    e->user = NULL;
    for (k = 0; k < nu; k++)
    {
        res->user_cols[k] = e->user_cols[k];
        res->user_names[k] = res->user_cols[k].name;
        res->user_units[k] = res->user_cols[k].unit;
        res->user_flags[k] = res->user_cols[k].flags;
        for (i = 0; (res->user_flags[k] & PROF_USER_RATE) && i < n; i++)
        {
            /* per unit / ns per unit: per ns of the epoch's time */
            double * v = &res->user[i * nu + k];
            *v = res->samples[i] > 0.0 ? *v / res->samples[i] * 1e9 : NAN;
        }
        res->user_median[k] = column_median(res->user, n, nu, k, work);
    }
    p->nuser = nu;
    p->user_names = nu > 0 ? res->user_names : NULL;
    p->user_units = nu > 0 ? res->user_units : NULL;
    p->user_flags = nu > 0 ? res->user_flags : NULL;
    p->user = nu > 0 ? res->user_median : NULL;
}

double prof_result_user(const prof_result * r, const char * name)
{
    int k;
    if (r == NULL || name == NULL)
    {
        prof_impl_warn("prof_result_user: the %s is NULL", r == NULL
                       ? "result" : "name");
        return NAN;
    }
    for (k = 0; k < r->nuser; k++)
        if (strcmp(r->user_names[k], name) == 0)
            return r->user[k];
    return NAN;
}

int prof_impl_result_event_index(const prof_result * r, const char * name)
{
    int k;
    for (k = 0; k < r->ncounters; k++)
        if (strcmp(r->counter_names[k], name) == 0)
            return k;
    return -1;
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
    k = prof_impl_result_event_index(r, name);
    return k >= 0 ? r->counters[k] : NAN;
}

/* The figures of the samples (sorted: the same, in order). */
static void summarise(prof_impl_result * res, const prof_impl_epochs * e,
        const double * sorted)
{
    prof_result * p = &res->pub;
    int i, n = e->got;
    p->name = res->name ? res->name : "";
    p->samples_ns = res->samples;
    p->epoch_iters = res->iters;
    p->epochs = n;
    p->median_ns = prof_impl_quantile(sorted, n, 0.5);
    p->min_ns = sorted[0];
    p->max_ns = sorted[n - 1];
    p->mean_ns = 0.0;
    p->iterations = 0;
    for (i = 0; i < n; i++)
    {
        p->mean_ns += res->samples[i];
        p->iterations += res->iters[i];
    }
    p->mean_ns /= n;
    p->preempted_epochs = e->preempted + e->cpu_timed;
    p->cpu_timed_epochs = e->cpu_timed;
    p->threads = e->s.threads > 1 ? e->s.threads : 1;
    p->iterations *= (ulong) p->threads;    /* every thread's */
    p->err_pct = prof_impl_mdape(sorted, n);
    if (!(p->err_pct >= 0.0))
        p->err_pct = 0.0;
    prof_impl_median_interval(sorted, n, PROF_CI_LEVEL, &p->ci_low_ns,
                              &p->ci_high_ns, &p->ci_level);
    p->total_s = e->spent_ns * 1e-9;
    p->overhead_ns = e->overhead_ns;
    p->batch = e->s.batch;
    prof_impl_copy(res->unit, sizeof res->unit, e->s.unit);
    p->unit = res->unit;
    prof_impl_copy(res->time_unit, sizeof res->time_unit, e->s.time_unit);
    res->time_unit_ns = prof_impl_time_unit_ns(res->time_unit);
    if (res->time_unit_ns == 0.0)       /* from a worker: checked there */
    {
        strcpy(res->time_unit, "ns");
        res->time_unit_ns = 1.0;
    }
    p->time_unit = res->time_unit;
    res->time_unit_fixed = e->s.time_unit_fixed;
    p->complexity_n = e->s.complexity_n;
    p->relative_pct = NAN;
    p->warning = res->warning;
    p->next_low_ns = p->next_high_ns = p->next_level = NAN;
    p->next_runs = 0;
    p->processes = 1;
    p->between_pct = 0.0;
    p->within_pct = p->err_pct;
    p->load_avg = e->load;
    /* said once per process, not per row (bench_suite.c) */
    if (prof_impl_machine_loaded(e->load, prof_impl_online_cores()))
        p->flags |= PROF_RESULT_LOADED;
}

/* The flag and advice for epochs kept preempted with their time inflated,
   when they are PROF_PREEMPTED_SHARE of the epochs or more. */
static void preempted_warning(prof_impl_result * res, const prof_impl_epochs * e)
{
    char line[256];
    if (e->preempted == 0 || e->preempted < PROF_PREEMPTED_SHARE * e->got)
        return;
    res->pub.flags |= PROF_RESULT_PREEMPTED;
    snprintf(line, sizeof line, "preempted: %d of %d epochs kept after the "
             "%d retries hold other processes' time (timed by prof_start/"
             "prof_stop, on threads or waiting, they cannot be timed by the "
             "time they ran); quiet the machine. ", e->preempted, e->got,
             e->s.retries);
    append(res->warning, sizeof res->warning, line);
}

/* What the budget cut: the warm-up, the epochs (n of asked). */
static void budget_warnings(prof_impl_result * res,
        const prof_impl_epochs * e, int n, int asked)
{
    char line[256];
    if (e->budget_hit & PROF_IMPL_BUDGET_WARMUP)
    {
        snprintf(line, sizeof line, "warm-up cut short by the time budget "
                 "(%g s; it may spend half): fewer than the %lu iterations "
                 "asked ran. ", e->s.budget_s, (unsigned long) e->s.warmup);
        append(res->warning, sizeof res->warning, line);
    }
    if ((e->budget_hit & PROF_IMPL_BUDGET_MEASURE) && n < asked)
    {
        res->pub.flags |= PROF_RESULT_BUDGET;
        snprintf(line, sizeof line, "stopped by the time budget (%g s) after %d of %s%d "
                "epochs; raise it with prof_bench_set_budget_s. ",
                e->s.budget_s, n, e->s.schedule == PROF_SCHEDULE_ADAPTIVE
                ? "at most " : "", asked);
        append(res->warning, sizeof res->warning, line);
    }
}

/* The flags, and the advice that goes with each into the warning. */
static void warnings(prof_impl_result * res, const prof_impl_epochs * e,
        const double * sorted)
{
    prof_result * p = &res->pub;
    int i, n = e->got, asked = e->s.epochs * e->processes;
    char line[256];
    if (e->failed > 0)
    {
        p->flags |= PROF_RESULT_PARTIAL;
        snprintf(line, sizeof line, "%d of %d worker processes failed: "
                 "their epochs are missing. ", e->failed,
                 e->processes + e->failed);
        append(res->warning, sizeof res->warning, line);
    }
    if (e->user_dropped)
    {
        snprintf(line, sizeof line, "counts added with refused user-counter "
                 "handles (a bad name, or beyond PROF_USER_COUNTERS_MAX = "
                 "%d) were dropped. ", PROF_USER_COUNTERS_MAX);
        append(res->warning, sizeof res->warning, line);
    }
    if (e->processes > 1 && p->ci_level < PROF_CI_LEVEL)
    {
        snprintf(line, sizeof line, "%d processes: the interval's level is "
                 "%.1f%% (%d give %.0f%%). ", e->processes,
                 100.0 * p->ci_level, PROF_MIN_INTERVAL_EPOCHS,
                 100.0 * PROF_CI_LEVEL);
        append(res->warning, sizeof res->warning, line);
    }
    budget_warnings(res, e, n, asked);
    if (n < PROF_MIN_INTERVAL_EPOCHS)
    {
        p->flags |= PROF_RESULT_FEW_EPOCHS;
        snprintf(line, sizeof line, "%d epoch%s: too few for an interval (%d needed). ", n,
                n == 1 ? "" : "s", PROF_MIN_INTERVAL_EPOCHS);
        append(res->warning, sizeof res->warning, line);
    }
    if (e->low_epochs * 2 > n || e->at_max_iters)
    {
        p->flags |= PROF_RESULT_RESOLUTION;
        snprintf(line, sizeof line, "an epoch of %lu iterations takes %.3g ns, under 10x "
                "the clock's resolution: is the work optimised away? "
                "(PROF_DO_NOT_OPTIMIZE). ", (unsigned long) res->iters[0],
                e->net_ns_sum / n);
        append(res->warning, sizeof res->warning, line);
    }
    if (p->err_pct > PROF_UNSTABLE_ERR_PCT)
    {
        p->flags |= PROF_RESULT_UNSTABLE;
        snprintf(line, sizeof line, "unstable: err%% %.1f%%: the epochs scatter (other "
                "load, frequency changes); the min is steadier, and "
                "prof_bench_compare pairs epochs for a comparison. ",
                p->err_pct);
        append(res->warning, sizeof res->warning, line);
    }
    preempted_warning(res, e);
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
    i = (int) strlen(res->warning);
    if (i > 0 && res->warning[i - 1] == ' ')
        res->warning[i - 1] = '\0';
}

/* With several processes: each one's median, the spread between them and
   within them, and the interval for the next run's median (the order-
   statistic interval of the median of the process medians, widened by
   sqrt(2) about it: the next run's median carries as much sampling noise
   as this one's). Returns -1 if out of memory. */
static int process_figures(prof_impl_result * res, const prof_impl_epochs * e,
        double * work)
{
    prof_result * p = &res->pub;
    int i, k, m, np = e->processes;
    double * med = (double *) malloc((size_t) np * sizeof *med);
    double * err = (double *) malloc((size_t) np * sizeof *err);
    double lo, hi;
    if (med == NULL || err == NULL)
    {
        free(med);
        free(err);
        return -1;
    }
    for (k = 0; k < np; k++)
    {
        for (i = m = 0; i < e->got; i++)
            if (res->process[i] == k)
                work[m++] = res->samples[i];
        prof_impl_sort(work, m);
        med[k] = prof_impl_quantile(work, m, 0.5);
        err[k] = m > 0 ? prof_impl_mdape(work, m) : NAN;
    }
    res->process_median = med;
    p->process_median_ns = med;
    memcpy(work, med, (size_t) np * sizeof *work);
    prof_impl_sort(work, np);
    p->median_ns = prof_impl_quantile(work, np, 0.5);
    p->between_pct = prof_impl_mdape(work, np);
    p->within_pct = prof_impl_median(err, np);
    p->processes = np;
    /* under 6 processes no order statistics reach PROF_CI_LEVEL (95%): from 3 on, the
       range [min, max] at its own level (75%, 87.5%, 93.75%) */
    if (prof_impl_median_interval(work, np, PROF_CI_LEVEL, &lo, &hi,
                                  &p->ci_level) != 0 && np >= 3)
    {
        lo = work[0];
        hi = work[np - 1];
    }
    else if (np < 3)
        lo = hi = NAN;
    p->ci_low_ns = p->median_ns - sqrt(2.0) * (p->median_ns - lo);
    p->ci_high_ns = p->median_ns + sqrt(2.0) * (hi - p->median_ns);
    for (k = 0; k < np; k++)    /* the processor time as the time */
    {
        for (i = m = 0; i < e->got; i++)
            if (res->process[i] == k)
                work[m++] = res->cpu[i];
        err[k] = prof_impl_median(work, m);
    }
    p->cpu_ns = prof_impl_median(err, np);
    free(err);
    return 0;
}

prof_impl_result * prof_impl_result_make(prof_impl_epochs * e)
{
    prof_impl_result * res;
    double * sorted = NULL;
    int n = e->got;

    res = n > 0 ? (prof_impl_result *) calloc(1, sizeof *res) : NULL;
    if (res != NULL)    /* room for the epochs and the process medians */
        sorted = (double *) malloc((size_t) (n > e->processes ? n
                                             : e->processes) * sizeof *sorted);
    if (sorted != NULL) /* a result without its name is no result */
        res->name = prof_impl_strdup(e->name);
    if (sorted == NULL || res->name == NULL || (e->process == NULL
            && (e->process = (int *) calloc((size_t) n, sizeof *e->process)) == NULL))
    {
        if (n == 0)
            prof_impl_warn("%s: no epoch ran; no result", e->name);
        else
            prof_impl_warn("%s: out of memory; result lost", e->name);
        if (res != NULL)
            free(res->name);
        free(res);
        free(sorted);
        prof_impl_epochs_free(e);
        return NULL;
    }
    /* the arrays move into the result */
    res->samples = e->samples;
    res->iters = e->iters;
    res->cpu = e->cpu;
    res->process = e->process;
    e->samples = e->cpu = NULL;
    e->iters = NULL;
    e->process = NULL;
    res->pub.epoch_process = res->process;
    memcpy(sorted, res->samples, (size_t) n * sizeof *sorted);
    prof_impl_sort(sorted, n);
    summarise(res, e, sorted);
    if (e->processes > 1 && process_figures(res, e, sorted) != 0)
        prof_impl_warn("%s: out of memory; per-process figures lost", e->name);
    if (e->processes > 1)
    {
        memcpy(sorted, res->samples, (size_t) n * sizeof *sorted);
        prof_impl_sort(sorted, n);
    }
    warnings(res, e, sorted);
    if (e->processes <= 1)      /* sorted is spent: work space */
    {
        memcpy(sorted, res->cpu, (size_t) n * sizeof *sorted);
        res->pub.cpu_ns = prof_impl_median(sorted, n);
    }
    counter_results(res, e, sorted);
    user_results(res, e, sorted);
    free(sorted);
    return res;
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
