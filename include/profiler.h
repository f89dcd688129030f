/*
    profiler.h -- time code, count what it does, report memory use.

    A drop-in implementation of FLINT's profiler.h API (timeit timers, the
    TIMEIT_* macros, 20 accumulating cycle-counter clocks, prof_repeat,
    fprint_memory_usage) that needs only the C library, plus extensions whose
    names start with prof_ / PROF_.

    Units: timeit_t fields are milliseconds (microseconds after
    timeit_stop_us); clocks accumulate counter ticks and get_clock returns
    microseconds; prof_repeat returns microseconds per run.

    SPDX-License-Identifier: MIT
*/

#ifndef PROFILER_H
#define PROFILER_H

#if defined(FLINT_PROFILER_H)
# error "profiler: FLINT's own profiler.h was included before this one; put this library's include/ ahead of FLINT's on the include path"
#endif
/* Also guard FLINT's header name, so that a FLINT header that includes
   <profiler.h> after this one gets this one and no redefinitions. */
#define FLINT_PROFILER_H

/* ==== Configuration and portability ===================================== */

#include <stdio.h>
#include <time.h>

/* glibc's <sys/types.h> typedefs ulong itself (when __USE_MISC is on); take
   it first so that the typedef below never repeats it. */
#if defined(__GLIBC__) && defined(__USE_MISC)
# include <sys/types.h>
# define PROF_IMPL_LIBC_HAS_ULONG 1
#endif

/* FLINT's profiler.h includes flint.h, and FLINT programs (and some FLINT
   2.9 headers, gmpcompat.h among them) rely on it. Do the same where FLINT's
   headers are on the include path as FLINT programs put them ("flint.h"
   found with the quoted search, i.e. -I .../include/flint): a FLINT program
   builds unchanged, a program without FLINT is unaffected. Defining
   PROF_NO_FLINT_INCLUDE turns this off. Needs __has_include (gcc >= 5,
   clang); elsewhere include flint.h yourself first. */
#if !defined(FLINT_H) && !defined(PROF_NO_FLINT_INCLUDE) \
    && defined(__has_include)
# if __has_include("flint.h")
#  include "flint.h"
# endif
#endif

#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
# include <intrin.h>
# pragma intrinsic(__rdtsc)
#endif

/* get_cycle_counter reads a hardware counter: rdtsc on x86-64, cntvct_el0 on
   ARM64. Elsewhere, or when PROF_NO_CYCLE_COUNTER is defined (for the
   library and the program alike, e.g. by CMake's PROFILER_NS_COUNTER=ON),
   the clocks still work, counting monotonic nanoseconds. */
#if !defined(PROF_NO_CYCLE_COUNTER) \
    && ((defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))) \
        || (defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))))
# define FLINT_HAVE_get_cycle_counter 1
#endif

#if (defined(__unix__) && !defined(__CYGWIN__)) || defined(__APPLE__)
/* fprint_memory_usage can read the process's memory use (/proc, getrusage). */
# define FLINT_HAVE_getrusage 1
#endif

/* Storage of one's own in every thread (the clocks, the runner's user
   counters). initial-exec: one %fs-relative access, also from position-
   independent code. Without a known spelling the storage is shared by all
   threads, and the runner runs no target on several threads. */
#if defined(__GNUC__) && !defined(_WIN32)
# define PROF_IMPL_TLS __thread __attribute__((tls_model("initial-exec")))
#elif defined(__GNUC__)
# define PROF_IMPL_TLS __thread
#elif defined(_MSC_VER)
# define PROF_IMPL_TLS __declspec(thread)
#elif defined(__cplusplus) && __cplusplus >= 201103L
# define PROF_IMPL_TLS thread_local
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
# define PROF_IMPL_TLS _Thread_local
#else
# define PROF_IMPL_TLS
# define PROF_IMPL_NO_TLS 1
#endif

#ifdef __cplusplus
extern "C" {
#endif

#if defined(_WIN32) && !defined(__CYGWIN__) && !defined(_MSC_VER)
struct timeval;
/* Replacement for the POSIX function where the C library lacks it (as in
   FLINT): wall-clock time since 1970. Returns 0. */
int gettimeofday(struct timeval * p, void * tz);
#endif

/* ==== Types ============================================================== */

/* FLINT's word types. FLINT 2.x makes them macros, FLINT 3 typedefs them:
   define them only when no FLINT header (nor the C library) has. */
#if !defined(FLINT_H) && !defined(slong)
# if defined(_WIN64)
typedef long long slong;
# else
typedef long slong;
# endif
#endif
#if !defined(FLINT_H) && !defined(ulong) && !defined(PROF_IMPL_LIBC_HAS_ULONG)
# if defined(_WIN64)
typedef unsigned long long ulong;
# else
typedef unsigned long ulong;
# endif
#endif

/* A timer: after timeit_stop, cpu and wall hold elapsed processor time and
   wall time in milliseconds (wall in microseconds after timeit_stop_us). */
typedef struct { slong cpu, wall; } timeit_t[1];

/* A prof_repeat target: runs the code under test count times, enclosing each
   run (or the whole loop) in prof_start() / prof_stop(). */
typedef void (*profile_target_t)(void * arg, ulong count);

/* ==== Timers and TIMEIT macros =========================================== */

/* Start a timer. Wall time comes from a monotonic clock (a clock step cannot
   make it negative), processor time from the process CPU-time clock (summed
   over all threads, as clock() is). A NULL t prints a profiler: message. */
void timeit_start(timeit_t t);
/* Stop: t->cpu and t->wall become the elapsed milliseconds. */
void timeit_stop(timeit_t t);
/* Wall milliseconds since timeit_start(t), without stopping it; 0 for NULL. */
slong timeit_query_wall(timeit_t t);
/* Wall-only timer in microseconds, stored in t->wall; t->cpu is untouched. */
void timeit_start_us(timeit_t t);
void timeit_stop_us(timeit_t t);
/* Print "cpu/wall(s): %g %g\n" to stdout: the times in seconds divided by
   reps. reps == 0 prints a profiler: message and divides by 1. */
void timeit_print(timeit_t t, ulong reps);

/* TIMEIT_REPEAT stops multiplying reps by 10 above this, so that reps never
   overflows. */
#define PROF_TIMEIT_MAX_REPS ((slong) (((ulong) -1 >> 1) / 10))

/* Run the code between TIMEIT_REPEAT and TIMEIT_END_REPEAT 1, 10, 100, ...
   times until one round takes at least 100 ms of processor time; then reps
   holds the last round's count and timer its time (divide by reps).
   Beyond FLINT, a round also ends the loop when it takes 1 s of wall time
   (code that sleeps or waits uses no processor time and FLINT never stops)
   or when reps would overflow (code the compiler deleted takes no time).
   The brace structure and the names __timer, __reps, __timeit_k are FLINT's:
   programs that redefine TIMEIT_END_REPEAT rely on them. */
#define TIMEIT_REPEAT(__timer, __reps) \
    do \
    { \
        slong __timeit_k; \
        __reps = 1; \
        while (1) \
        { \
            timeit_start(__timer); \
            for (__timeit_k = 0; __timeit_k < __reps; __timeit_k++) \
            {

/* Ends with ";" so that FLINT 2 style (no semicolon after the macro) and
   FLINT 3 style (a semicolon) both compile. */
#define TIMEIT_END_REPEAT(__timer, __reps) \
            } \
            timeit_stop(__timer); \
            if (__timer->cpu >= 100 || __timer->wall >= 1000 \
                || __reps > PROF_TIMEIT_MAX_REPS) \
                break; \
            __reps *= 10; \
        } \
    } while (0);

/* TIMEIT_START code TIMEIT_STOP: repeat as TIMEIT_REPEAT and print the time
   of one repetition with timeit_print. */
#define TIMEIT_START \
    do { \
        timeit_t __timer; slong __reps; \
        TIMEIT_REPEAT(__timer, __reps)

#define TIMEIT_STOP \
        TIMEIT_END_REPEAT(__timer, __reps); \
        timeit_print(__timer, __reps); \
    } while (0);

/* As TIMEIT_STOP, but store the seconds per repetition in the double
   lvalues tcpu and twall instead of printing. */
#define TIMEIT_STOP_VALUES(tcpu, twall) \
        TIMEIT_END_REPEAT(__timer, __reps); \
        (tcpu) = __timer->cpu * 0.001 / __reps; \
        (twall) = __timer->wall * 0.001 / __reps; \
    } while (0);

