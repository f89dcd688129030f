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
# define PROF_LIBC_HAS_ULONG 1
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

#if defined(__GNUC__)
# define PROF_COLD __attribute__((cold, noinline))
#else
# define PROF_COLD
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
#if !defined(FLINT_H) && !defined(ulong) && !defined(PROF_LIBC_HAS_ULONG)
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

/* Internal (not part of the API): nanoseconds of the monotonic clock, the
   counter where no hardware counter is used; and the cold path of a clock
   number out of range, which prints a profiler: message and returns NaN. */
double prof_impl_now_ns(void);
PROF_COLD double prof_impl_bad_clock(int n, const char * func);

/* The current counter value, in ticks (see prof_tick_rate). */
static inline double get_cycle_counter(void)
{
#if !defined(FLINT_HAVE_get_cycle_counter)
    return prof_impl_now_ns();
#elif defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
    return (double) (long long) __rdtsc();
#elif defined(__GNUC__) && defined(__x86_64__)
    unsigned int lo, hi;
    __asm__ __volatile__ ("rdtsc" : "=a" (lo), "=d" (hi));
    /* below 2^63, so the signed conversion (one instruction) is exact */
    return (double) (long long) (((unsigned long long) hi << 32) | lo);
#elif defined(__GNUC__) && defined(__aarch64__)
    unsigned long long v;
    __asm__ __volatile__ ("mrs %0, cntvct_el0" : "=r" (v));
    return (double) (long long) v;
#endif
}

/* Clock state: the counter at the last start_clock(n), and the ticks
   accumulated by start_clock(n)/stop_clock(n) pairs. */
extern double clock_last[FLINT_NUM_CLOCKS];
extern double clock_accum[FLINT_NUM_CLOCKS];

/* Clocks 0 <= n < FLINT_NUM_CLOCKS. Any other n touches no memory: it prints
   a profiler: message and get_clock returns NaN. */

/* Reset clock n to zero. */
static inline void init_clock(int n)
{
    if ((unsigned) n < FLINT_NUM_CLOCKS)
        clock_accum[n] = 0.0;
    else
        prof_impl_bad_clock(n, "init_clock");
}

/* Reset all clocks to zero. */
static inline void init_all_clocks(void)
{
    int i;
    for (i = 0; i < FLINT_NUM_CLOCKS; i++)
        clock_accum[i] = 0.0;
}

/* Microseconds accumulated by clock n. */
static inline double get_clock(int n)
{
    if ((unsigned) n < FLINT_NUM_CLOCKS)
        return clock_accum[n] * FLINT_CLOCK_SCALE_FACTOR;
    return prof_impl_bad_clock(n, "get_clock");
}

/* Start clock n: remember the counter. */
static inline void start_clock(int n)
{
    if ((unsigned) n < FLINT_NUM_CLOCKS)
        clock_last[n] = get_cycle_counter();
    else
        prof_impl_bad_clock(n, "start_clock");
}

/* Stop clock n: add the ticks since start_clock(n). */
static inline void stop_clock(int n)
{
    double now = get_cycle_counter();
    if ((unsigned) n < FLINT_NUM_CLOCKS)
        clock_accum[n] += now - clock_last[n];
    else
        prof_impl_bad_clock(n, "stop_clock");
}

/* start_clock(0) / stop_clock(0), for the targets of prof_repeat. */
static inline void prof_start(void) { start_clock(0); }
static inline void prof_stop(void) { stop_clock(0); }

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
   Beyond FLINT, it always ends and always sets *min and *max: a target that never
   calls prof_start/prof_stop is timed as a whole call; one that runs for
   seconds stops after 500 * DURATION_TARGET us with the calls it has; one
   whose time stays below the threshold stops when count cannot grow. Each
   case prints a profiler: message on stderr. A NULL target gives NaN. */
void prof_repeat(double * min, double * max, profile_target_t target, void * arg);

/* Internal: prof_repeat with the program's FLINT_CLOCKSPEED and DURATION_*.
   The macro routes calls here; &prof_repeat still names the real function. */
void prof_impl_repeat(double * min, double * max, profile_target_t target,
        void * arg, double ticks_per_second, double target_us,
        double threshold_us);
#define prof_repeat(min, max, target, arg) \
    prof_impl_repeat((min), (max), (target), (arg), \
            FLINT_CLOCKSPEED, DURATION_TARGET, DURATION_THRESHOLD)

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
} prof_counter_value_t;

