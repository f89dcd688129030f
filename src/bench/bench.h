/*
    Internal: the runner's shared types, and the calls between its files.
    Not installed. The arrows point one way:

        bench_args -> bench_settings
        bench_sizes, bench_threads -> bench_suite
        bench_suite -> bench_history (history.h: the next-run interval)
        bench_suite -> bench_run -> bench_counters, bench_user, stats
                    -> bench_result -> stats
                    -> bench_workers -> bench_procs, bench_wire
                    -> bench_output -> report_{md,csv,json}
                                       -> complexity, sysinfo, terminal
        bench_compare -> bench_run, bench_workers, bench_output
        bench_output, bench_procs -> bench_signal (interruptions: it calls
                                      back the writer it is armed with)
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_BENCH_H
#define PROF_BENCH_H

#include "internal.h"

#include <errno.h>
#include <signal.h>     /* sig_atomic_t */
#if defined(_WIN32)
/* No POSIX <regex.h> on Windows (MinGW, MSVC): there the filter is a plain
   substring of the name. */
typedef struct { char * text; } prof_impl_regex;
#else
# include <regex.h>
typedef regex_t prof_impl_regex;
#endif

/* An epoch's iterations never exceed this (2^40): a target whose time does
   not grow with its count stops growing here, far from overflow. Where
   ulong is 32 bits, half its range (a shift by 40 would be undefined
   there; the unsigned conversion below is not). */
#define PROF_IMPL_MAX_ITERS \
    ((unsigned long long) ((ulong) -1 / 2) < 1099511627776ULL \
     ? (ulong) -1 / 2 : (ulong) 1099511627776ULL)

/* In a public function that returns int: a NULL suite gets a message
   naming func, and -1. */
#define PROF_IMPL_NEED_SUITE(b, func) \
    do \
    { \
        if ((b) == NULL) \
        { \
            prof_impl_warn("%s: the suite is NULL", func); \
            return -1; \
        } \
    } while (0)

/* ---- settings (bench_settings.c, bench_args.c) -------------------------- */

/* What a benchmark runs with: copied into each run (and each queued
   benchmark) when it starts, so that later setter calls do not change it. */
typedef struct
{
    int epochs;
    double min_epoch_ns, max_epoch_ns, resolution_multiple;
    int schedule;           /* prof_schedule */
    double precision_pct;   /* the adaptive schedule's target */
    int percentile_epochs;  /* the epochs the outputs' percentiles need
                               (prof_impl_percentile_epochs): the adaptive
                               schedule's least, with the interval's */
    int epochs_set, min_epoch_set;  /* given: the adaptive schedule's
                                       maximum and floor (else its own) */
    ulong min_iters, exact_iters, warmup;
    int retries;
    double budget_s, jitter, batch;
    char unit[32];
    char time_unit[4];      /* the outputs' time unit: ns, us, ms, s */
    int time_unit_fixed;    /* set by the user: the tables' unit too (0:
                               the tables choose one a row) */
    double complexity_n;
    char counters[256];     /* event list; "" = counters off */
    int threads;            /* threads that run the target at once */
    int nmeasures;          /* the suite's first nmeasures measures */
    const struct prof_impl_measure * measures;  /* the suite's (not sent by
                                                   worker processes) */
} prof_impl_settings;

/* The defaults of prof_bench_new; the Google Benchmark outputs' (the
   percentiles), and their end (the context's pairs freed). */
void prof_impl_settings_default(prof_impl_settings * s);
void prof_impl_gbench_default(prof_bench * b);
void prof_impl_gbench_free(prof_bench * b);
/* Whether name passes the suite's filter. */
int prof_impl_filter_match(const prof_bench * b, const char * name);
void prof_impl_filter_free(prof_bench * b);

/* ---- event counters (bench_counters.c) ---------------------------------- */

/* The runner's event counters. One prof_counters per process, opened by
   the first run that asks for counters and closed at exit; each run maps
   the events it asks for onto it. */
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
double prof_impl_bench_counters_delta(const prof_counter_value * a,
        const prof_counter_value * b, double overhead);