/* Run the code exactly once and print its time (imprecise below a few ms). */
#define TIMEIT_ONCE_START \
    do \
    { \
        timeit_t __timer; \
        timeit_start(__timer); \
        do {

#define TIMEIT_ONCE_STOP \
        } while (0); \
        timeit_stop(__timer); \
        timeit_print(__timer, 1); \
    } while (0);

/* FLINT 2.x / 3.0 spelling of timeit_print, kept for old programs. */
#define TIMEIT_PRINT(__timer, __reps) timeit_print(__timer, __reps);

/* ==== Cycle counter, clocks and prof_repeat ============================== */

/* Number of accumulating clocks. */
#define FLINT_NUM_CLOCKS 20

/* Counter ticks per second: measured once, on first use, against
   CLOCK_MONOTONIC_RAW (x86-64, a few ms), read from cntfrq_el0 (ARM64), or
   1e9 where the clocks count nanoseconds. Thread-safe; cached. */
double prof_tick_rate(void);

/* Median ticks between two back-to-back get_cycle_counter() reads, measured
   now over 1001 pairs after a warm-up of the first reads (~50 us). */
double prof_tick_overhead(void);

/* Ticks per second used by get_clock. Unlike FLINT's fixed 3.1e9, it is the
   measured rate unless the program defines it before including this header,
   in which case the program's value wins (here and in prof_repeat). */
#ifndef FLINT_CLOCKSPEED
# define FLINT_CLOCKSPEED (prof_tick_rate())
#endif
/* Microseconds per tick: 10^6 / FLINT_CLOCKSPEED. */
#ifndef FLINT_CLOCK_SCALE_FACTOR
# define FLINT_CLOCK_SCALE_FACTOR (1000000.0 / FLINT_CLOCKSPEED)
#endif

/* The current counter value, in ticks (see prof_tick_rate). */
static inline double get_cycle_counter(void);

/* Clock state: the counter at the last start_clock(n), and the ticks
   accumulated by start_clock(n)/stop_clock(n) pairs. Each thread has its
   own (FLINT's are shared, so that two threads timing at once race): a
   single-threaded program sees no difference, clock 0 of a target that the
   runner runs on several threads is that thread's, and get_clock reads
   the calling thread's clocks (zero in a thread that never used them). */
extern PROF_IMPL_TLS double clock_last[FLINT_NUM_CLOCKS];
extern PROF_IMPL_TLS double clock_accum[FLINT_NUM_CLOCKS];
/* Internal: the longest prof_start/prof_stop pair since prof_repeat last
   reset it, in ticks (prof_stop keeps it). */
extern PROF_IMPL_TLS double prof_impl_longest_pair;

/* Clocks 0 <= n < FLINT_NUM_CLOCKS. Any other n touches no memory: it prints
   a profiler: message and get_clock returns NaN. */

/* Reset clock n to zero. */
static inline void init_clock(int n);
/* Reset all clocks to zero. */
static inline void init_all_clocks(void);
/* Microseconds accumulated by clock n. */
static inline double get_clock(int n);
/* Start clock n: remember the counter. */
static inline void start_clock(int n);
/* Stop clock n: add the ticks since start_clock(n). */
static inline void stop_clock(int n);
/* start_clock(0) / stop_clock(0), for the targets of prof_repeat. */
static inline void prof_start(void);
static inline void prof_stop(void);

/* prof_repeat's aim for one call of the target and the least time for a call
   to count, in microseconds of clock 0. Define them before including this
   header to change them for that program. */
#ifndef DURATION_TARGET
# define DURATION_TARGET 10000.0
#endif
#ifndef DURATION_THRESHOLD
# define DURATION_THRESHOLD 5000.0
#endif

