/*
    Reading a raw trace file (src/trace_format.h) into zones, and writing the
    reports: the per-zone summary (text, CSV) and Chrome Trace Event JSON.
    Used by prof-trace, the tests and the fuzz target; not installed.

    The reader never trusts the file: every size is checked, a chunk it
    cannot read is skipped with a warning and the next one is found by its
    magic number, a truncated tail is reported. Zones are rebuilt per thread
    with a stack: an end that matches no open zone, a begin never ended and
    an end that skips open zones are kept and flagged, never dropped.
    All times are counter ticks relative to the trace's start; the reports
    convert them with the file's tick rate, so a test can write a file with a
    rate of 1e9 (ticks = ns) and assert exact results.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_READ_H
#define PROF_TRACE_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum
{
    PT_NO_END = 1,   /* begun, never ended: closed at the next enclosing end
                        or at the end of the trace */
    PT_NO_BEGIN = 2  /* an end with no matching begin: a zone of length 0 */
};

typedef struct
{
    uint32_t thread;     /* index into pt_trace.threads */
    char kind;           /* 'u' labelled zone, 'f' function */
    uint8_t flags;       /* PT_NO_END, PT_NO_BEGIN */
    uint16_t depth;      /* open zones around it (0: outermost), capped */
    const char * name;   /* owned by the pt_trace */
    int64_t begin, end;  /* ticks since the start */
    int64_t child;       /* ticks spent in its direct children */
} pt_zone;

typedef struct
{
    uint32_t tid;
    char name[40];
    uint64_t events;
    uint64_t lost;
} pt_thread;

typedef struct pt_state pt_state; /* reader internals */

typedef struct
{
    double tick_rate;    /* ticks per second (from the file) */
    uint32_t pid;
    uint64_t start_unix_ns;
    int64_t span;        /* ticks from the start to the last event or end */
    pt_zone * zones;     /* in the order they began (per thread, exactly) */
    size_t nzones;
    pt_thread * threads;
    size_t nthreads;
    uint64_t events;     /* events read */
    uint64_t lost;       /* events the recorder could not write */
    int has_end;         /* the file has an end record */
    int end_signal;      /* signal that ended the program, 0 if none */
    unsigned long warnings;
    char process[256];   /* executable path, if known */
    pt_state * st;
} pt_trace;

typedef struct
{
    FILE * warn;         /* where warnings go (NULL: nowhere) */
    int resolve_symbols; /* name -finstrument-functions addresses from the
                            ELF files named by the trace (0 in the fuzzer) */
    unsigned max_warnings_per_kind; /* 0: 10 */
} pt_options;

/* Read n bytes of a trace file. Returns 0, or -1 if it is not a trace file
   (no valid header): then nothing is usable. Warnings go to o->warn,
   prefixed "prof-trace: ". Call pt_free in both cases. */
int pt_read(const unsigned char * data, size_t n, const pt_options * o,
            pt_trace * t);
void pt_free(pt_trace * t);

typedef enum
{
    PT_SUMMARY_TEXT,     /* aligned columns after a one-line header */
    PT_SUMMARY_CSV       /* RFC 4180 CSV with a header row */
} pt_summary_format;

typedef enum
{
    PT_JSON_X,           /* one complete ("X") event per zone: Perfetto */
    PT_JSON_BE           /* a begin ("B") and an end ("E") event per zone,
                            in time order per thread: speedscope */
} pt_json_format;

/* The summary, one row per (kind, name): calls, total, avg, min, max and
   self time in ns, and the count of unmatched zones (flagged '*', not in the
   statistics), sorted by total time. */
void pt_write_summary(FILE * out, const pt_trace * t, pt_summary_format f);
/* Chrome Trace Event JSON (array form): M events naming the process and the
   threads, then the zones; ts and dur in microseconds since the start with
   three decimals, from the begin and end each rounded once to whole
   nanoseconds (dur = end - begin), so that children nest exactly inside
   their parents. An end without a begin is an instant ("i") event, and
   unmatched zones are flagged in args. */
void pt_write_json(FILE * out, const pt_trace * t, pt_json_format f);

/* Read a whole file (or stdin for "-") into memory. NULL on error (errno). */
unsigned char * pt_slurp(const char * path, size_t * n);

#endif
