/*
    profiler/bench.h -- the statistical benchmark runner: prof_bench_*,
    PROF_BENCH_LOOP, results, comparisons, complexity fits, user
    counters.

    A part of profiler.h, which includes it: include profiler.h, or
    this header alone (it brings profiler.h in, which includes it in
    its place). Names that start with prof_impl_ / PROF_IMPL_ are
    internals and may change in any release.

    SPDX-License-Identifier: MIT
*/

#if !defined(PROFILER_H)
# include "../profiler.h"
#elif !defined(PROFILER_BENCH_H)
#define PROFILER_BENCH_H

/* ==== Statistical benchmark runner ======================================= */

/* A suite of benchmarks (nanobench's Bench, Google Benchmark's runner): its
   settings, its results and where they are written. Run a benchmark given as
   a prof_repeat target with prof_bench_run, or inline code with
   PROF_BENCH_LOOP. Each run is split into epochs: after a calibration, every
   epoch runs the code a calibrated number of times (its iterations) and is
   timed as a whole, so each epoch gives one sample of time per iteration;
   the result is the median of the samples with an interval for it.
   Run one suite at a time in the process: suites share the process's
   event counter set, the worker processes' numbering of suites and the
   progress line, so suites running at the same time on two threads race.
   A suite may run on any thread while no other runs; the threads of a
   multi-threaded benchmark (prof_bench_set_threads) are the runner's own,
   and the clocks are per thread (prof_repeat elsewhere shares nothing
   with it).
   Setters return 0, or -1 with a profiler: message for bad input (NULL
   suite, zero, negative, NaN), leaving the setting unchanged. */
typedef struct prof_bench prof_bench;

/* Output formats: a markdown table (rows printed as each benchmark ends),
   CSV, Google Benchmark's JSON (--benchmark_format=json schema, written by
   prof_bench_finish), or nothing. */
typedef enum
{
    PROF_FORMAT_MD = 0, PROF_FORMAT_CSV = 1, PROF_FORMAT_JSON = 2,
    PROF_FORMAT_NONE = 3
} prof_format;

/* Bits of prof_result.flags; prof_result.warning says the same in words. */
#define PROF_RESULT_UNSTABLE 1   /* err% above 5%: the samples scatter */
#define PROF_RESULT_BIMODAL 2    /* the samples form two separate groups */
#define PROF_RESULT_BUDGET 4     /* the time budget ended it: fewer epochs */
#define PROF_RESULT_RESOLUTION 8 /* per-epoch time near the clock's
                                    resolution: is the work optimised away? */
#define PROF_RESULT_FEW_EPOCHS 16 /* under 6 epochs: no interval (NaN) */
#define PROF_RESULT_PARTIAL 32   /* a worker process failed: its epochs are
                                    missing */
#define PROF_RESULT_LOADED 64    /* measured while the load average exceeded
                                    the cores: other processes' time is in
                                    it (load_avg) */
#define PROF_RESULT_PREEMPTED 128 /* epochs kept preempted (the retries spent)
                                    whose time includes other processes' */

/* The thresholds behind those flags and the intervals, one value each for
   every output and tool. */
#define PROF_UNSTABLE_ERR_PCT 5.0    /* err% above this: PROF_RESULT_UNSTABLE */
#define PROF_MIN_INTERVAL_EPOCHS 6   /* fewer epochs: PROF_RESULT_FEW_EPOCHS */
#define PROF_CI_LEVEL 0.95           /* least level of every interval */
#define PROF_PREEMPTED_SHARE 0.25    /* this share of the epochs or more kept
                                        preempted, their time inflated:
                                        PROF_RESULT_PREEMPTED */

/* One benchmark's result. Times are per batch unit (per iteration unless
   prof_bench_set_batch), in nanoseconds, counter overhead subtracted. The
   pointers stay valid until prof_bench_free. */