/* Time one run of target, in microseconds: call target(arg, count) with
   count adjusted until a call takes about DURATION_TARGET us of clock 0,
   until five calls have taken more than DURATION_THRESHOLD us; *min and *max
   get the smallest and largest time per run of those five. Either pointer
   may be NULL. Uses (and clobbers) clock 0. The first call is a warm-up
   (cold caches, page faults) and never one of the five.
   Beyond FLINT, it always ends and always sets *min and *max: a target that
   never calls prof_start/prof_stop is timed as a whole call; all calls
   together take at most 500 * DURATION_TARGET us of wall time (whole calls,
   set-up outside prof_start/prof_stop included, whatever FLINT_CLOCKSPEED
   says): no call is given more runs than the time left holds, and when
   none fits it stops with the calls it has; one whose time stays below the
   threshold stops when count cannot grow. Each case prints a profiler:
   message on stderr. A NULL target gives NaN.
   On a busy machine, a call during which the thread waited for a core
   (getrusage's involuntary switches, and its processor time against the
   wall time) between prof_start and prof_stop is not one of the five: no
   system call is added there; the longest start/stop pair tells a wait in
   the timed section from one in the set-up, which costs nothing. Its runs
   are timed again in pieces short enough to run between two preemptions,
   and clean pieces of more than DURATION_THRESHOLD us in all stand in for
   it. A call takes at most 1.5x the wall time FLINT's prof_repeat would
   take at the same load (its loop run on the per-run times and waits
   seen): there it stops with the timings it has, *min the best clean one
   (or clean piece), and a message says so once per process. */
void prof_repeat(double * min, double * max, profile_target_t target, void * arg);

/* ==== Memory usage ======================================================= */

/* Print the process's memory use in one line to fs (stdout if NULL).
   Linux: "virt/peak/rss/peak: " then current and peak virtual size and
   current and peak resident set (from /proc/self/status); macOS and BSD:
   "virt/rss/peak: " then virtual size, resident set and peak resident set.
   Sizes have units, "24.8 MB" (powers of 1024). A size that cannot be read is
   printed as "n/a" (where /proc is unreadable only the getrusage peak is
   known) and a profiler: message says why. */
void fprint_memory_usage(FILE * fs);
/* fprint_memory_usage(stdout). */
void print_memory_usage(void);

/* FLINT 2.x and 3.0-3.3's memory API (FLINT 3.4 replaced it with the two
   functions above): a program written for them builds unchanged. */
/* The process's memory use in kB (1024 bytes): size and peak, current and
   peak virtual size; rss and hwm, current and peak resident set. */
typedef struct
{
    ulong size;
    ulong peak;
    ulong hwm;
    ulong rss;
} meminfo_t[1];
/* Fill meminfo from /proc/self/status (Linux), else from what the system
   reports (getrusage's peak resident set; macOS: task_info). A field that
   cannot be read is 0, and one profiler: message says why. NULL: nothing. */
void get_memory_usage(meminfo_t meminfo);
/* Print FLINT's line "virt/peak/res/peak(MB): %.2f %.2f %.2f %.2f\n" to
   stdout: size, peak, rss and hwm in MB; a field that cannot be read is
   "n/a", as in fprint_memory_usage. */
#define SHOW_MEMORY_USAGE \
    do { \
        prof_impl_show_memory_usage(); \
    } while (0);

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

/* ==== Event counters ==================================================== */

/* Linux perf events counted around a region of code, like the clocks but for
   events: prof_counters_open once per process, then start/stop pairs add to
   per-event totals that prof_counters_read returns. Events are named as
   `perf stat -e` names them: hardware "cycles", "ref-cycles",
   "instructions", "branches", "branch-misses", "cache-references",
   "cache-misses" (user space only), and software "task-clock" [ns],
   "page-faults", "context-switches", "cpu-migrations" (perf's aliases
   cpu-cycles, branch-instructions, faults, cs, migrations are accepted).
   An event the machine cannot count (no PMU in a VM, perf_event_paranoid,
   seccomp, not Linux) stays in the set as unavailable: it reads as NaN,
   never 0, and prof_counters_reason says why. Nothing here makes a perf
   system call unless prof_counters_open is called. A set counts the thread
   that opened it, and is not shared between threads. */

/* Most events in one set. */
#define PROF_COUNTERS_MAX 16

/* The events prof_counters_open(c, NULL) opens. */
#define PROF_COUNTERS_DEFAULT "cycles,instructions,branches,branch-misses," \
    "task-clock,page-faults,context-switches"

/* Error codes (negative) of the prof_counters_* functions, each with a
   profiler: message: a bad argument (NULL, an unknown, repeated or empty
   event name, too many events, a set not open or already closed); calls in
   the wrong order (start while running, stop while stopped, read before any
   start); a system call that failed on an open event. */
#define PROF_COUNTERS_EINVAL (-1)
#define PROF_COUNTERS_ESTATE (-2)
#define PROF_COUNTERS_ESYS   (-3)

/* One event's reading. value = raw * enabled_ns / running_ns: the count
   corrected for multiplexing (running_ns < enabled_ns when the kernel
   shared the PMU with other events). value and raw are NaN for an
   unavailable event and for one that never ran (running_ns == 0). */
typedef struct
{
    double value;       /* total since open or reset [count; ns for task-clock] */
    double raw;         /* the count as the kernel read it, unscaled */
    double enabled_ns;  /* time the event's group was started [ns] */
    double running_ns;  /* time it was actually counting [ns] */
} prof_counter_value;

/* A set of counters: declare one (static or automatic) and pass its
   address. Calls on a set that is not open (never opened, or closed) return
   PROF_COUNTERS_EINVAL and touch nothing.
   It is opaque storage of a fixed size, as prof_bench is an opaque type:
   the library owns the layout (file descriptors, group ids, baselines,
   reasons) and may change it in any release, while a program keeps
   declaring sets without an allocation, so that opening one never fails
   for memory and nothing is left to free. PROF_COUNTERS_STORAGE bytes
   (the set uses about 3.2 KB today; the rest is room to grow), aligned
   for any of the members below; counters.c checks at compile time that
   its set fits. */
#define PROF_COUNTERS_STORAGE 4096
typedef union
{
    unsigned char prof_impl_bytes[PROF_COUNTERS_STORAGE];
    double prof_impl_align_double;
    unsigned long long prof_impl_align_ull;
    void * prof_impl_align_pointer;
} prof_counters;

/* The names these two types had before the library's types lost their _t
   (FLINT's own, timeit_t and profile_target_t, keep theirs). */
typedef prof_counters prof_counters_t;
typedef prof_counter_value prof_counter_value_t;

/* Open the events of the comma-separated list (NULL: PROF_COUNTERS_DEFAULT)
   in c, stopped, totals zero. Returns how many of them can count (0..n: the
   others are unavailable, see prof_counters_reason), or PROF_COUNTERS_EINVAL
   for a NULL c, an unknown, repeated or empty name, or more than
   PROF_COUNTERS_MAX names (c is then not open), or a c that is already open
   (it stays open, untouched). */
int prof_counters_open(prof_counters * c, const char * events);
/* Close the events; c is then closed (further calls: PROF_COUNTERS_EINVAL).
   Closing a NULL or closed set does nothing. */