/* Tests: when set, no event set is opened and every event asked for reads
   as fake(name, iterations) per epoch (NaN: unavailable), with no overhead
   subtracted, so that the aggregation is checked exactly. */
extern double (*prof_impl_fake_counts)(const char * event, ulong iterations);
/* Tests: with fake counts, called at each start (a slow start, to see
   where its time lands); NULL: nothing. */
extern void (*prof_impl_fake_counters_start)(void);
/* The process set's context line (prof_counters_context) into buf; 0 if
   the set was never opened (buf ""), else 1. */
int prof_impl_bench_counters_context(char * buf, size_t size);

/* ---- user counters and measures (bench_user.c) ------------------------- */

/* A column of user figures: a measure or a user counter. */
#define PROF_IMPL_USER_NAME 32
#define PROF_IMPL_USER_UNIT 16
#define PROF_IMPL_USER_COLS (PROF_USER_COUNTERS_MAX + PROF_MEASURES_MAX)
typedef struct
{
    char name[PROF_IMPL_USER_NAME];
    char unit[PROF_IMPL_USER_UNIT];
    int flags;              /* PROF_USER_RATE, PROF_USER_MEASURE */
} prof_impl_user_col;

/* A measure of the suite (prof_bench_add_measure). */
typedef struct prof_impl_measure
{
    prof_impl_user_col col;
    prof_measure_fn start, stop;
    void * arg;
} prof_impl_measure;

/* An epoch's raw amounts: the user counters' slots (NaN: not added to),
   the slot of refused handles, then the measures. */
#define PROF_IMPL_USER_DROPPED PROF_USER_COUNTERS_MAX
#define PROF_IMPL_USER_RAW (PROF_USER_COUNTERS_MAX + 1 + PROF_MEASURES_MAX)
typedef struct
{
    int nmeasures;
    const prof_impl_measure * measures;
    double started[PROF_MEASURES_MAX];
    double epoch[PROF_IMPL_USER_RAW];
} prof_impl_run_user;

/* Whether name is a good user name (1..31 printable ASCII bytes without
   , " \ |, no event or output field): 1, or 0 after a message starting
   with func when func is not NULL. unit: the same rules, empty allowed. */
int prof_impl_user_name_ok(const char * name, const char * func);
int prof_impl_user_unit_ok(const char * unit, const char * func);
/* Set u up for the measures of s. */
void prof_impl_user_init(prof_impl_run_user * u, const prof_impl_settings * s);
/* This thread's user counters to "not added to" (before an epoch), and
   their amounts into raw[0 .. PROF_IMPL_USER_DROPPED] (after it). */
void prof_impl_user_reset(void);
void prof_impl_user_harvest(double * raw);
/* acc[k] += add[k] for the counters' slots, NaN meaning "not added to". */
void prof_impl_user_sum(double * acc, const double * add);
/* Read the measures before an epoch / after it (into u->epoch). */
void prof_impl_measures_start(prof_impl_run_user * u);
void prof_impl_measures_stop(prof_impl_run_user * u);

/* ---- threads that run a target at once (bench_threads.c) --------------- */

/* Where a target can run on several threads: POSIX threads, thread-local
   clocks and slots, GNU atomics. */
#if !defined(_WIN32) && !defined(PROF_IMPL_NO_TLS) && defined(__GNUC__)
# define PROF_IMPL_HAVE_THREADS 1
#endif

/* One thread's share of an epoch. */
typedef struct
{
    double start, end;      /* the clock's two reads around its call
                               [ticks]: the call's are end - start */
    double timed;           /* clock 0's ticks, NaN if not prof_start'ed */
    double cpu_ns;          /* processor time of the call */
    long switches;          /* involuntary context switches during it */
    long waits;             /* voluntary ones: it slept or blocked */
    double user[PROF_USER_COUNTERS_MAX + 1];    /* its user counts */
} prof_impl_share;

typedef struct prof_impl_pool prof_impl_pool;