typedef struct prof_result
{
    const char * name;
    double median_ns;       /* median of the epochs' samples; with several
                               processes, the median of their medians */
    double mean_ns, max_ns;
    double min_ns;          /* fastest epoch: noise only adds time, so on a
                               shared machine it varies least between
                               processes (doc/runner.md) */
    double err_pct;         /* MdAPE: median of |sample - median| / median,
                               in percent (nanobench's err%), all epochs */
    /* The interval of the median, at level ci_level (NaN bounds when there
       are too few epochs or processes for PROF_CI_LEVEL). One process: the
       distribution-free interval of the median of this process's epochs
       from order statistics; it does not cover drift between processes.
       Several (prof_bench_set_processes): the interval of the median of
       the process medians, widened by sqrt(2) about it, so that it covers
       the next run's median (doc/runner.md, "What the interval means"). */
    double ci_low_ns, ci_high_ns, ci_level;
    /* Where the next run's median is expected to land, at next_level
       (95%): this median widened by the changes between consecutive
       earlier runs on this machine (next_runs of them: the history,
       prof_bench_set_history), and never narrower than the processes'
       interval. With one process and no history, NaN: the next run is not
       known (ci_* then holds for this process only). */
    double next_low_ns, next_high_ns, next_level;
    int next_runs;
    int processes;          /* processes whose epochs are pooled here */
    const double * process_median_ns;   /* [processes] each one's median */
    const int * epoch_process;  /* [epochs] the process of each epoch */
    double between_pct;     /* spread of the process medians: their MdAPE
                               around their median [%]; 0 with one */
    double within_pct;      /* median of the processes' own err% [%] */
    double cpu_ns;          /* processor time per unit: the median over the
                               epochs (with several processes, of their
                               medians), as median_ns; on one thread each
                               epoch's is at most its time (a target that
                               calls prof_start/prof_stop: its processor
                               time covers the whole call) */
    int preempted_epochs;   /* epochs kept although preempted (the retries
                               spent); cpu_timed_epochs of them are timed
                               by the time they ran (their processor time),
                               the others' time includes other processes' */
    int cpu_timed_epochs;
    const double * samples_ns;  /* per epoch, in the order run [ns/unit] */
    const ulong * epoch_iters;  /* iterations of each epoch */
    int epochs;             /* number of samples */
    ulong iterations;       /* iterations in all measured epochs */
    double total_s;         /* wall time the runner spent on it, with
                               calibration and warm-up [s] */
    double overhead_ns;     /* fixed cost subtracted from each epoch [ns] */
    double batch;           /* units per iteration (prof_bench_set_batch) */
    const char * unit;      /* "op" unless set */
    const char * time_unit; /* of the outputs (prof_bench_set_time_unit)
                               when it ran: "ns", "us", "ms" or "s" */
    double complexity_n;    /* N of prof_bench_set_complexity_n, or 0 */
    double relative_pct;    /* 100 * baseline median / this median, or NaN */
    int flags;              /* PROF_RESULT_* bits */
    const char * warning;   /* "" or the advice printed with the row */
    /* Event counts per batch unit (prof_bench_set_counters): for each event
       asked for, the median over the measured epochs of (the epoch's count
       - one start/stop pair's counting overhead) / (iterations x batch).
       NaN (never 0) for an event the machine cannot count: the markdown
       context says why. task-clock is in ns per unit. */
    int ncounters;                      /* 0 when counters are off */
    const char * const * counter_names; /* perf stat names [ncounters] */
    const double * counters;            /* per unit [ncounters] */
    double ipc;             /* instructions / cycles of the medians, or NaN */
    double branch_miss_pct; /* 100 * branch-misses / branches, or NaN */
    /* User measures and counters (prof_bench_add_measure,
       prof_user_counter): the measures in the order added, then the
       counters added to during the measured epochs, in the order they
       were first looked up. Each is the median over the measured epochs
       of the epoch's amount / (iterations x threads x batch), or with
       PROF_USER_RATE of the epoch's amount per second of its time. */
    int nuser;
    const char * const * user_names;    /* [nuser] */
    const char * const * user_units;    /* a measure's unit, or "" */
    const int * user_flags;             /* PROF_USER_RATE, PROF_USER_MEASURE */
    const double * user;                /* [nuser] */
    /* Threads that ran the target at once (prof_bench_set_threads; 1
       otherwise). With several, the times are per operation over all
       threads (an epoch's wall time / (threads x iterations x batch):
       Google Benchmark's real_time), cpu_ns the processor time per
       operation (its per-thread cpu_time), iterations counts every
       thread's, epoch_iters one thread's; the time one thread takes per
       operation is median_ns x threads. */
    int threads;
    double load_avg;        /* the 1-minute load average when it ran (the
                               highest of its processes); NaN if unknown */
} prof_result;

/* A new suite with the default settings below, writing markdown to stdout;
   NULL (with a message) when out of memory. Free it with prof_bench_free. */
#define prof_bench_new() prof_impl_bench_new(PROF_IMPL_BUILD_INFO)
/* Write what is pending (prof_bench_finish) and free the suite. NULL: no-op. */
void prof_bench_free(prof_bench * b);