void prof_counters_close(prof_counters * c);

/* Start counting (all available events at once, one ioctl per group) / stop
   and keep the totals. 0, or an error code: PROF_COUNTERS_ESTATE for a start
   while running or a stop while stopped (no system call then);
   PROF_COUNTERS_ESYS when an ioctl fails: a failed start leaves the set
   stopped with no group counting, a failed stop leaves it running. With no
   available event they make no system call. */
int prof_counters_start(prof_counters * c);
int prof_counters_stop(prof_counters * c);
/* Set the totals to zero (running or not). 0 or an error code. */
int prof_counters_reset(prof_counters * c);
/* Fill out[0 .. prof_counters_size(c) - 1] with each event's totals since
   open or reset, read at once per group (while running: so far). 0, or an
   error code (out untouched): PROF_COUNTERS_ESTATE before any start since
   open or reset, PROF_COUNTERS_EINVAL for a NULL out. */
int prof_counters_read(prof_counters * c, prof_counter_value * out);
/* The counts one empty start/stop pair records: medians over 101 pairs, in
   out[0 .. size - 1], for the caller to subtract once per start/stop pair.
   The set must be stopped; its totals are unchanged. 0 or an error code. */
int prof_counters_overhead(prof_counters * c, prof_counter_value * out);

/* Number of events in the set (0 if c is not open). */
int prof_counters_size(const prof_counters * c);
/* Event i's name as perf stat spells it; "" for a bad c or i. */
const char * prof_counters_name(const prof_counters * c, int i);
/* Event i's unit: "ns" for task-clock, "" (a count) otherwise. */
const char * prof_counters_unit(const prof_counters * c, int i);
/* Index of the event called name in the set (aliases too), or -1. */
int prof_counters_find(const prof_counters * c, const char * name);
/* 1 if event i counts, 0 if it is unavailable (or bad c or i). */
int prof_counters_available(const prof_counters * c, int i);
/* The errno that made event i unavailable (0 if available; ENOSYS off
   Linux; ENOSPC when its hardware group never got the PMU); -1 for bad c or
   i. */
int prof_counters_errno(const prof_counters * c, int i);
/* One line saying why event i is unavailable and the likely fix ("" if it
   counts; NULL for bad c or i). */
const char * prof_counters_reason(const prof_counters * c, int i);
/* Write one line (no newline) into buf (size bytes, always terminated) for
   a report's context header: which events count and, once per reason, why
   the others are n/a. Returns the length of the full line (as snprintf). */
int prof_counters_context(const prof_counters * c, char * buf, size_t size);
/* Print one line per event to fs (stdout if NULL): name, "ok" with its
   group and whether it counts user space only, or "n/a", errno and reason. */
void prof_counters_fprint(FILE * fs, const prof_counters * c);

/* ==== Tracing ============================================================ */

/* Instrumentation tracing: mark zones of code; each begin and end is one
   8-byte event (counter ticks since the thread's previous event and the
   thread's number for the label) appended to a per-thread buffer, with no
   lock and no system call; full buffers go (through a writer thread) to a
   raw trace file that the prof-trace tool turns into a per-zone summary
   (text, CSV), raw event lines, Chrome JSON or Perfetto's own format. The markers compile to nothing unless
   PROFILE or PROF_TRACE is defined before this header is included (gcc and
   clang). Labels are recorded by address and read when the buffer is
   written: give string literals (or strings that live until exit).

   Output file: the path given to prof_trace_open, else the environment
   variable PROF_TRACE_FILE, else "prof-trace.<pid>.ptrace" in the current
   directory; a path longer than 4095 bytes is refused (never cut). A child
   forked after tracing started, or forked before with PROF_TRACE_FILE
   already set, writes "<path>.<pid>", as does a worker process of the
   runner (prof_bench_set_processes). Events are written when a thread's
   buffer is full (PROF_TRACE_BUFFER_KB, default 1024 KiB per thread,
   4..2097152, at most the memory cap; all buffers stay under
   PROF_TRACE_MEMORY_KB, default 256 MiB, past which new threads get 2 KiB
   buffers of 256 events), at prof_trace_flush, at thread exit, at exit() / return from
   main, before an exec called from code compiled with tracing on (Linux:
   there the exec family's names are the recorder's), and on SIGSEGV,
   SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGINT and SIGTERM (PROF_TRACE_SIGNALS=0
   turns the handlers off). Events that cannot be written are counted,
   never dropped silently: prof_trace_lost and a profiler: message at exit.
   Events recorded inside a program's own handler for one of those signals
   are counted as lost. A program built with -finstrument-functions and
   linked with libprofiler.a is traced at every function entry and exit,
   with no source change.
   On Windows nothing is recorded: the API and markers compile and link,
   every event counts as lost (prof_trace_lost), and the first use says so. */

/* Start (or move) the trace output to path; NULL means PROF_TRACE_FILE or
   the default. Events not yet written go to the new file (a previous file
   that got no event is removed, so a zone begun before the call is kept
   whole); the file being written, named again, is kept and appended to,
   and so is one this process moved away from earlier (A, B, then A).
   Returns 0, or -1 with a profiler: message when path cannot be opened or
   written: the current file, if any, is then kept; with none, events are
   counted as lost. Also -1 when tracing is off: the recorder could not
   register its thread-exit, exit or fork handlers (said once; every
   event counts as lost). Tracing starts by itself at the first event:
   calling this is optional. */
int prof_trace_open(const char * path);
/* Write every thread's recorded events to the file now. Returns 0, or -1 if
   some could not be written (they are counted in prof_trace_lost). Called
   from a signal handler that interrupted the recorder on the same thread
   (its own write, which holds the recorder's lock), it returns -1 at once:
   the events stay in their buffers and are written later. */
int prof_trace_flush(void);
/* Name the calling thread in the trace (copied, at most 31 bytes kept);
   NULL or "" is ignored, as is a call from a signal handler that
   interrupted the recorder on the same thread. */
void prof_trace_thread_name(const char * name);
/* Number of events recorded but not written (unwritable file, full disk). */
unsigned long long prof_trace_lost(void);

