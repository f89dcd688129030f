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

#if (defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))) \
    || (defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__)))
/* get_cycle_counter reads a hardware counter: rdtsc on x86-64, cntvct_el0 on
   ARM64. Elsewhere the clocks still work, counting monotonic nanoseconds. */
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
#if defined(_MSC_VER) && (defined(_M_X64) || defined(_M_IX86))
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
#else
    return prof_impl_now_ns();
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

/* ==== Tracing ============================================================ */

/* Instrumentation tracing: mark zones of code; each begin and end is one
   16-byte event (counter ticks and the label's address) appended to a
   per-thread buffer, with no lock and no system call; full buffers go to a
   raw trace file that the prof-trace tool turns into a per-zone summary
   (text, CSV) or Chrome/Perfetto JSON. The markers compile to nothing unless
   PROFILE or PROF_TRACE is defined before this header is included (gcc and
   clang). Labels are recorded by address and read when the buffer is
   written: give string literals (or strings that live until exit).

   Output file: the path given to prof_trace_open, else the environment
   variable PROF_TRACE_FILE, else "prof-trace.<pid>.ptrace" in the current
   directory. Events are written when a thread's buffer is full
   (PROF_TRACE_BUFFER_KB, default 1024 KiB per thread; all buffers stay
   under PROF_TRACE_MEMORY_KB, default 256 MiB, past which new threads get
   4 KiB buffers), at prof_trace_flush, at thread exit, at exit() / return
   from main, and on SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGINT and
   SIGTERM (PROF_TRACE_SIGNALS=0 turns the handlers off). Events that cannot be written are counted, never
   dropped silently: prof_trace_lost and a profiler: message at exit. A
   program built with -finstrument-functions and linked with libprofiler.a
   is traced at every function entry and exit, with no source change. */

/* Start (or move) the trace output to path; NULL means PROF_TRACE_FILE or
   the default. Events not yet written go to the new file (a previous file
   that got no event is removed, so a zone begun before the call is kept
   whole). Returns 0, or -1 with a profiler: message when path cannot be
   opened or written (the events are then counted as lost). Tracing starts
   by itself at the first event: calling this is optional. */
int prof_trace_open(const char * path);
/* Write every thread's recorded events to the file now. Returns 0, or -1 if
   some could not be written (they are counted in prof_trace_lost). */
int prof_trace_flush(void);
/* Name the calling thread in the trace (copied, at most 31 bytes kept);
   NULL or "" is ignored. */
void prof_trace_thread_name(const char * name);
/* Number of events recorded but not written (unwritable file, full disk). */
unsigned long long prof_trace_lost(void);

/* Internal (not part of the API): the event layout and the recorder's fast
   path used by the markers below. */
typedef struct
{
    unsigned long long word; /* ticks << 3 | event type */
    unsigned long long id;   /* label address (or function address) */
} prof_impl_trace_event_t;
#define PROF_IMPL_EV_BEGIN 0u  /* zone begin, id = label */
#define PROF_IMPL_EV_END 1u    /* zone end, id = label */
#define PROF_IMPL_EV_FBEGIN 2u /* function begin, id = __func__ */
#define PROF_IMPL_EV_FEND 3u   /* function end, id = __func__ */
#define PROF_IMPL_EV_ENTER 4u  /* -finstrument-functions entry, id = address */
#define PROF_IMPL_EV_EXIT 5u   /* -finstrument-functions exit, id = address */
PROF_COLD void prof_impl_trace_slow(unsigned long long word,
        unsigned long long id);

#if defined(__GNUC__) && (defined(PROFILE) || defined(PROF_TRACE) \
        || defined(PROF_IMPL_TRACE_INTERNAL))
typedef struct { prof_impl_trace_event_t * pos, * end; } prof_impl_trace_tls_t;
/* initial-exec: one %fs-relative access, also from position-independent
   code (no __tls_get_addr call on the fast path) */
extern __thread prof_impl_trace_tls_t prof_impl_trace_tls
    __attribute__((tls_model("initial-exec")));

/* The raw counter as an integer (see get_cycle_counter). */
static inline __attribute__((always_inline, no_instrument_function))
unsigned long long prof_impl_trace_ticks(void)
{
# if defined(__x86_64__)
    unsigned int lo, hi;
    __asm__ __volatile__ ("rdtsc" : "=a" (lo), "=d" (hi));
    return ((unsigned long long) hi << 32) | lo;
# elif defined(__aarch64__)
    unsigned long long v;
    __asm__ __volatile__ ("mrs %0, cntvct_el0" : "=r" (v));
    return v;
# else
    return (unsigned long long) prof_impl_now_ns();
# endif
}

/* Append one event to the calling thread's buffer. */
static inline __attribute__((always_inline, no_instrument_function))
void prof_impl_trace_rec(unsigned type, const void * id)
{
    unsigned long long w = prof_impl_trace_ticks() << 3 | type;
    prof_impl_trace_event_t * p = prof_impl_trace_tls.pos;
    if (__builtin_expect(p == prof_impl_trace_tls.end, 0))
    {
        prof_impl_trace_slow(w, (unsigned long long) (size_t) id);
        return;
    }
    p->word = w;
    p->id = (unsigned long long) (size_t) id;
    /* release: a flush from another thread (exit, signal) reads up to pos */
    __atomic_store_n(&prof_impl_trace_tls.pos, p + 1, __ATOMIC_RELEASE);
}

static inline __attribute__((always_inline, no_instrument_function))
void prof_impl_zone_cleanup(const char * const * label)
{
    prof_impl_trace_rec(PROF_IMPL_EV_END, *label);
}
static inline __attribute__((always_inline, no_instrument_function))
void prof_impl_func_cleanup(const char * const * name)
{
    prof_impl_trace_rec(PROF_IMPL_EV_FEND, *name);
}
static inline __attribute__((always_inline, no_instrument_function))
const char * prof_impl_begin(unsigned type, const char * label)
{
    prof_impl_trace_rec(type, label);
    return label;
}
# define PROF_IMPL_CAT2(a, b) a##b
# define PROF_IMPL_CAT(a, b) PROF_IMPL_CAT2(a, b)
#endif

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
   break, goto), through the cleanup attribute; one per line. */
# define PROF_ZONE(label) \
    const char * const PROF_IMPL_CAT(prof_impl_zone_, __LINE__) \
    __attribute__((cleanup(prof_impl_zone_cleanup), unused)) = \
        prof_impl_begin(PROF_IMPL_EV_BEGIN, (label))
/* PROF_ZONE named after the enclosing function: put it first in the body. */
# define PROF_FUNC() \
    const char * const PROF_IMPL_CAT(prof_impl_func_, __LINE__) \
    __attribute__((cleanup(prof_impl_func_cleanup), unused)) = \
        prof_impl_begin(PROF_IMPL_EV_FBEGIN, __func__)
#else
# define PROF_ZONE_BEGIN(label) ((void) 0)
# define PROF_ZONE_END(label) ((void) 0)
# define PROF_FUNC_BEGIN() ((void) 0)
# define PROF_FUNC_END() ((void) 0)
# define PROF_ZONE(label) ((void) 0)
# define PROF_FUNC() ((void) 0)
#endif

#ifdef __cplusplus
}
#endif

#endif /* PROFILER_H */