/* How many epochs, and how long. PROF_SCHEDULE_ADAPTIVE (the default):
   epochs of the resolution multiple (below) of the clock's resolution,
   never under a minimum epoch time that was set; at least 11 (p10 and p90
   past the extremes), then it stops as soon as the median's interval is
   within the precision (below), at most the epochs (default 100 here;
   unless set, nor more time in epochs than 11 of the minimum epoch time)
   and the budget. Its epochs see one of a shared machine's speeds; the
   next-run interval (prof_bench_set_history) covers the others.
   PROF_SCHEDULE_FIXED: the epochs (default 11), each at least the minimum
   epoch time (default 1 ms). 0, or -1 if unknown. */
typedef enum { PROF_SCHEDULE_ADAPTIVE, PROF_SCHEDULE_FIXED } prof_schedule;
int prof_bench_set_schedule(prof_bench * b, prof_schedule schedule);
/* The adaptive schedule's target [%]: the interval's half-width in % of
   the median at which it stops. Default 1; > 0 and <= 100. */
int prof_bench_set_precision_pct(prof_bench * b, double pct);
/* Number of epochs (samples) per benchmark: the fixed schedule's count,
   the adaptive one's maximum. Default 11 (nanobench's choice; adaptive:
   100). >= 6 gives an interval of the median; 0 is refused. */
int prof_bench_set_epochs(prof_bench * b, int epochs);
/* Least and most time of one epoch [ns]. Defaults 1e6 (1ms) and 1e8
   (100ms): 1 ms makes a run of 11 epochs about as long as nanobench's
   while dwarfing a counter read by far (the adaptive schedule has no
   least time unless one is set); an epoch is never shorter than
   one iteration, whatever the maximum, and one that ran less than the
   minimum is run again with a longer count, never kept (unless the count
   cannot grow). */
int prof_bench_set_min_epoch_time_ns(prof_bench * b, double ns);
int prof_bench_set_max_epoch_time_ns(prof_bench * b, double ns);
/* Aim an epoch at this multiple of the clock's resolution (the larger of one
   tick and the cost of a counter read), if above the minimum epoch time.
   Default 1000 (nanobench's clockResolutionMultiple). */
int prof_bench_set_resolution_multiple(prof_bench * b, double multiple);
/* At least this many iterations per epoch. Default 1. */
int prof_bench_set_min_epoch_iterations(prof_bench * b, ulong iters);
/* Exactly this many iterations per epoch: no calibration, no random
   variation. Default 0 (calibrate). */
int prof_bench_set_epoch_iterations(prof_bench * b, ulong iters);
/* Iterations run untimed before calibration (warm caches, lazy setup).
   Default 0: the calibration epochs already warm up. */
int prof_bench_set_warmup(prof_bench * b, ulong iters);
/* An epoch during which the scheduler preempted the benchmark (its
   involuntary context switches grew: getrusage) is run again, up to this
   many times per benchmark. Default 11 (doc/runner.md). It cannot see a
   hypervisor or a hyperthread sibling taking the core. 0 keeps every
   epoch. Once they are spent, a preempted epoch is kept,
   timed by its processor time when one thread timed its whole call
   without waiting (cpu_timed_epochs), else counted in preempted_epochs
   (PROF_RESULT_PREEMPTED when a quarter or more). */
int prof_bench_set_preempt_retries(prof_bench * b, int retries);
/* Wall time one benchmark may take [s]; when spent, it ends with the epochs
   it has (flag PROF_RESULT_BUDGET). Default 5s, so that a target that takes
   seconds per call still ends. */
int prof_bench_set_budget_s(prof_bench * b, double seconds);
/* Each epoch runs (1 + u * fraction) times the calibrated iterations (the
   least that reach the minimum epoch time), u uniform in [0, 1), to avoid
   aliasing with periodic noise (nanobench's 0-20%): adding, never taking
   away, keeps every epoch at the minimum epoch time or over it. Default
   0.2 (+0-20%); 0 turns it off; at most 1 (+0-100%). A count never goes
   under the minimum iterations. The sequence is the same every run. */
int prof_bench_set_epoch_jitter(prof_bench * b, double fraction);
/* Units of work per iteration and their name: times become per unit
   ("ns/byte") and rates units per second. Default 1 and "op". unit is
   copied; NULL keeps "op". */
int prof_bench_set_batch(prof_bench * b, double units, const char * unit);
/* Time unit of the outputs: "ns", "us", "ms" or "s" (as Google
   Benchmark's time_unit), or "auto" (default): the tables choose one a
   row from its median, the files keep ns. prof_result stays in ns. */
int prof_bench_set_time_unit(prof_bench * b, const char * unit);
/* on != 0: the next benchmark run becomes the baseline, and each later one
   is shown as 100 * baseline / its median in percent (> 100%: faster). */