/* Sampling (Linux): where the time goes without markers. prof_sample_start
   samples the calling thread and every thread it creates afterwards at hz
   samples a second of CPU time (0: PROF_SAMPLE_HZ, else 997; at most
   10000), through perf events on the task clock with the kernel's user
   call chains (whole with -fno-omit-frame-pointer), into the trace file
   beside the zones (it starts tracing if needed). Threads that exist
   already are not sampled (said once): call it at the top of main.
   Returns 0, or -1 with a profiler: message naming the cause and the
   setting to change when perf events are refused (perf_event_paranoid,
   seccomp, CAP_PERFMON, qemu-user) or the arguments are wrong; zones are
   recorded either way. prof_sample_stop (also run at exit) writes the
   counts: samples, lost, truncated chains and CPU time, from which
   prof-trace gives the rate achieved. Linked only into programs that call
   them. */
int prof_sample_start(double hz);
void prof_sample_stop(void);

/* The markers follow one rule, with tracing on or off, so that a source
   compiles (or fails) alike in both modes: PROF_ZONE and PROF_FUNC are
   declarations, to be put where a declaration may stand (inside a block,
   two on a line too; not as the body of an if, for or while without braces,
   and before C23 not right after a label: write "case 1: { PROF_ZONE(...);
   ... }"); the other four are void expressions, statements anywhere.
   Compiled out, a marker still checks its label's type as it would when
   compiled in, unevaluated: it adds no code and no symbol. */
#if defined(__GNUC__) && (defined(PROFILE) || defined(PROF_TRACE))
/* 1 when the markers record, undefined when they compile to nothing. */
# define PROF_TRACE_ENABLED 1
/* Begin / end a zone named by the string literal label (NULL is shown as
   "(null)"). An end whose label is not the innermost open zone's, a begin
   never ended and an end never begun are reported by prof-trace and flagged
   in its reports, not fixed. */
# define PROF_ZONE_BEGIN(label) prof_impl_trace_rec(PROF_IMPL_EV_BEGIN, (label))
# define PROF_ZONE_END(label) prof_impl_trace_rec(PROF_IMPL_EV_END, (label))
/* Begin / end a zone named after the enclosing function (__func__). */
# define PROF_FUNC_BEGIN() prof_impl_trace_rec(PROF_IMPL_EV_FBEGIN, __func__)
# define PROF_FUNC_END() prof_impl_trace_rec(PROF_IMPL_EV_FEND, __func__)
/* A zone from here to the end of the enclosing block (every exit: return,
   break, goto), through the cleanup attribute. */
# define PROF_ZONE(label) \
    const char * const PROF_IMPL_UNIQUE(prof_impl_zone_) \
    __attribute__((cleanup(prof_impl_zone_cleanup), unused)) = \
        prof_impl_begin(PROF_IMPL_EV_BEGIN, (label))
/* PROF_ZONE named after the enclosing function: put it first in the body. */
# define PROF_FUNC() \
    const char * const PROF_IMPL_UNIQUE(prof_impl_func_) \
    __attribute__((cleanup(prof_impl_func_cleanup), unused)) = \
        prof_impl_begin(PROF_IMPL_EV_FBEGIN, __func__)
/* Annotations (void expressions, statements anywhere), each one record
   in the thread's buffer, about a zone's cost (doc/tracing.md).
   PROF_ZONE_VALUE: an integer (as long long) on the innermost open zone,
   PROF_ZONE_VALUE_F a double; PROF_ZONE_TEXT: the first len bytes of s
   (cut at a zero byte and at 4 KiB) on it. PROF_MESSAGE: the string s
   (cut at 4 KiB) as a line on the thread's timeline. PROF_PLOT: the value
   v (a double) of the quantity name (a string literal) now. PROF_FRAME_MARK:
   a frame ends (of "frame"; _NAMED: of name, a string literal). Strings
   are copied; NULL is recorded as "(null)". */
# define PROF_ZONE_VALUE(n) prof_impl_trace_ext_rec(PROF_IMPL_EXT_ZONE_VALUE, \
    NULL, 2, PROF_IMPL_VALUE_INT, (unsigned long long) (long long) (n))
# define PROF_ZONE_VALUE_F(x) prof_impl_trace_ext_rec(PROF_IMPL_EXT_ZONE_VALUE, \
    NULL, 2, PROF_IMPL_VALUE_DOUBLE, prof_impl_double_bits((double) (x)))
# define PROF_ZONE_TEXT(s, len) prof_impl_trace_zone_text((s), (size_t) (len))
# define PROF_MESSAGE(s) prof_impl_trace_message(s)
# define PROF_PLOT(name, v) prof_impl_trace_ext_rec(PROF_IMPL_EXT_PLOT, \
    prof_impl_name(name), 1, prof_impl_double_bits((double) (v)), 0)
# define PROF_FRAME_MARK() \
    prof_impl_trace_ext_rec(PROF_IMPL_EXT_FRAME, "frame", 0, 0, 0)
# define PROF_FRAME_MARK_NAMED(name) \
    prof_impl_trace_ext_rec(PROF_IMPL_EXT_FRAME, prof_impl_name(name), 0, 0, 0)
/* Locks and allocations (void expressions, statements anywhere), each one
   record in the thread's buffer (doc/tracing.md). lock is any address
   that stands for a lock. PROF_LOCK_WAIT: the thread starts waiting for
   it; PROF_LOCK_ACQUIRED: the thread holds it; PROF_LOCK_RELEASED: it lets
   it go. PROF_LOCK_NAME names it (name: a string that lives until exit, as
   a label; 512 locks at most), else it is shown as "lock" and its address.
   prof_mutex_lock / prof_mutex_unlock: pthread_mutex_lock / _unlock of a
   pthread_mutex_t * (include <pthread.h>), recorded: a mutex taken at once
   (pthread_mutex_trylock) costs one record, a wait one more; they return
   what pthread's functions return. PROF_ALLOC: the program's own
   allocator gave ptr, of size bytes; PROF_FREE: ptr was freed (NULL: none).
   libprofiler-alloc.a records malloc and free themselves. */
# define PROF_LOCK_WAIT(lock) prof_impl_trace_lock_wait(lock)
# define PROF_LOCK_ACQUIRED(lock) prof_impl_trace_lock_acquired(lock)
# define PROF_LOCK_RELEASED(lock) prof_impl_trace_lock_released(lock)
# define PROF_LOCK_NAME(lock, name) prof_impl_trace_lock_name((lock), (name))
# if !defined(_WIN32) /* Windows records nothing (prof_mutex_lock: below) */
#  define prof_mutex_lock(m) \
    prof_impl_mutex_lock(((void) sizeof(pthread_mutex_lock(m)), (m)))
#  define prof_mutex_unlock(m) \
    prof_impl_mutex_unlock(((void) sizeof(pthread_mutex_unlock(m)), (m)))