/* An epoch's processor time, read just outside its two clock reads:
   prof_impl_epoch_cpu() before the first and after the last (the calling
   thread's clock; under the fake clock, prof_impl_fake_cpu_ns or 0), then
   prof_impl_epoch_cpu_ns(c0, c1, wall_ticks) the processor time within the
   clock reads: c1 - c0 less what a pair of processor-clock reads adds
   (prof_impl_cpu_read_cost, measured once per process), at least 0;
   under the fake clock without prof_impl_fake_cpu_ns, the wall time. */
double prof_impl_epoch_cpu(void);
double prof_impl_epoch_cpu_ns(double c0, double c1, double wall_ticks);
/* What a pair of processor-clock reads adds to an epoch's processor time
   beyond the clock reads inside them [ns]: measured on first use (call it
   before any pool thread runs: the suite does, with the clock's cost); 0
   under the fake clock. */
double prof_impl_cpu_read_cost(void);

/* Run f(arg, count) once on this thread into sh (its processor time), the
   event counters ctr (NULL: none) started before its first clock read and
   stopped after its last. */
void prof_impl_share_run(prof_impl_share * sh, profile_target_t f,
        void * arg, ulong count, prof_impl_run_counters * ctr);
/* A pool of threads - 1 threads waiting for epochs (shared with other
   runs of the same number alive at the time), or NULL after a message. */
prof_impl_pool * prof_impl_pool_get(int threads);
void prof_impl_pool_put(prof_impl_pool * p);
/* Run f(arg, count) on the pool's threads and this one at once, each
   with its own processor time; their shares, this thread's first (with
   the counters ctr, started before any thread's first clock read). */
const prof_impl_share * prof_impl_pool_run(prof_impl_pool * p,
        profile_target_t f, void * arg, ulong count,
        prof_impl_run_counters * ctr);

/* ---- one benchmark's run (bench_run.c) ---------------------------------- */

enum { PH_OVERHEAD, PH_WARMUP, PH_CALIBRATE, PH_MEASURE, PH_DONE };

/* budget_hit's bits: the budget ended the epochs; it cut the warm-up. */
enum { PROF_IMPL_BUDGET_MEASURE = 1, PROF_IMPL_BUDGET_WARMUP = 2 };

/* What is timed: a prof_repeat-style function target (the cost of two
   counter reads is known), or the inline loop macro (its fixed cost per
   epoch is measured first, with empty epochs). */
typedef enum { PROF_IMPL_RUN_FUNCTION, PROF_IMPL_RUN_LOOP } prof_impl_run_kind;

/* One epoch's readings, as the state machine takes them. */
typedef struct
{
    double timed_ticks;     /* between the reads, or clock 0's ticks */
    double whole_ticks;     /* the whole call, set-up included */
    double cpu_ns;          /* processor time within the reads (the threads'
                               added up) */
    long switches;          /* involuntary context switches during it */
    int ran_alone;          /* one thread, timed over its whole call, that
                               never waited: cpu_ns is the time it ran */
} prof_impl_epoch;

/* A state machine fed with epoch timings: every time reading comes from
   prof_impl_read(), so that the tests drive it with a fake clock. */
typedef struct
{
    prof_impl_settings s;
    const char * name;
    char * owned_name;
    int is_baseline, phase, started;
    ulong count, base;
    ulong warm_left;        /* warm-up iterations still to run */
    double pair_ticks, overhead_ticks, target_ticks, budget_ticks;
    double max_ticks;       /* the longest epoch */
    double call_iter_ticks; /* the last call's ticks per iteration, set-up
                               included */
    double spent_ticks, net_ticks_sum, best_iter_ticks;
    int adaptive;       /* the adaptive schedule: stop once precise */
    int min_epochs;     /* the least epochs it keeps */
    int next_check;     /* the epochs at which it next looks */
    double cap_ticks;   /* the most time of its epochs */
    double * sorted;    /* its scratch copy of the samples */
    double oh[16];
    int noh, got, low_epochs, budget_hit, retried;
    int reaimed;        /* epochs under the target time, run again longer */
    int preempted;      /* epochs kept preempted (the retries spent) whose
                           time includes other processes' */
    int cpu_timed;      /* epochs kept preempted, timed by the time they ran */
    long sw0, wait0;    /* the loop macro's switch counts at epoch start */
    double * samples, * cpu_samples;
    ulong * iters;
    unsigned long long rng;
    double t0, c0;      /* the loop macro's epoch start */
    prof_impl_run_counters ctr;
    double * ev_samples;    /* per unit, [epochs * ctr.n] */
    prof_impl_run_user user;
    double * user_samples;  /* per unit, [epochs * PROF_IMPL_USER_RAW] */
    prof_impl_pool * pool;  /* threads > 1: the threads, from the first
                               epoch to the end of the run */
} prof_impl_run;