int prof_bench_set_relative(prof_bench * b, int on);
/* N of the next benchmarks, for prof_bench_complexity. Must be > 0;
   prof_bench_set_complexity_n(b, -1) clears it. Default: unset. */
int prof_bench_set_complexity_n(prof_bench * b, double n);
/* on != 0: benchmarks added with prof_bench_add run by prof_bench_run_all
   in rounds, one epoch of each per round in a shuffled order, so that all
   of them sample the machine's slow and fast phases alike; 0 (default):
   one after the other. It steadies the medians most with long epochs
   (31 x 3 ms): p-bench --stability, doc/runner.md. */
int prof_bench_set_interleave(prof_bench * b, int on);
/* The percentiles of the epochs' times that the CSV (as columns p10, ...)
   and the JSON (as Google Benchmark's user statistics: NAME_p10
   aggregates) carry: p[0 .. n), each 0..100, n at most
   PROF_PERCENTILES_MAX (0: none), kept sorted; a repeated one is refused.
   Default 10, 50, 90 (--percentiles=10,50,90). A percentile p with
   0 < p < 100 differs from the extreme epochs only with at least
   1 + 100 / min(p, 100 - p) epochs (p10: 11, p5: 21); fewer are said. */
#define PROF_PERCENTILES_MAX 16
int prof_bench_set_percentiles(prof_bench * b, const double * p, int n);
/* What the suite may show a person: with stdout a terminal, each markdown
   row ends with a sparkline of its epochs in run order (lowest bar: the
   fastest); with stderr a terminal, a suite running for more than 2 s keeps
   a progress line there ("profiler: [3/12] name (4.2 s)"), erased before
   each row and at the end. Pipes and files get neither.
   PROF_TERMINAL_AUTO (default) asks isatty for each stream; NEVER: never;
   ALWAYS: as if both were terminals. Other modes: -1 returned, with a
   profiler: message. */
typedef enum
{
    PROF_TERMINAL_AUTO = -1, PROF_TERMINAL_NEVER = 0, PROF_TERMINAL_ALWAYS = 1
} prof_terminal;
int prof_bench_set_terminal(prof_bench * b, prof_terminal mode);
/* The markdown table: on == 0 (default) fits in 100 columns, the most
   useful first (the median, its interval, err%, up to three event counts
   per unit, the name); on != 0 adds op/s, min, every event count and the
   time spent (--wide). Events that are n/a here get no column either way:
   the context line says why. */
int prof_bench_set_wide(prof_bench * b, int on);
/* JSON as Google Benchmark writes repetitions when on != 0 (--json-epochs):
   an "iteration" entry per epoch, then NAME_mean, _median, _stddev, _cv
   and the percentiles. Default off: one entry per benchmark under its own
   name, real_time its median, the epochs an array inside it (what
   dashboards such as github-action-benchmark and Bencher read right). */
int prof_bench_set_json_epochs(prof_bench * b, int on);
/* Count these events (a prof_counters_open list: "cycles,instructions,
   branches,branch-misses,page-faults,...", or "default" or "on" for
   PROF_COUNTERS_DEFAULT) around every epoch of the next benchmarks, and
   report them per unit (prof_result.counters, the table, CSV and JSON).
   NULL, "" or "off" (default): no counters and no perf system call. The
   first list asked for opens one event set for the whole process (shared
   by all suites, closed at exit); events outside it, and suites on other
   threads than the one that opened it, read n/a. The counters
   span the whole target call, set-up outside prof_start/prof_stop
   included. -1 with a message for an unknown or repeated name. */
int prof_bench_set_counters(prof_bench * b, const char * events);
/* Run the suite in n worker processes, one after another, and pool their
   epochs (default 1: this process only). Each process differs in layout,
   environment size and code placement, so that one process's epochs do not
   say how the next run will go: with several, the result's median is the
   median of the process medians, its interval covers the next run's median
   (doc/runner.md), and processes, process_median_ns, between_pct and
   within_pct say how they differ. The program runs itself again (Linux:
   /proc/self/exe; elsewhere argv[0] as given to prof_bench_args) with the
   same arguments and environment, plus PROFILER_WORKER (the marker) and
   PROFILER_WORKER_PAD (a different size each time). The workers start when
   the first benchmark starts and run the whole program; they print and
   write nothing; this process shows what they measured. A worker that
   crashes, hangs or sends garbage is named with its benchmark, the others'
   epochs are kept and prof_bench_finish returns -1. 1..1000, default 1;
   ignored in a worker. */