# endif
# define PROF_ALLOC(ptr, size) prof_impl_trace_alloc((ptr), (size_t) (size))
# define PROF_FREE(ptr) prof_impl_trace_free(ptr)
#else
# define PROF_LOCK_WAIT(lock) ((void) sizeof(prof_impl_check_key(lock)))
# define PROF_LOCK_ACQUIRED(lock) ((void) sizeof(prof_impl_check_key(lock)))
# define PROF_LOCK_RELEASED(lock) ((void) sizeof(prof_impl_check_key(lock)))
# define PROF_LOCK_NAME(lock, name) \
    ((void) sizeof(prof_impl_check_lock_name((lock), (name))))
# define PROF_ALLOC(ptr, size) \
    ((void) sizeof(prof_impl_check_alloc((ptr), (size_t) (size))))
# define PROF_FREE(ptr) ((void) sizeof(prof_impl_check_key(ptr)))
# define PROF_ZONE_VALUE(n) ((void) sizeof((long long) (n)))
# define PROF_ZONE_VALUE_F(x) ((void) sizeof((double) (x)))
# define PROF_ZONE_TEXT(s, len) \
    ((void) sizeof(prof_impl_check_text((s), (size_t) (len))))
# define PROF_MESSAGE(s) ((void) sizeof(prof_impl_check_label(s)))
# define PROF_PLOT(name, v) \
    ((void) sizeof(prof_impl_check_plot((name), (double) (v))))
# define PROF_FRAME_MARK() ((void) 0)
# define PROF_FRAME_MARK_NAMED(name) ((void) sizeof(prof_impl_check_label(name)))
# define PROF_ZONE_BEGIN(label) ((void) sizeof(prof_impl_check_key(label)))
# define PROF_ZONE_END(label) ((void) sizeof(prof_impl_check_key(label)))
# define PROF_FUNC_BEGIN() ((void) sizeof(prof_impl_check_key(__func__)))
# define PROF_FUNC_END() ((void) sizeof(prof_impl_check_key(__func__)))
# define PROF_ZONE(label) enum { PROF_IMPL_UNIQUE(prof_impl_zone_) \
    = sizeof(prof_impl_check_label(label)) }
# define PROF_FUNC() enum { PROF_IMPL_UNIQUE(prof_impl_func_) \
    = sizeof(prof_impl_check_label(__func__)) }
#endif
#if !defined(prof_mutex_lock) /* tracing off, or Windows */
# define prof_mutex_lock(m) pthread_mutex_lock(m)
# define prof_mutex_unlock(m) pthread_mutex_unlock(m)
#endif

/* ==== Internals ========================================================== */

/* Nothing below is part of the API: the definitions that the inline
   functions and macros above expand to. Names start with prof_impl_ /
   PROF_IMPL_ and may change in any release. */

#if defined(__GNUC__)
/* Always inlined and never instrumented: the counter read and the trace
   recorder's fast path must not call the -finstrument-functions hooks
   (which record through them), even at -O0. */
# define PROF_IMPL_INLINE static inline \
    __attribute__((always_inline, no_instrument_function))
#else
# define PROF_IMPL_INLINE static inline
#endif
/* The functions of rare cases (a bad argument, the recorder's slow path):
   kept out of line and out of the hot code. */
#if defined(__GNUC__)
# define PROF_IMPL_COLD __attribute__((cold, noinline))
#else
# define PROF_IMPL_COLD
#endif
/* Of a function that takes a pointer argument n as an address only, never
   reading what it points to: gcc then says nothing of a block just
   allocated and not yet written (PROF_ALLOC after malloc). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 10
# define PROF_IMPL_ADDRESS_ONLY(n) __attribute__((access(none, n)))
#else
# define PROF_IMPL_ADDRESS_ONLY(n)
#endif

/* ---- memory usage ------------------------------------------------------- */

/* SHOW_MEMORY_USAGE's line, to stdout (src/core/memory.c). */
void prof_impl_show_memory_usage(void);

/* ---- the counter and the clocks ----------------------------------------- */

/* Nanoseconds of the monotonic clock (the counter where no hardware counter
   is used), and the cold path of a clock number out of range, which prints
   a profiler: message and returns NaN. */
double prof_impl_now_ns(void);
PROF_IMPL_COLD double prof_impl_bad_clock(int n, const char * func);

/* The raw counter as an integer: the one place that reads it. */
PROF_IMPL_INLINE unsigned long long prof_impl_ticks(void)
{
#if !defined(FLINT_HAVE_get_cycle_counter)
    return (unsigned long long) prof_impl_now_ns();
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    return (unsigned long long) __rdtsc();
#elif defined(__GNUC__) && defined(__x86_64__)
    unsigned int lo, hi;
    __asm__ __volatile__ ("rdtsc" : "=a" (lo), "=d" (hi));
    return ((unsigned long long) hi << 32) | lo;
#elif defined(__GNUC__) && defined(__aarch64__)
    unsigned long long v;
    __asm__ __volatile__ ("mrs %0, cntvct_el0" : "=r" (v));
    return v;
#endif
}

static inline double get_cycle_counter(void)
{
    /* below 2^63, so the signed conversion (one instruction) is exact */
    return (double) (long long) prof_impl_ticks();
}

static inline void init_clock(int n)
{
    if ((unsigned) n < FLINT_NUM_CLOCKS)
        clock_accum[n] = 0.0;
    else
        prof_impl_bad_clock(n, "init_clock");
}

static inline void init_all_clocks(void)
{
    int i;
    for (i = 0; i < FLINT_NUM_CLOCKS; i++)
        clock_accum[i] = 0.0;
}

static inline double get_clock(int n)
{
    if ((unsigned) n < FLINT_NUM_CLOCKS)
        return clock_accum[n] * FLINT_CLOCK_SCALE_FACTOR;
    return prof_impl_bad_clock(n, "get_clock");
}

static inline void start_clock(int n)
{
    if ((unsigned) n < FLINT_NUM_CLOCKS)
        clock_last[n] = get_cycle_counter();
    else
        prof_impl_bad_clock(n, "start_clock");
}

static inline void stop_clock(int n)
{
    double now = get_cycle_counter();
    if ((unsigned) n < FLINT_NUM_CLOCKS)
        clock_accum[n] += now - clock_last[n];
    else
        prof_impl_bad_clock(n, "stop_clock");
}

