/*
    Internal: the suite's and a run's state, shared by bench.c and
    report.c. Not installed.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_BENCH_H
#define PROF_BENCH_H

#include "internal.h"

#include <errno.h>
#if defined(_WIN32)
/* No POSIX <regex.h> on Windows (MinGW, MSVC): there the filter is a plain
   substring of the name. */
typedef struct { char * text; } prof_impl_regex;
#else
# include <regex.h>
typedef regex_t prof_impl_regex;
#endif

typedef struct
{
    int epochs;
    double min_epoch_ns, max_epoch_ns, resolution_multiple;
    ulong min_iters, exact_iters, warmup;
    int retries;
    double budget_s, jitter, batch;
    char unit[32];
    double complexity_n;
    char counters[256];     /* event list; "" = counters off */
} prof_impl_settings;

/* The runner's event counters (bench_counters.c). One prof_counters_t per
   process, opened by the first run that asks for counters and closed at
   exit; each run maps the events it asks for onto it. */
typedef struct
{
    int n;                              /* events asked for (0: off) */
    int active;                         /* the set counts this thread */
    int idx[PROF_COUNTERS_MAX];         /* index in the set, -1: n/a */
    const char * names[PROF_COUNTERS_MAX];  /* perf stat names (static) */
    double epoch[PROF_COUNTERS_MAX];    /* the last epoch's counts, overhead
                                           subtracted; NaN if n/a */
} prof_impl_run_counters;

/* Set rc up for the events of list ("" or NULL: off, no perf call). Opens
   the process's set on first use. */
void prof_impl_bench_counters_init(prof_impl_run_counters * rc,
        const char * list);
/* Start counting (before the epoch's first clock read) / stop and fill
   rc->epoch (after its last). Nothing when rc->n == 0. */
void prof_impl_bench_counters_start(const prof_impl_run_counters * rc);
void prof_impl_bench_counters_stop(prof_impl_run_counters * rc,
        ulong iterations);
/* An epoch's count from the running totals a (before) and b (after):
   the raw difference scaled by the differences of time enabled / time
   running (multiplexing), minus overhead, at least 0; NaN for an unknown
   count or an event that was enabled but never ran during the epoch. */
double prof_impl_bench_counters_delta(const prof_counter_value_t * a,
        const prof_counter_value_t * b, double overhead);
/* Tests: when set, no event set is opened and every event asked for reads
   as fake(name, iterations) per epoch (NaN: unavailable), with no overhead
   subtracted, so that the aggregation is checked exactly. */
extern double (*prof_impl_fake_counts)(const char * event, ulong iterations);
/* The process set's context line (prof_counters_context) into buf; 0 if
   the set was never opened (buf ""), else 1. */
int prof_impl_bench_counters_context(char * buf, size_t size);

/* A result and the storage its pointers refer to. */
typedef struct
{
    prof_result pub;
    char * name;
    double * samples;
    double * cpu;       /* processor time per unit of each epoch [ns] */
    ulong * iters;
    char unit[32];
    char warning[768];
    int nev;
    const char * ev_names[PROF_COUNTERS_MAX];
    double ev_median[PROF_COUNTERS_MAX];  /* per unit */
    double * ev;        /* per unit, epoch k event i at ev[k * nev + i] */
    int written;        /* already written by prof_bench_finish */
} prof_impl_result;

typedef struct
{
    char * name;
    profile_target_t target;
    void * arg;
    prof_impl_settings s;
    int is_baseline;
} prof_impl_queued;

enum { PH_OVERHEAD, PH_WARMUP, PH_CALIBRATE, PH_MEASURE, PH_DONE };

/* One benchmark being run. */
typedef struct
{
    prof_bench * b;
    prof_impl_settings s;
    const char * name;
    char * owned_name;
    int is_loop, is_baseline, phase, started;
    ulong count, base;
    double pair_ticks, overhead_ticks, target_ticks, budget_ticks;
    double spent_ticks, net_ticks_sum, best_iter_ticks, cpu_ns_sum;
    double oh[16];
    int noh, got, low_epochs, budget_hit, calibration_epochs, retried;
    long sw0;           /* the loop macro's switch count at epoch start */
    double * samples, * cpu_samples;
    ulong * iters;
    unsigned long long rng;
    double t0, c0;      /* the loop macro's epoch start */
    prof_impl_run_counters ctr;
    double * ev_samples;    /* per unit, [epochs * ctr.n] */
} prof_impl_run;

struct prof_bench
{
    prof_impl_settings s;
    char time_unit[4];
    double time_unit_ns;
    int relative_next, baseline, interleave;
    prof_format format;
    FILE * out;
    int own_out, md_header_done, write_failed;
    int md_counters_done;   /* the counters' context line printed */
    char md_cols[512];      /* the counter columns of the last header */
    prof_impl_regex filter;
    int has_filter;
    prof_impl_result ** results;
    int nresults, capresults;
    prof_impl_queued * queue;
    int nqueue, capqueue;
    int optimized, sanitized;
    char compiler[128], flags[256];
    double overhead_ticks;
    int fake_seen;
    const char * fit_name;
    double (*fit_f)(double);
    char fit_name_buf[64];
    int terminal;           /* prof_bench_set_terminal: -1 auto, 0, 1 */
    double started_ns;      /* when the suite was made (progress line) */
    int progress_shown;     /* a progress line is on stderr now */
};

int prof_impl_run_step(prof_impl_run * r, double timed_ticks,
        double whole_ticks, double cpu_ns, long switches);
/* Print result i's markdown row (and the header before the first). */
void prof_impl_print_row(prof_bench * b, int i);

/* ---- the terminal (terminal.c) ------------------------------------------ */

/* Whether f counts as a terminal for suite b (its prof_bench_set_terminal
   mode, or isatty). */
int prof_impl_is_terminal(const prof_bench * b, FILE * f);
/* v[0..n-1] as a UTF-8 sparkline (3 bytes a sample) scaled from their min
   to their max, cut to size bytes with its NUL. */
void prof_impl_sparkline(char * out, size_t size, const double * v, int n);
/* The progress line on stderr ("[done/total] what", total 0: unknown),
   drawn only when stderr is a terminal and the suite has run for
   prof_impl_progress_after_s (2 s; tests lower it); and its erasure. */
extern double prof_impl_progress_after_s;
void prof_impl_progress(prof_bench * b, const char * what, int done, int total);
void prof_impl_progress_clear(prof_bench * b);

#endif