#define PROF_PROCESSES_MAX 1000
int prof_bench_set_processes(prof_bench * b, int n);
/* The run-to-run history that the next-run interval (next_low_ns ...)
   is learned from: a small file of each benchmark's last median and the
   changes between its consecutive runs, per machine, written whole at
   prof_bench_finish. path NULL: the default (PROFILER_HISTORY, else
   $XDG_CACHE_HOME/profiler/history, else ~/.cache/profiler/history);
   "off": none kept or read, the interval is this process's. 0, or -1 with
   a message (empty path, out of memory). */
int prof_bench_set_history(prof_bench * b, const char * path);
/* The console's format and stream (default markdown on stdout; NULL: no
   console output): markdown rows appear as each benchmark ends, CSV and
   JSON at prof_bench_finish. The stream is not closed by the suite. */
int prof_bench_set_format(prof_bench * b, prof_format format);
int prof_bench_set_output(prof_bench * b, FILE * out);
/* Also write every result to the file path, as Google Benchmark's
   --benchmark_out: at prof_bench_finish, whole, in the format of
   prof_bench_set_output_format or else of its name (.json, .csv, .md;
   JSON otherwise). The file is written beside its target and renamed over
   it once complete: a run that fails or writes nothing leaves an existing
   file as it was. -1 and a message if it cannot be written (checked now);
   NULL or "" is refused. */
int prof_bench_set_output_path(prof_bench * b, const char * path);
int prof_bench_set_output_format(prof_bench * b, prof_format format);
/* Run only benchmarks whose name matches this POSIX extended regular
   expression (on Windows, which has no <regex.h>: contains this substring);
   "-REGEX" (Google Benchmark's negative filter) runs those that do not
   match REGEX; NULL or "" runs all; -1 and a message if it does not
   compile. */
int prof_bench_set_filter(prof_bench * b, const char * regex);
/* Read the runner's flags from the command line, after the environment
   variables of the same settings: --format=md|csv|json|none (the console),
   --out=FILE and --out-format=json|csv|md (the file), --filter=REGEX,
   --list (print the names that would run, run nothing), --epochs=N,
   --min-epoch-time=TIME, --max-epoch-time=TIME, --warmup=N,
   --time-unit=ns|us|ms|s, --budget=TIME (a TIME is a number with ns, us,
   ms or s; none: s), --counters[=LIST] (no LIST: the default events;
   "off": none), --processes=N, --wide; PROFILER_FORMAT, PROFILER_OUT, ...
   (each flag's, PROFILER_ and its name in capitals). --flag=VALUE and
   --flag VALUE alike; "--" ends them; Google Benchmark's
   --benchmark_filter, --benchmark_format, --benchmark_out,
   --benchmark_out_format, --benchmark_time_unit and --benchmark_list_tests
   are taken too. --help prints every flag with its default and variable
   and exits 0. Words that are not flags, and all after "--", are the
   program's: prof_bench_args leaves argv as it is (and keeps a copy to run
   worker processes). Returns 0, or -1 after a message for an unknown flag,
   a missing or bad value, an unwritable file or a bad regex. */
int prof_bench_args(prof_bench * b, int argc, char ** argv);
/* As prof_bench_args, but removes from argv what it took (its flags, their
   values, the "--" that ends them) and leaves the rest, flags it does not
   know included, to the program, as Google Benchmark's Initialize: the
   program's own arguments are then argv[1 .. *argc), NULL after them, and
   the program refuses what it does not know itself. */
int prof_bench_init(prof_bench * b, int * argc, char ** argv);

/* Multi-threaded benchmarks (Google Benchmark's Threads): the next
   benchmarks run their target on n threads at once, this one and n - 1
   others started together behind a barrier; each thread calls
   target(arg, count) with the same count per epoch, and the epoch's time
   is the wall time from the first thread's start to the last one's end.
   The result's name gets "/threads:N" (N > 1) and its figures are per
   operation over all threads (prof_result.threads). Each thread has its
   own clock 0 (prof_start/prof_stop time that thread: the slowest one's
   timed section is the epoch's) and its own user-counter slots (added
   up); the measures are read around all threads, the event counters
   count this thread. The loop macro runs on one thread. 1 (default) to
   PROF_THREADS_MAX; -1 with a message otherwise, or for more than 1
   where the build has no threads (Windows). */
#define PROF_THREADS_MAX 256
int prof_bench_set_threads(prof_bench * b, int n);
/* prof_bench_run on threads threads, the setting unchanged after. */
const prof_result * prof_bench_run_threads(prof_bench * b, const char * name,
        profile_target_t target, void * arg, int threads);