static inline void prof_start(void) { start_clock(0); }
/* stop_clock(0), and keep the longest start/stop pair of the call: after
   the counter read, so that nothing is added to the timed section.
   prof_repeat tells from it whether a preemption of the call fell between
   prof_start and prof_stop or in the set-up around them. */
static inline void prof_stop(void)
{
    double pair = get_cycle_counter() - clock_last[0];
    clock_accum[0] += pair;
    if (pair > prof_impl_longest_pair)
        prof_impl_longest_pair = pair;
}

/* prof_repeat with the program's FLINT_CLOCKSPEED and DURATION_*. The macro
   routes calls here; &prof_repeat still names the real function. */
void prof_impl_repeat(double * min, double * max, profile_target_t target,
        void * arg, double ticks_per_second, double target_us,
        double threshold_us);
#define prof_repeat(min, max, target, arg) \
    prof_impl_repeat((min), (max), (target), (arg), \
            FLINT_CLOCKSPEED, DURATION_TARGET, DURATION_THRESHOLD)

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

/* ---- the trace recorder ------------------------------------------------- */

#define PROF_IMPL_CAT2(a, b) a##b
#define PROF_IMPL_CAT(a, b) PROF_IMPL_CAT2(a, b)
/* A name of its own for each marker's variable: prefix and a number that
   __COUNTER__ gives each use (so that two zones on one line compile);
   where there is none, the line's. */
#if defined(__COUNTER__)
# define PROF_IMPL_UNIQUE(prefix) PROF_IMPL_CAT(prefix, __COUNTER__)
#else
# define PROF_IMPL_UNIQUE(prefix) PROF_IMPL_CAT(prefix, __LINE__)
#endif
/* Declared, never defined: the markers compiled out pass their label to
   these inside sizeof (unevaluated), so that it is checked as the markers
   compiled in check it (a pointer for the fast path, a string for the
   zones' cleanup). */
int prof_impl_check_key(const void * key);
int prof_impl_check_label(const char * label);
int prof_impl_check_text(const char * s, size_t len);
int prof_impl_check_plot(const char * name, double v);
int prof_impl_check_lock_name(const void * lock, const char * name);
int prof_impl_check_alloc(const void * ptr, size_t size);

/* The event layout and the recorder's fast path used by the markers. An
   event is one 8-byte word in the thread's buffer
   (src/trace/trace_format.h, version 2):
       ticks since the thread's previous event << 24 | id << 3 | type
   where id is the thread's number for the label (or function address),
   found in a small per-thread cache; a cache miss, a full buffer or a gap of
   2^40 ticks takes the slow path. The library's sources see it through
   PROF_IMPL_TRACE_INTERNAL. The instrumentation hooks' types (4, 5) and
   the time word's (6) are in trace_format.h. */
#define PROF_IMPL_EV_BEGIN 0u  /* zone begin, id = label */
#define PROF_IMPL_EV_END 1u    /* zone end, id = label */
#define PROF_IMPL_EV_FBEGIN 2u /* function begin, id = __func__ */
#define PROF_IMPL_EV_FEND 3u   /* function end, id = __func__ */
#if defined(__GNUC__) && (defined(PROFILE) || defined(PROF_TRACE) \
        || defined(PROF_IMPL_TRACE_INTERNAL))
#define PROF_IMPL_TRACE_SLOTS 256 /* cache entries, in pairs */
/* The first of key's pair of cache slots: the top 8 bits (256 slots) of a
   multiplicative hash of its address, made even. The fast path and the
   slow path's cache_put (src/trace/trace.c) both use it. */
#define PROF_IMPL_TRACE_PAIR(key) ((size_t) \
    ((((unsigned long long) (size_t) (key) * 0x9e3779b97f4a7c15ull) >> 56) & ~1ull))
typedef struct
{
    const void * key;        /* label or function address */
    unsigned long long tag;  /* its id << 3 */
} prof_impl_trace_slot;
PROF_IMPL_COLD void prof_impl_trace_slow(unsigned type, const void * key,
        unsigned long long ticks);
/* Extension records (src/trace/trace_annot.c): the one writer, kind (and
   the label id of name, if not NULL), n words w, the string s (at most len
   bytes, cut at 4 KiB; NULL: none); and the annotations' entry points. */
PROF_IMPL_COLD void prof_impl_trace_ext(unsigned kind, const char * name,
        const unsigned long long * w, size_t n, const char * s, size_t len);
PROF_IMPL_COLD void prof_impl_trace_zone_text(const char * s, size_t len);
PROF_IMPL_COLD void prof_impl_trace_message(const char * s);
/* Kinds and value tags of src/trace/trace_format.h (checked equal in
   trace_annot.c) that the inline path writes. */
#define PROF_IMPL_EXT_ZONE_VALUE 1u
#define PROF_IMPL_EXT_PLOT 4u
#define PROF_IMPL_EXT_FRAME 5u
#define PROF_IMPL_VALUE_INT 0u
#define PROF_IMPL_VALUE_DOUBLE 1u
/* Locks and allocations (src/trace/trace_lock.c). */
PROF_IMPL_COLD void prof_impl_trace_lock_wait(const void * lock);
PROF_IMPL_COLD void prof_impl_trace_lock_acquired(const void * lock);
PROF_IMPL_COLD void prof_impl_trace_lock_released(const void * lock);
PROF_IMPL_COLD void prof_impl_trace_lock_name(const void * lock, const char * name);
int prof_impl_mutex_lock(void * mutex);
int prof_impl_mutex_unlock(void * mutex);
PROF_IMPL_COLD PROF_IMPL_ADDRESS_ONLY(1)
void prof_impl_trace_alloc(const void * ptr, size_t size);
PROF_IMPL_COLD PROF_IMPL_ADDRESS_ONLY(1) void prof_impl_trace_free(const void * ptr);

/* Where a thread records: the free part [pos, end) of one of its buffers
   and the ticks of the last event recorded there. A marker loads the place,
   then stores pos (and last) back into it; a signal handler that records
   in between may move the thread to another place (a full buffer), and the
   interrupted marker's late store then lands in the place left, which
   stays inside its own buffer: a place never changes buffers, and a thread
   never goes back to the place it just left (src/trace/trace_impl.h). */
typedef struct
{
    unsigned long long * pos, * end;
    unsigned long long last;
} prof_impl_trace_place;

/* What the fast path reads, per thread. */
typedef struct
{
    prof_impl_trace_place * cur;   /* pos == end: the slow path */
    const prof_impl_trace_slot * cache; /* PROF_IMPL_TRACE_SLOTS entries */
} prof_impl_trace_fast;
/* initial-exec: one %fs-relative access, also from position-independent
   code (no __tls_get_addr call on the fast path) */