/* Set r up for a run of name with settings s; pair_ticks is the cost of
   two back-to-back clock reads. r->phase is PH_DONE (after a message) if
   out of memory. */
void prof_impl_run_init(prof_impl_run * r, const char * name,
        const prof_impl_settings * s, prof_impl_run_kind kind,
        double pair_ticks);
/* Feed the epoch just run (r->count iterations); set up the next. Returns
   1 if there is a next epoch (r->count iterations), 0 when the run is
   over. */
int prof_impl_run_step(prof_impl_run * r, const prof_impl_epoch * ep);
/* Run one epoch of a function target and feed it to the state machine. */
void prof_impl_run_epoch(prof_impl_run * r, profile_target_t f, void * arg);
/* Warm up and calibrate: run epochs until the measured phase (or the end). */
void prof_impl_run_calibrate(prof_impl_run * r, profile_target_t f,
        void * arg);
/* Free what the run allocated and nothing handed on to a result. */
void prof_impl_run_free(prof_impl_run * r);

/* ---- results (bench_result.c) ------------------------------------------- */

/* What a finished run hands on, in nanoseconds so that the runs of several
   processes pool: its measured epochs and what the warnings need. The
   arrays are owned (malloc'd). */
typedef struct
{
    const char * name;
    prof_impl_settings s;   /* as run: epochs asked, batch, unit, N, budget */
    int is_baseline;
    int got;                /* epochs measured */
    double * samples;       /* [got] ns per unit */
    double * cpu;           /* [got] processor ns per unit */
    ulong * iters;          /* [got] iterations */
    int * process;          /* [got] the process that ran it, or NULL: 0 */
    int processes;          /* processes pooled (1: this one) */
    int failed;             /* worker processes whose results are missing */
    int nev;
    const char * ev_names[PROF_COUNTERS_MAX];   /* static perf stat names */
    double * ev;            /* [got * nev] per unit, or NULL */
    int nuser;              /* user measures and counters */
    prof_impl_user_col user_cols[PROF_IMPL_USER_COLS];
    double * user;          /* [got * nuser] per unit (NaN: not added to),
                               or NULL */
    int user_dropped;       /* adds to refused user counters were dropped */
    double spent_ns;        /* wall time spent, calibration included */
    double overhead_ns;     /* subtracted from each epoch */
    double net_ns_sum;      /* the epochs' net time, summed */
    int low_epochs;         /* epochs under 10x the resolution */
    int preempted;          /* epochs kept preempted, their time inflated */
    int cpu_timed;          /* epochs kept preempted, timed by the time
                               they ran (processor time) */
    int at_max_iters;       /* the calibration hit PROF_IMPL_MAX_ITERS */
    int budget_hit;         /* PROF_IMPL_BUDGET_* bits */
    double load;            /* the 1-minute load average as it ended (the
                               highest of the processes pooled); NaN:
                               unknown */
} prof_impl_epochs;

/* The user columns of a run's measured epochs (raw: [got *
   PROF_IMPL_USER_RAW] per unit) into e: the measures, then the counters
   added to in any of them; e->user_dropped if refused handles were. 0, or
   -1 out of memory (e then has none). */
int prof_impl_user_take(const prof_impl_run_user * u, const double * raw,
        int got, prof_impl_epochs * e);