/* Run target(arg, iterations) epoch by epoch and return its result (also
   kept in the suite), after printing its markdown row. A target that calls
   prof_start()/prof_stop() (as prof_repeat's do) is timed between them only,
   otherwise the whole call is. Returns NULL for a name the filter rejects,
   and, with a message, for a NULL suite or target. A NULL name is named
   "benchmark N" with a message. */
const prof_result * prof_bench_run(prof_bench * b, const char * name,
        profile_target_t target, void * arg);
/* Queue a benchmark for prof_bench_run_all (the settings in force now apply
   to it). Returns 0, or -1 with a message (NULL suite or target). */
int prof_bench_add(prof_bench * b, const char * name,
        profile_target_t target, void * arg);
/* Run the queued benchmarks (see prof_bench_set_interleave), printing their
   rows in the order added. Returns how many ran (0 with nothing queued), or
   -1 with a message for a NULL suite. */
int prof_bench_run_all(prof_bench * b);

/* Number of results (0 for a NULL suite), and result i (0 <= i < count;
   NULL otherwise or for a NULL suite). */
int prof_bench_count(const prof_bench * b);
const prof_result * prof_bench_result(const prof_bench * b, int i);
/* The p-th percentile (0 <= p <= 100) of r's samples, interpolated
   linearly [ns/unit]; deciles are p = 10, 20, ... NaN for NULL or p out of
   range. */
double prof_result_percentile(const prof_result * r, double p);
/* r's count of event (a perf stat name or alias) per unit, as in
   r->counters; NaN if it was not counted or is unavailable, and NaN with a
   message for a NULL r or an unknown name. */
double prof_result_counter(const prof_result * r, const char * event);
/* r's user counter or measure called name, as in r->user; NaN if r has
   none of that name, and NaN with a message for a NULL r or name. */
double prof_result_user(const prof_result * r, const char * name);

/* User counters: amounts a target counts itself (bytes, items, nodes
   visited), reported per unit like the event counters. Look a counter up
   once, outside the loop, then add to it in the loop:

       int bytes = prof_user_counter("bytes", 0);
       for (i = 0; i < count; i++)
       {
           copy(dst, src, 4096);
           prof_user_count(bytes, 4096);
       }

   prof_user_count adds into the calling thread's slot for the running
   epoch: one addition, no lookup, no lock, no call (profile/p-user
   measures it). It needs no suite, so a prof_repeat-shaped target can
   count. Every result reports the counters added to (0 included) during
   its measured epochs: the median over them of the epoch's total per
   unit, or with PROF_USER_RATE per second of the epoch's time (Google
   Benchmark's kIsRate). Counters are the process's, shared by all suites;
   adds outside a run and from threads the runner did not start are not
   seen. */
#define PROF_USER_COUNTERS_MAX 32
#define PROF_USER_RATE 1        /* report per second, not per unit */
#define PROF_USER_MEASURE 2     /* (prof_result.user_flags: a measure) */
/* The handle of the counter called name, registering it on first use
   (flags: 0 or PROF_USER_RATE; a later lookup keeps the first flags). A
   name is 1 to 31 printable ASCII characters without , " \ | and is not
   a perf event name, a measure's name or a field of the outputs
   ("median", "real_time", ...): else -1 with a message. Beyond
   PROF_USER_COUNTERS_MAX names, a message and a handle whose adds are
   dropped (counted in the message; results that got such adds say so). */
int prof_user_counter(const char * name, int flags);
/* Add amount to the counter of handle counter in the running epoch. */
static inline void prof_user_count(int counter, double amount);

/* User measures (Haskell perf's Measure): start(arg) is called before
   every epoch and stop(arg) after it, both outside the timed interval;
   the epoch's amount is stop - start (a reading at each end, or a start
   that resets and returns 0). Reported as a user counter (prof_result.user)
   per unit, its unit shown in the table's header and the JSON context.
   Applies to the benchmarks run or added after the call. name as for
   prof_user_counter, and not a user counter's; unit 0 to 15 such
   characters (NULL: none). Returns 0, or -1 with a message for a NULL
   suite or callback, a bad or repeated name, or more than
   PROF_MEASURES_MAX measures. */
#define PROF_MEASURES_MAX 8
typedef double (*prof_measure_fn)(void * arg);
int prof_bench_add_measure(prof_bench * b, const char * name,
        const char * unit, prof_measure_fn start, prof_measure_fn stop,
        void * arg);

/* Write the results not yet written in the CSV or JSON format to the
   output, with the JSON context (benchmarks still queued are run first, with
   a message). A results file (prof_bench_set_output_path) replaces the old
   one only when written whole. Returns 0, or -1 if writing failed (out of
   memory included: a message says so) or the suite is NULL. */
