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

/* ==== The parts ========================================================== */

/* Each part in a header of its own, its API then its internals:
   the runner, the event counters, tracing (with annotations, locks
   and allocations, sampling). Each compiles alone too. */
#include "profiler/bench.h"
#include "profiler/counters.h"
#include "profiler/trace.h"

#ifdef __cplusplus
}
#endif

#endif /* PROFILER_H */
