/*
    profiler/counters.h -- event counters: prof_counters_* (Linux perf events).

    A part of profiler.h, which includes it: include profiler.h, or
    this header alone (it brings profiler.h in, which includes it in
    its place). Names that start with prof_impl_ / PROF_IMPL_ are
    internals and may change in any release.

    SPDX-License-Identifier: MIT
*/

#if !defined(PROFILER_H)
# include "../profiler.h"
#elif !defined(PROFILER_COUNTERS_H)
#define PROFILER_COUNTERS_H

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

#endif /* PROFILER_COUNTERS_H */