int prof_bench_finish(prof_bench * b);
/* Write all results in format to out (the suite's output is untouched;
   PROF_FORMAT_NONE writes nothing). Returns 0, or -1 if writing failed,
   or with a message for a NULL suite or out or an unknown format. */
int prof_bench_write(FILE * out, const prof_bench * b, prof_format format);

/* The paired comparison of two targets: epochs of a and b alternate, so
   that both see the same machine phases. ratio is the median of the
   per-round ratios time(b) / time(a), [ci_low, ci_high] its
   distribution-free interval at level ci_level (>= PROF_CI_LEVEL); significant is 1
   when that interval excludes 1. p_value is the two-sided sign test of
   "b slower in as many rounds as faster" (ties dropped). rounds is the
   number of paired epochs (the suite's epochs setting). */
typedef struct
{
    double median_a_ns, median_b_ns, ratio, ci_low, ci_high, ci_level;
    double p_value;
    int rounds, significant;
} prof_comparison;
/* Compare a and b with the suite's settings, and print one line
   ("a: 10.00 ns/op vs b: 11.00 ns/op: ratio 1.1000 [1.0500, 1.1200] over
   11 rounds, sign test p = 0.000977: b is slower, significant") to the
   output when the format is markdown (CSV and JSON outputs stay
   parseable: nothing is printed there).
   A NULL suite or target gives significant = 0, NaN figures and a message. */
prof_comparison prof_bench_compare(prof_bench * b,
        const char * name_a, profile_target_t a, void * arg_a,
        const char * name_b, profile_target_t b_target, void * arg_b);

/* A least-squares fit t = coefficient * f(N) over the results with an N of
   one family (name up to the first '/'), each size weighted by the inverse
   of its interval's width (doc/runner.md, "Complexity"): rms_pct is the
   weighted RMS of the residuals over the weighted RMS of the times, in
   percent (0: exact; 100: the fit explains nothing). */
typedef struct
{
    const char * name;      /* "O(n log n)", or the user's name */
    double coefficient;     /* ns per unit of f(N) */
    double rms_pct;
    int within_noise;       /* 1: with each size's time moved within its
                               interval, this fit can rank first; set on
                               fits[0], and on a later fit when the first
                               is not clearly better than it */
} prof_fit;
/* Fit O(1), O(log n), O(n), O(n log n), O(n^2), O(n^3) and the function
   added with prof_bench_add_complexity to the results with an N whose
   family is family (NULL: all results with an N), ranked by rms_pct
   (best first) into fits[0..max). Returns the number of fits, or 0 with a
   message if fewer than 2 results have an N. */
int prof_bench_complexity(const prof_bench * b, const char * family,
        prof_fit * fits, int max);
/* Add a user function f(N) to the fits (one; a new call replaces it), shown
   as name (copied; NULL: "f(n)"). Returns 0, or -1 with a message for a NULL
   suite or f. */
int prof_bench_add_complexity(prof_bench * b, const char * name,
        double (*f)(double n));
/* Print the ranked fits as a markdown table to out (stdout if NULL), with
   a warning under it when the first fit is not clearly better than
   another and when sizes' rows are flagged (unstable, preempted, ...);
   prints nothing (prof_bench_complexity's message only) when there are no
   fits. */
void prof_bench_print_complexity(FILE * out, const prof_bench * b,
        const char * family);

/* Size sweeps (Google Benchmark's Range, Haskell perf's ns): run target
   once per size as a benchmark named "family/N" with its N set
   (prof_bench_set_complexity_n; the setting is restored after), then,
   with markdown on the console, print the family's complexity fits
   (prof_bench_print_complexity). target(arg, count) gets arg pointing to
   the size, a const ulong: ulong n = *(const ulong *) arg. sizes: n
   sizes, each > 0, in increasing order, at most PROF_SIZES_MAX. Returns
   the number of sizes run (the filter may leave some out), or -1 with a
   message for a NULL suite, target or sizes, a family that is empty or
   holds a '/', or a bad list. */
#define PROF_SIZES_MAX 4096
int prof_bench_run_sizes(prof_bench * b, const char * family,
        profile_target_t target, const ulong * sizes, int n);
/* The same over lo, lo * multiplier, lo * multiplier^2, ... up to hi
   (included when reached): lo > 0, hi >= lo, multiplier >= 2. */
int prof_bench_run_range(prof_bench * b, const char * family,
        profile_target_t target, ulong lo, ulong hi, ulong multiplier);