/* Move a finished run's epochs into e (r keeps no array). */
void prof_impl_run_take(prof_impl_run * r, prof_impl_epochs * e);
void prof_impl_epochs_free(prof_impl_epochs * e);

/* A result and the storage its pointers refer to. */
typedef struct
{
    prof_result pub;
    char * name;
    double * samples;
    double * cpu;       /* processor time per unit of each epoch [ns] */
    ulong * iters;
    char unit[32];
    char time_unit[4];
    double time_unit_ns;
    int time_unit_fixed;    /* the settings': the tables keep time_unit */
    char warning[768];
    int nev;
    const char * ev_names[PROF_COUNTERS_MAX];
    double ev_median[PROF_COUNTERS_MAX];  /* per unit */
    double * ev;        /* per unit, epoch k event i at ev[k * nev + i] */
    int * process;      /* [epochs] */
    double * process_median;    /* [processes] */
    int nuser;
    prof_impl_user_col user_cols[PROF_IMPL_USER_COLS];
    const char * user_names[PROF_IMPL_USER_COLS];
    const char * user_units[PROF_IMPL_USER_COLS];
    int user_flags[PROF_IMPL_USER_COLS];
    double user_median[PROF_IMPL_USER_COLS];
    double * user;      /* as reported (per unit or per second), epoch k
                           column u at user[k * nuser + u] */
} prof_impl_result;

/* Which of IPC and branch-miss % the events names[0 .. n) can give
   (PROF_IMPL_HAS_* bits), and, when v (their values) is not NULL, those
   two figures (NaN where they cannot be derived). */
#define PROF_IMPL_HAS_IPC 1
#define PROF_IMPL_HAS_MISS 2
int prof_impl_derive(const char * const * names, int n, const double * v,
        double * ipc, double * miss_pct);

/* The epochs e as a result (their arrays move into it, e is left with
   none), with its statistics, warnings and counters; NULL after a message
   if no epoch ran or memory ran out (e's arrays are then freed). */
prof_impl_result * prof_impl_result_make(prof_impl_epochs * e);
void prof_impl_result_free(prof_impl_result * r);
/* The index of r's count of the event of perf stat name name, or -1. */
int prof_impl_result_event_index(const prof_result * r, const char * name);


/* ---- worker processes (bench_wire.c, bench_workers.c, bench_procs.c) --- */

/* A record of the pipe from a worker to its parent. */
enum { PROF_IMPL_WIRE_BEGIN = 1, PROF_IMPL_WIRE_EPOCHS = 2,
       PROF_IMPL_WIRE_COMPARE = 3 };
typedef struct
{
    int type;
    int suite;              /* the suite's number, in order of creation */
    int index;              /* the benchmark's number in its suite */
    char * name;            /* BEGIN: what starts; else a's name (owned) */
    char * name_b;          /* COMPARE: b's name (owned) */
    prof_impl_epochs a, b;  /* EPOCHS: a; COMPARE: a and b */
} prof_impl_wire_record;

/* r as bytes: *buf (malloc'd) of *len bytes; 0, or -1 out of memory. */
int prof_impl_wire_encode(const prof_impl_wire_record * r,
        unsigned char ** buf, size_t * len);
/* One record from d[0 .. n): the bytes it took; 0 if d holds only part of
   one; -1 if d is not a sound record (msg says why; r is then empty). */
long prof_impl_wire_decode(const unsigned char * d, size_t n,
        prof_impl_wire_record * r, char * msg, size_t size);
void prof_impl_wire_free(prof_impl_wire_record * r);

/* What one worker sent (bench_procs.c reads it, bench_workers.c pools
   it). */
typedef struct
{
    prof_impl_wire_record * recs;   /* EPOCHS and COMPARE, in order */
    size_t n, cap, next;            /* next: where the search starts */
    int failed;                     /* its stream ended badly */
} prof_impl_worker_log;

/* The variable that marks a worker: "fd,k,n,pid" (its pipe's write end,
   worker k of n, the parent's pid). */