extern __thread prof_impl_trace_fast prof_impl_trace_tls
    __attribute__((tls_model("initial-exec")));

/* Append one event to the calling thread's buffer: the cache pair of key
   (a multiplicative hash), then one word. */
PROF_IMPL_INLINE void prof_impl_trace_rec(unsigned type, const void * key)
{
    unsigned long long t = prof_impl_ticks();
    prof_impl_trace_place * c = prof_impl_trace_tls.cur;
    unsigned long long * p = __atomic_load_n(&c->pos, __ATOMIC_RELAXED);
    const prof_impl_trace_slot * s = prof_impl_trace_tls.cache
        + PROF_IMPL_TRACE_PAIR(key);
    unsigned long long d, tag;
    int miss;
    s = s->key == key ? s : s + 1;
    miss = s->key != key;
    tag = s->tag;
    /* pos before last: a signal handler that records in between raises
       last, so d wraps and the slow path takes the event (compiler-only
       fences, no instruction: the handler runs on this thread) */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    d = t - c->last;
    if (__builtin_expect(miss | (p == c->end) | ((d >> 40) != 0), 0))
    {
        prof_impl_trace_slow(type, key, t);
        return;
    }
    /* last before the word: a handler that records in between writes over
       this event, with its delta from t, never ahead of the time the next
       event counts from */
    __atomic_store_n(&c->last, t, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    *p = d << 24 | tag | type;
    /* release: a flush from another thread (exit, signal) reads up to pos */
    __atomic_store_n(&c->pos, p + 1, __ATOMIC_RELEASE);
}

PROF_IMPL_INLINE unsigned long long prof_impl_double_bits(double v)
{
    unsigned long long b;
    __builtin_memcpy(&b, &v, sizeof b);
    return b;
}
/* A name for a plot or frame: NULL is "(null)", as a NULL label. */
PROF_IMPL_INLINE const char * prof_impl_name(const char * name)
{
    return name != NULL ? name : "(null)";
}

/* An extension record (src/trace/trace_format.h) of kind inline, as the
   fast path writes an event: the extension word, the id of name (not
   NULL: looked up in the markers' cache) and n <= 2 words w0, w1; a miss,
   a buffer without room or a long gap takes prof_impl_trace_ext. */
PROF_IMPL_INLINE void prof_impl_trace_ext_rec(unsigned kind, const char * name,
        unsigned n, unsigned long long w0, unsigned long long w1)
{
    unsigned long long t = prof_impl_ticks();
    prof_impl_trace_place * c = prof_impl_trace_tls.cur;
    unsigned long long * p = __atomic_load_n(&c->pos, __ATOMIC_RELAXED);
    unsigned long long d, tag = 0;
    unsigned words = (name != NULL) + n, k = 0;
    int miss = 0;
    if (name != NULL)
    {
        const prof_impl_trace_slot * s = prof_impl_trace_tls.cache
            + PROF_IMPL_TRACE_PAIR(name);
        s = s->key == name ? s : s + 1;
        miss = s->key != name;
        tag = s->tag;
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* as in prof_impl_trace_rec */
    d = t - c->last;
    /* the closed place's pos and end are NULL: no room, no subtraction */
    if (__builtin_expect(miss | (p == c->end || (size_t) (c->end - p) <= words)
                         | ((d >> 40) != 0), 0))
    {
        unsigned long long w[2];
        w[0] = w0;
        w[1] = w1;
        prof_impl_trace_ext(kind, name, w, n, NULL, 0);
        return;
    }
    __atomic_store_n(&c->last, t, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    p[0] = d << 24 | (unsigned long long) words << 8 | kind << 3 | 7u;
    if (name != NULL)
        p[++k] = tag >> 3;
    if (n > 0)
        p[++k] = w0;
    if (n > 1)
        p[++k] = w1;
    __atomic_store_n(&c->pos, p + 1 + words, __ATOMIC_RELEASE);
}

PROF_IMPL_INLINE void prof_impl_zone_cleanup(const char * const * label)
{
    prof_impl_trace_rec(PROF_IMPL_EV_END, *label);
}
PROF_IMPL_INLINE void prof_impl_func_cleanup(const char * const * name)
{
    prof_impl_trace_rec(PROF_IMPL_EV_FEND, *name);
}
PROF_IMPL_INLINE const char * prof_impl_begin(unsigned type, const char * label)
{
    prof_impl_trace_rec(type, label);
    return label;
}

/* The exec family, in a translation unit that traces (Linux): each name
   is a macro for the recorder's function (src/trace/trace_exec.c), which
   writes every buffer and the end record, then calls the C library's
   function. Only the calls compiled with tracing on go there: the C
   library's names stay the C library's, in this program and any other
   (doc/tracing.md says why). In C++ the declarations carry the exception
   specification of glibc's, which <unistd.h> gives the renamed names when
   it comes after this header. */
# if defined(__linux__)
#  if defined(__cplusplus) && defined(__THROW)
#   define PROF_IMPL_THROW __THROW
#  else
#   define PROF_IMPL_THROW
#  endif
int prof_impl_execve(const char * path, char * const argv[],
        char * const envp[]) PROF_IMPL_THROW;
int prof_impl_execv(const char * path, char * const argv[]) PROF_IMPL_THROW;
int prof_impl_execvpe(const char * file, char * const argv[],
        char * const envp[]) PROF_IMPL_THROW;
int prof_impl_execvp(const char * file, char * const argv[]) PROF_IMPL_THROW;
int prof_impl_fexecve(int fd, char * const argv[], char * const envp[])
        PROF_IMPL_THROW;
int prof_impl_execl(const char * path, const char * arg, ...) PROF_IMPL_THROW;
int prof_impl_execle(const char * path, const char * arg, ...) PROF_IMPL_THROW;
int prof_impl_execlp(const char * file, const char * arg, ...) PROF_IMPL_THROW;
#  if defined(PROFILE) || defined(PROF_TRACE)
#   define execve prof_impl_execve
#   define execv prof_impl_execv
#   define execvpe prof_impl_execvpe
#   define execvp prof_impl_execvp
#   define fexecve prof_impl_fexecve
#   define execl prof_impl_execl
#   define execle prof_impl_execle
#   define execlp prof_impl_execlp
#  endif
# endif
#endif

#ifdef __cplusplus
}
#endif

#endif /* PROFILER_H */