/* on != 0: prof_bench_args and prof_bench_init take --sizes=LIST (and
   PROFILER_SIZES), whose sizes then replace those of every sweep of the
   suite: "8,64,512", or a range "LO..HI" (multiplier 2) or "LO..HIxM".
   Call before them; off (the default), --sizes is an unknown flag. */
int prof_bench_set_sizes_flag(prof_bench * b, int on);

/* Inline code as a benchmark: PROF_BENCH_LOOP(b, "name") { code }. The
   code runs (epochs x iterations) times; each iteration costs one decrement
   and one branch beyond the code. The fixed cost of an epoch is measured
   with empty epochs and subtracted. Do not break out of or jump into the
   loop. Afterwards prof_bench_result(b, prof_bench_count(b) - 1) is its
   result (unless the filter rejected the name: then the code never runs). */
typedef struct
{
    ulong iterations;       /* of the epoch now running */
    void * impl;
} prof_loop;
#define PROF_BENCH_LOOP(b, name) \
    for (prof_loop prof_impl_loop = prof_impl_loop_begin((b), (name)); \
         prof_impl_loop_next(&prof_impl_loop); ) \
        for (ulong prof_impl_loop_i = prof_impl_loop.iterations; \
             prof_impl_loop_i != 0; --prof_impl_loop_i)

/* Keep x (an lvalue or value) alive and computed: the compiler must assume
   it is read here. PROF_CLOBBER(): it must assume all memory is read and
   written here. On gcc and clang, empty asm statements; on MSVC (and
   others) x must be an lvalue, passed to an opaque function. */
#if defined(__GNUC__)
# define PROF_DO_NOT_OPTIMIZE(x) __asm__ __volatile__ ("" : : "r,m" (x) : "memory")
# define PROF_CLOBBER() __asm__ __volatile__ ("" : : : "memory")
#elif defined(_MSC_VER)
# include <intrin.h>
# define PROF_DO_NOT_OPTIMIZE(x) \
    (prof_impl_escape((const void *) &(x)), _ReadWriteBarrier())
# define PROF_CLOBBER() _ReadWriteBarrier()
#else
# define PROF_DO_NOT_OPTIMIZE(x) prof_impl_escape((const void *) &(x))
# define PROF_CLOBBER() prof_impl_escape((const void *) 0)
#endif

/* ==== Internals of the runner ============================================ */

/* ---- the runner --------------------------------------------------------- */

/* How the benchmark program was built, for the report's context and
   warnings (prof_bench_new passes it). */
#if defined(__OPTIMIZE__)
# define PROF_IMPL_OPT 1
#else
# define PROF_IMPL_OPT 0
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
# define PROF_IMPL_SAN 1
#elif defined(__has_feature)
# if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) \
     || __has_feature(memory_sanitizer)
#  define PROF_IMPL_SAN 1
# endif
#endif
#if !defined(PROF_IMPL_SAN)
# define PROF_IMPL_SAN 0
#endif
#if defined(__clang__) || defined(__INTEL_COMPILER)
# define PROF_IMPL_COMPILER __VERSION__
#elif defined(__GNUC__) && defined(__VERSION__)
# define PROF_IMPL_COMPILER "gcc " __VERSION__
#elif defined(_MSC_VER)
# define PROF_IMPL_COMPILER "MSVC"
#else
# define PROF_IMPL_COMPILER "unknown"
#endif
/* The compiler flags of the benchmark program, if its build passes them
   (e.g. -DPROF_COMPILE_FLAGS="\"-O2 -march=native\""); shown in the context. */
#if !defined(PROF_COMPILE_FLAGS)
# define PROF_COMPILE_FLAGS ""
#endif
#define PROF_IMPL_BUILD_INFO \
    PROF_IMPL_OPT, PROF_IMPL_SAN, PROF_IMPL_COMPILER, PROF_COMPILE_FLAGS
prof_bench * prof_impl_bench_new(int optimized, int sanitized,
        const char * compiler, const char * flags);
prof_loop prof_impl_loop_begin(prof_bench * b, const char * name);
int prof_impl_loop_next(prof_loop * loop);
void prof_impl_escape(const void * p);
/* The user counters' slots of the calling thread; the last one takes the
   adds of refused handles. */
extern PROF_IMPL_TLS double prof_impl_user_slots[PROF_USER_COUNTERS_MAX + 1];
PROF_IMPL_INLINE void prof_user_count(int counter, double amount)
{
    prof_impl_user_slots[(unsigned) counter < PROF_USER_COUNTERS_MAX
                         ? counter : PROF_USER_COUNTERS_MAX] += amount;
}

#endif /* PROFILER_BENCH_H */