#define PROF_IMPL_WORKER_VAR "PROFILER_WORKER"

/* Run n worker processes of b's program one after another, each one's
   records into logs[k] (zeroed); *failed is set when one failed (said).
   Returns how many ran to their end: n, or fewer when a signal stopped
   them and a suite has a file to write (the signal is then noted, to end
   the run once the benchmarks those workers finished are answered); -1
   after a message when they cannot run at all. */
int prof_impl_workers_run(prof_bench * b, prof_impl_worker_log * logs, int n,
        int * failed);

/* This process is a worker (PROFILER_WORKER is set, names this process's
   parent and a pipe open for writing; a stale marker is said and left
   alone): its suites send their epochs to the parent and write no output.
   The first call sets close-on-exec on the pipe, so that the processes
   the program starts do not hold it open. */
int prof_impl_worker_mode(void);
/* Worker side: benchmark index of b's suite starts (sent once per
   change); its epochs (b side NULL) or a comparison's two sides are done. */
void prof_impl_worker_begin(const prof_bench * b, int index,
        const char * name);
void prof_impl_worker_send(const prof_bench * b, int index,
        const prof_impl_epochs * a, const prof_impl_epochs * bside);
/* Parent side: the program's argv, to run it again. */
void prof_impl_workers_argv(int argc, char ** argv);
/* Whether b's benchmarks come from worker processes: with processes > 1
   in a process that is not a worker, runs them all first (once per
   program). */
int prof_impl_workers_ready(prof_bench * b);
/* The epochs of b's benchmark index, named name, pooled over the workers
   (e->name is name): 0, or -1 after a message (no worker ran it). */
int prof_impl_workers_take(prof_bench * b, int index, const char * name,
        prof_impl_epochs * e);
int prof_impl_workers_take_compare(prof_bench * b, int index,
        const char * name_a, const char * name_b, prof_impl_epochs * a,
        prof_impl_epochs * bside);
/* Append src's epochs to dst as process p's (pooling the workers'). 0, or
   -1 out of memory or past INT_MAX epochs (dst's epochs unchanged). */
int prof_impl_workers_append(prof_impl_epochs * dst,
        const prof_impl_epochs * src, int p);
/* How many processes b's results come from: the workers, or 1. */
int prof_impl_workers_ready_count(const prof_bench * b);
/* Whether a worker failed or a result is missing: prof_bench_finish then
   returns -1. */
int prof_impl_workers_failed(void);

/* ---- the suite (bench_suite.c, bench_output.c) ------------------------- */

/* The markdown table as it grows, row by row (report_md.c): the context
   once, a header whenever the columns change. */
typedef struct
{
    FILE * out;
    int header_done;        /* 0, or 1 + relative of the last header */
    int counters_done;      /* the counters' context line printed */
    int interval_said;      /* the interval kind last explained (0: none) */
    char cols[512];         /* the interval and counter columns of the last
                               header */
    int ci_width;           /* the interval column's width */
} prof_impl_md_writer;

typedef struct
{
    char * name;
    profile_target_t target;
    void * arg;
    prof_impl_settings s;
    int is_baseline;
} prof_impl_queued;

/* An output of the suite: the console (stdout by default: the markdown
   rows as each benchmark ends, CSV or JSON at prof_bench_finish), or the
   file of --out (written whole at prof_bench_finish through outfile.c, so
   that a failed run never truncates it). */
typedef struct
{
    prof_format format;
    FILE * f;               /* the console's stream (NULL: none) */
    char * path;            /* the file's path (NULL: no file) */
    int format_set;         /* the file's format was given, not guessed */
    prof_impl_md_writer md; /* the console's table so far */
    int nwritten;           /* results[0 .. nwritten) went out */
    int failed;             /* writing failed (said once) */
    int nfailed;            /* the file: results[0 .. nfailed) failed, not
                               tried again (prof_bench_free after finish) */
} prof_impl_output;