/* A set of counters. Declare one (static or automatic) and pass its
   address; its fields are private. Calls on a set that is not open (never
   opened, or closed) return PROF_COUNTERS_EINVAL and touch nothing. */
typedef struct
{
    unsigned int magic;
    int n, state, paranoid;
    int leader[2];                          /* hardware, software group */
    int kind[PROF_COUNTERS_MAX];
    int group[PROF_COUNTERS_MAX];
    int fd[PROF_COUNTERS_MAX];
    int err[PROF_COUNTERS_MAX];
    int user_only[PROF_COUNTERS_MAX];
    unsigned long long id[PROF_COUNTERS_MAX];
    double base_raw[PROF_COUNTERS_MAX];
    double base_enabled[2], base_running[2];
    char reason[PROF_COUNTERS_MAX][160];
} prof_counters_t;

/* Open the events of the comma-separated list (NULL: PROF_COUNTERS_DEFAULT)
   in c, stopped, totals zero. Returns how many of them can count (0..n: the
   others are unavailable, see prof_counters_reason), or PROF_COUNTERS_EINVAL
   for a NULL c, an unknown, repeated or empty name, or more than
   PROF_COUNTERS_MAX names (c is then not open), or a c that is already open
   (it stays open, untouched). */
int prof_counters_open(prof_counters_t * c, const char * events);
/* Close the events; c is then closed (further calls: PROF_COUNTERS_EINVAL).
   Closing a NULL or closed set does nothing. */
void prof_counters_close(prof_counters_t * c);

/* Start counting (all available events at once, one ioctl per group) / stop
   and keep the totals. 0, or an error code: PROF_COUNTERS_ESTATE for a start
   while running or a stop while stopped. With no available event they make
   no system call. */
int prof_counters_start(prof_counters_t * c);
int prof_counters_stop(prof_counters_t * c);
/* Set the totals to zero (running or not). 0 or an error code. */
int prof_counters_reset(prof_counters_t * c);
/* Fill out[0 .. prof_counters_size(c) - 1] with each event's totals since
   open or reset, read at once per group (while running: so far). 0, or an
   error code (out untouched): PROF_COUNTERS_ESTATE before any start since
   open or reset, PROF_COUNTERS_EINVAL for a NULL out. */
int prof_counters_read(prof_counters_t * c, prof_counter_value_t * out);
/* The counts one empty start/stop pair records: medians over 101 pairs, in
   out[0 .. size - 1], for the caller to subtract once per start/stop pair.
   The set must be stopped; its totals are unchanged. 0 or an error code. */
int prof_counters_overhead(prof_counters_t * c, prof_counter_value_t * out);

/* Number of events in the set (0 if c is not open). */
int prof_counters_size(const prof_counters_t * c);
/* Event i's name as perf stat spells it; "" for a bad c or i. */
const char * prof_counters_name(const prof_counters_t * c, int i);
/* Event i's unit: "ns" for task-clock, "" (a count) otherwise. */
const char * prof_counters_unit(const prof_counters_t * c, int i);
/* Index of the event called name in the set (aliases too), or -1. */
int prof_counters_find(const prof_counters_t * c, const char * name);
/* 1 if event i counts, 0 if it is unavailable (or bad c or i). */
int prof_counters_available(const prof_counters_t * c, int i);
/* The errno that made event i unavailable (0 if available; ENOSYS off
   Linux; ENOSPC when its hardware group never got the PMU); -1 for bad c or
   i. */
int prof_counters_errno(const prof_counters_t * c, int i);
/* One line saying why event i is unavailable and the likely fix ("" if it
   counts; NULL for bad c or i). */
const char * prof_counters_reason(const prof_counters_t * c, int i);
/* Write one line (no newline) into buf (size bytes, always terminated) for
   a report's context header: which events count and, once per reason, why
   the others are n/a. Returns the length of the full line (as snprintf). */
int prof_counters_context(const prof_counters_t * c, char * buf, size_t size);
/* Print one line per event to fs (stdout if NULL): name, "ok" with its
   group and whether it counts user space only, or "n/a", errno and reason. */
void prof_counters_fprint(FILE * fs, const prof_counters_t * c);

#ifdef __cplusplus
}
#endif

#endif /* PROFILER_H */