/* --benchmark_report_aggregates_only: the console and the file get the
   aggregates only (REPORT); --benchmark_display_aggregates_only: the
   console only (DISPLAY). --benchmark_context: at most
   PROF_IMPL_CONTEXT_MAX pairs. */
#define PROF_IMPL_AGGREGATES_REPORT 1
#define PROF_IMPL_AGGREGATES_DISPLAY 2
#define PROF_IMPL_CONTEXT_MAX 16

struct prof_bench
{
    prof_impl_settings s;
    int relative_next, interleave;
    int baseline;           /* results[baseline] is the baseline; -1 none;
                               PROF_IMPL_BASELINE_FILTERED: filtered out */
    int matched, filtered;  /* names the filter let through, and not */
    int no_match_said;      /* "the filter matched none" said */
    prof_impl_output console, file;
    prof_impl_regex filter;
    int has_filter;
    int filter_negated;     /* "-REGEX": the names that do not match run */
    prof_impl_result ** results;
    int nresults;
    size_t capresults;
    prof_impl_queued * queue;
    int nqueue;
    size_t capqueue;
    int optimized, sanitized;
    char compiler[128], flags[256];
    double overhead_ticks;  /* two clock reads, measured once (-1: not yet) */
    int fake_seen;
    const char * fit_name;
    double (*fit_f)(double);
    char fit_name_buf[64];
    int terminal;           /* prof_bench_set_terminal: -1 auto, 0, 1 */
    int worker;             /* made in a worker process, which draws no
                               progress (prof_impl_worker_mode at new) */
    double started_ns;      /* when the suite was made (progress line) */
    int processes;          /* prof_bench_set_processes */
    int suite_number;       /* suites made before this one in the process */
    int nbench;             /* benchmarks started (the workers' numbering) */
    int list_only;          /* --list: print the names, run nothing */
    int wide;               /* --wide: the table with every column */
    int table_percentiles;  /* --table-percentiles: their columns */
    prof_impl_measure measures[PROF_MEASURES_MAX];
    int sizes_flag;         /* prof_bench_set_sizes_flag */
    ulong * cli_sizes;      /* --sizes, or NULL */
    int ncli_sizes;
    struct prof_bench * live_next;  /* the suites with a file (bench_output.c) */
    int sweep_done, sweep_total;    /* a size sweep's sizes run, and all */
    int progress_total, progress_first; /* the progress line's span of */
    double progress_t0;                 /* items, from when (ETA) */
    /* Google Benchmark's outputs (bench_args.c, report_json.c) */
    double percentiles[PROF_PERCENTILES_MAX];   /* sorted */
    int npercentiles;
    int aggregates_only;    /* PROF_IMPL_AGGREGATES_* bits */
    int json_epochs;        /* --json-epochs: an entry per epoch */
    char * context[PROF_IMPL_CONTEXT_MAX];      /* --benchmark_context's
                                                   "key=value" */
    int ncontext;
    int percentiles_checked;    /* results[0 .. it) checked for epochs */
    char * history_path;    /* prof_bench_set_history: NULL, the default */
    int history_state;      /* 0: not opened yet, 1: opened (or off) */
    struct prof_impl_history * history; /* NULL: off (history.h) */
    int history_saved;      /* results[0 .. it) are in the file */
};

/* The name to run under (a NULL name becomes "benchmark N", with a
   message; with threads > 1, "/threads:N" follows), made in buf of
   PROF_IMPL_NAME_BUF bytes; or NULL if the filter rejects it. */
#define PROF_IMPL_NAME_BUF 640
const char * prof_impl_run_name(prof_bench * b, const char * name,
        int threads, char * buf);
#define PROF_IMPL_BASELINE_FILTERED (-2)
/* Whether rows have a relative column. */
#define PROF_IMPL_RELATIVE(b) ((b)->baseline != -1)
/* format is one of prof_format's (PROF_FORMAT_NONE included). */
#define PROF_IMPL_FORMAT_KNOWN(format) \
    ((int) (format) >= 0 && (int) (format) <= PROF_FORMAT_NONE)

/* With --list: print name (it would run) and return 1; else 0. */
int prof_impl_listed(const prof_bench * b, const char * name);
/* Two clock reads of the runner's clock, measured once per suite. */
double prof_impl_suite_overhead(prof_bench * b);
/* Keep a finished run's result in the suite and show its row (a worker
   also sends its epochs, as benchmark index, to the parent). */
const prof_result * prof_impl_suite_finish_run(prof_bench * b,
        prof_impl_run * r, int index);
/* The same from its epochs (e's arrays move into the result). */
const prof_result * prof_impl_suite_finish_epochs(prof_bench * b,
        prof_impl_epochs * e);
/* Show result i (the console's markdown row). */
void prof_impl_output_row(prof_bench * b, int i);
/* The console's stream (NULL: none); its table starts again. */
void prof_impl_output_set(prof_bench * b, FILE * out);
/* The file output: path (NULL: none), checked writable now; 0 or -1. */
int prof_impl_output_file(prof_bench * b, const char * path);
/* The format a file's name suggests: .json, .csv, .md (JSON otherwise). */
prof_format prof_impl_format_of(const char * path);
/* b is going: its file no longer needs writing when interrupted. */
void prof_impl_output_forget(prof_bench * b);
/* prof_bench_finish's outputs, once the queue has run (bench_suite.c):
   the console's table or file, the file of --out, the filter's and the
   workers' failures; 0 or -1. */
int prof_impl_output_finish(prof_bench * b);

/* ---- interruptions (bench_signal.c, bench_output.c) -------------------- */

/* The first SIGINT or SIGTERM since the handlers went in, or 0. */
extern volatile sig_atomic_t prof_impl_interrupt_signal;
/* Install the handlers (where the action is the default one), writer
   writing the files when a signal comes, or (NULL) take them out again
   (where they are still ours); not in worker processes. */
void prof_impl_interrupt_arm(void (*writer)(int sig));
/* Whether there are files an interruption would write (armed). */
int prof_impl_interrupt_files(void);
/* Have the files written with the benchmarks that finished, marked
   partial (the armed writer), then end the process by sig as its default
   action does: it does not return. */
void prof_impl_interrupted(int sig);
/* Tests: called in a partial write between the data and the rename. */
extern void (*prof_impl_partial_hook)(void);
/* Between epochs and benchmarks: a noted signal ends the run here. */
#define PROF_IMPL_INTERRUPT_POLL() \
    do \
    { \
        if (prof_impl_interrupt_signal != 0) \
            prof_impl_interrupted((int) prof_impl_interrupt_signal); \
    } while (0)

/* ---- size sweeps (bench_sizes.c) --------------------------------------- */

/* The sizes of --sizes=text ("8,64,512", "LO..HI", "LO..HIxM") into *out
   (malloc'd): their number, or -1 after a message starting with what. */
int prof_impl_sizes_parse(const char * text, ulong ** out, const char * what);

/* ---- the terminal (terminal.c) ------------------------------------------ */

/* Whether f counts as a terminal under a prof_bench_set_terminal mode
   (-1: ask isatty). */
int prof_impl_is_terminal(int mode, FILE * f);
/* v[0..n-1] as a UTF-8 sparkline (3 bytes a bar) scaled from their min
   to their max, at most PROF_IMPL_SPARK_BARS bars (past that many samples
   a bar is the mean of its share of them, in order), cut to size bytes
   with its NUL. */
#define PROF_IMPL_SPARK_BARS 16
void prof_impl_sparkline(char * out, size_t size, const double * v, int n);
/* The progress line on stderr ("[done/total] what (4.2 s, ETA 3 s)",
   done the item being run, from 1; total 0: unknown), drawn only when
   stderr is a terminal and the suite has run for
   prof_impl_progress_after_s (2 s; tests lower it), never in a worker;
   the ETA is the time per item since the span of total began, times the
   items left; prof_impl_status_clear erases it. */
extern double prof_impl_progress_after_s;
void prof_impl_progress(prof_bench * b, const char * what, int done, int total);

#endif
