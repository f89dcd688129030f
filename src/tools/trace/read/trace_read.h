/*
    Reading a raw trace file (src/trace/trace_format.h) into zones, and writing the
    reports: the per-zone summary (text, CSV), Chrome Trace Event JSON (X or
    B/E events), raw event lines and Perfetto's protobuf trace. Used by
    prof-trace, the tests and the fuzz targets; not installed.

    The reader streams: it reads a file (or stdin) a window at a time and
    hands each zone to a handler when it begins and when it ends, so that
    its memory is bounded by the nesting depth and the number of labels and
    threads, not by the file's size. pt_read collects every zone instead
    (for the tests and small files).

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

#include "trace_input.h"   /* pt_slurp: a whole file, for the tests */
#include "trace_format.h"  /* PROF_TF_EXT_*: the annotations' kinds */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum
{
    PT_NO_END = 1,   /* begun, never ended: closed at the next enclosing end
                        or at the end of the trace */
    PT_NO_BEGIN = 2  /* an end with no matching begin: a zone of length 0 */
};

/* Marker kinds, the summary's kind column: separate rows for a name. */
enum
{
    PT_KIND_ZONE = 'u',        /* PROF_ZONE*, a label */
    PT_KIND_FUNC = 'f',        /* PROF_FUNC*, __func__ */
    PT_KIND_INSTRUMENT = 'i'   /* -finstrument-functions, a code address */
};

typedef struct
{
    uint32_t thread;     /* index into pt_trace.threads */
    char kind;           /* PT_KIND_* */
    uint8_t flags;       /* PT_NO_END, PT_NO_BEGIN */
    uint16_t depth;      /* open zones around it (0: outermost), capped */
    const char * name;   /* owned by the pt_trace */
    int64_t begin, end;  /* ticks since the start (end = begin while open) */
    int64_t child;       /* ticks spent in its direct children */
    uint64_t seq;        /* 0, 1, 2...: the order zones began in (per file) */
    /* PROF_ZONE_VALUE / _TEXT on it (the last of each; when it ends) */
    uint8_t vflags;      /* PT_VALUE_* */
    int64_t ivalue;      /* an integer value */
    double value;        /* the value as a double */
    const char * text;   /* NULL if none; owned by the pt_trace */
} pt_zone;

enum
{
    PT_VALUE_SET = 1,    /* the zone has a value */
    PT_VALUE_DOUBLE = 2  /* ... a double (else an integer, ivalue) */
};

/* ---- annotations (format version 3 extension records) ---------------------- */

/* One annotation, handed to pt_handler.annot in the order read (per thread
   in time order). A zone value or text is also set on the zone it is on. */
typedef struct
{
    uint32_t thread;     /* index into pt_trace.threads */
    unsigned kind;       /* PROF_TF_EXT_* */
    int64_t ticks;       /* since the start */
    const char * name;   /* plot, frame or lock name (owned by the pt_trace),
                            NULL for the other kinds */
    const char * text;   /* zone text, message: len bytes and a zero, valid
                            during the call only; NULL for the other kinds */
    uint32_t len;
    uint8_t vflags;      /* zone value: PT_VALUE_* */
    int64_t ivalue;      /* zone value, an integer */
    double value;        /* zone value (as a double), plot value */
    uint64_t u[2];       /* the kind's other words (alloc: address, size;
                            free: address) */
    int on_zone;         /* zone value or text: 1 if a zone was open */
    uint64_t zone_seq;   /* ... that zone's seq */
} pt_annot;
#define PT_ANNOT_KINDS (PROF_TF_EXT_LAST + 1)

typedef struct
{
    uint32_t tid;
    char name[40];
    uint64_t events;
    uint64_t lost;
    uint32_t pid;        /* its process (PROCESS records; else the header's) */
    uint64_t samples;    /* samples read (each counted once, not weighted) */
} pt_thread;

/* ---- samples (format versions 3 and 4) ------------------------------------- */

enum
{
    PT_SAMPLE_TRUNCATED = 1,  /* the chain reached the kernel's depth limit */
    PT_SAMPLE_LEAF_FIXED = 2, /* the leaf's caller was recovered */
    PT_SAMPLE_WEIGHTED = 4    /* weight > 1 (a timer's overruns) */
};
#define PT_NO_STACK UINT32_MAX /* a sample whose stack was not kept */

/* A sample's user registers and copy of the top of its stack (USAMPLES,
   format version 4), for unwinding by CFI: valid during the handler's
   call only. */
enum { PT_UCOPY_REGS = 33 };
typedef struct
{
    uint32_t arch;       /* PROF_TF_ARCH_* (1 x86-64, 2 ARM64) */
    uint64_t have;       /* bit i: r[i] known (DWARF register numbers) */
    uint64_t r[PT_UCOPY_REGS];
    uint64_t base;       /* the address of data[0] */
    const unsigned char * data;
    size_t size;
} pt_ucopy;

/* One sample, handed to pt_handler.sample in the order read: per thread
   in time order; between threads, and against the zones, in file order
   (a thread's samples may come before or after its zones of that time). */
typedef struct
{
    uint32_t thread;     /* index into pt_trace.threads */
    uint32_t tid;
    int64_t ticks;       /* since the start */
    uint32_t stack;      /* index into pt_trace.stacks, or PT_NO_STACK */
    uint32_t weight;     /* sampling periods it stands for, >= 1 */
    uint8_t flags;       /* PT_SAMPLE_* */
    const pt_ucopy * copy; /* registers and stack (USAMPLES), or NULL */
} pt_sample;

/* A call chain: frames ip[0..n-1] of pt_trace.stack_ips from first, leaf
   first: ip[0] the sampled instruction, the others return addresses (name
   them at address - 1). Addresses are in process pid's address space. */
typedef struct
{
    uint32_t pid;
    uint32_t n;
    size_t first;        /* index into pt_trace.stack_ips */
} pt_stack;

/* One executable file mapping of a process (MAPS at the start, MAPS2 as
   they change), in force from `from` until `until` (ticks; until is
   INT64_MAX while it still holds). */
typedef struct
{
    uint32_t pid;
    int64_t from, until;
    uint64_t start, end, offset, inode;
    char * path;         /* owned by the pt_trace */
} pt_vma;

/* A process seen under prof-trace record (PROCESS records). */
typedef struct
{
    uint32_t pid, ppid;
    int64_t start, end;  /* ticks; end = -1 while no exit was seen */
    char name[256];      /* last command or path it ran */
} pt_process;

enum
{
    PT_SAMPLING_NONE = 0, PT_SAMPLING_PERF = 1, PT_SAMPLING_TIMER = 2,
    PT_SAMPLING_ITIMER = 3 /* = PROF_TF_METHOD_* */
};

/* How the trace was sampled (SAMPLING records) and what was read. */
typedef struct
{
    int method;          /* PT_SAMPLING_*: NONE if the file has no SAMPLING */
    uint32_t event;      /* perf software event config, or timer clockid */
    double hz;           /* the rate asked for */
    uint64_t period_ns;  /* fixed period (timers), 0 if none */
    uint64_t ring_bytes, max_stack;
    int64_t start, stop; /* ticks; stop = -1 if never stopped */
    uint64_t recorded;   /* samples the recorder says it wrote */
    uint64_t lost;       /* samples the kernel lost (ring full) */
    uint64_t truncated;  /* chains cut at the depth limit (recorder) */
    uint64_t dropped;    /* samples the recorder could not keep */
    uint64_t cpu_ns;     /* CPU time the event counted */
    uint64_t weight;     /* periods the recorded samples stand for */
    uint64_t read;       /* samples read from the file */
    uint64_t read_truncated; /* of those, flagged truncated */
    uint64_t read_copies;    /* of those, with registers and a stack copy */
    double achieved_hz;  /* weight (or recorded) per second of cpu_ns; 0 if
                            unknown */
    int no_zones;        /* the file says it holds no zones (NO_ZONES) */
} pt_sampling;

typedef struct pt_state pt_state; /* reader internals */

typedef struct
{
    double tick_rate;    /* ticks per second (from the file) */
    uint32_t pid;
    uint32_t version;    /* of the file format */
    uint64_t start_unix_ns;
    int64_t span;        /* ticks from the start to the last event or end */
    pt_zone * zones;     /* pt_read only: in the order they began */
    size_t nzones;       /* zones read (also when streaming) */
    pt_thread * threads;
    size_t nthreads;
    uint64_t events;     /* events read */
    uint64_t lost;       /* events the recorder could not write */
    uint64_t bytes;      /* bytes read */
    int has_end;         /* the file has an end record */
    int end_signal;      /* signal that ended the program, 0 if none */
    unsigned long warnings;
    char process[256];   /* executable path, if known */
    pt_state * st;
    /* version 3: sampling. stacks and vmas grow while the trace streams:
       reach them through the pt_trace, not a pointer kept across calls. */
    pt_sampling sampling;
    pt_stack * stacks;   /* by id */
    size_t nstacks;
    uint64_t * stack_ips;
    size_t nstack_ips;
    pt_vma * vmas;       /* in the order read */
    size_t nvmas;
    pt_process * processes;
    size_t nprocesses;
    /* annotations read, by kind (PROF_TF_EXT_*; 0: of unknown kinds), and
       the zone values and texts with no zone open */
    uint64_t annots[PT_ANNOT_KINDS];
    uint64_t annots_unowned;
} pt_trace;

/* Warnings of one kind printed when the options name no limit; the rest
   are counted ("... and N more"). */
enum { PT_MAX_WARNINGS = 10 };

typedef struct
{
    FILE * warn;         /* where warnings go (NULL: nowhere) */
    int resolve_symbols; /* name -finstrument-functions addresses from the
                            ELF files named by the trace (0 in the fuzzer) */
    unsigned max_warnings_per_kind; /* 0: PT_MAX_WARNINGS */
    const char * const * binaries; /* --binary: executables to read symbols
                            from instead of those the trace names when the
                            file names match (NULL-terminated, or NULL) */
    size_t window;       /* pt_stream: bytes read at a time (0: PT_WINDOW, 1 MiB); the
                            tests make it small to move it at every chunk */
} pt_options;

/* What a reader hands its zones to. begin (may be NULL) when a zone
   begins, with z->end == z->begin; zone when it is complete. Per thread,
   zones end innermost first, so that the zones begun and not yet ended form
   a stack; a PT_NO_BEGIN zone gets no begin call. */
typedef struct
{
    void * ctx;
    void (*begin)(void * ctx, const pt_trace * t, const pt_zone * z);
    void (*zone)(void * ctx, const pt_trace * t, const pt_zone * z);
    /* (may be NULL) each sample; s->stack is defined in t->stacks */
    void (*sample)(void * ctx, const pt_trace * t, const pt_sample * s);
    /* (may be NULL) each annotation */
    void (*annot)(void * ctx, const pt_trace * t, const pt_annot * a);
} pt_handler;

/* Set every callback of h to NULL (and ctx): start from this, so that a
   callback added later is NULL in an old handler. */
void pt_handler_init(pt_handler * h, void * ctx);

/* Read the trace file at path ("-": stdin), a window at a time, handing
   each zone to h. Returns 0; -1 if it is not a trace file (a warning said
   so) or reading failed; -2 if it cannot be opened (errno); -3 if memory
   ran out (a warning said so): zones or names were lost, what h got is not
   the whole trace. Warnings go to o->warn, prefixed "prof-trace: ". Call
   pt_free in every case. */
int pt_stream(const char * path, const pt_options * o, const pt_handler * h,
              pt_trace * t);
/* Read n bytes of a trace file, collecting every zone in t->zones. Returns
   0, or -1 if it is not a trace file (no valid header): then nothing is
   usable; -3 if memory ran out (zones or names lost). Call pt_free in
   every case. */
int pt_read(const unsigned char * data, size_t n, const pt_options * o,
            pt_trace * t);
void pt_free(pt_trace * t);

/* a + b, held at INT64_MAX or INT64_MIN: the sums of durations (a zone's
   children, a name's total and self, a lock's waits and holds). A
   corrupt trace's ticks reach 9e18 (saturated), so two durations can
   overflow int64. */
static inline int64_t pt_add_ticks(int64_t a, int64_t b)
{
    if (b > 0 && a > INT64_MAX - b)
        return INT64_MAX;
    if (b < 0 && a < INT64_MIN - b)
        return INT64_MIN;
    return a + b;
}

/* Ticks since the start as whole nanoseconds: rounding each instant once
   (a monotonic function) keeps every child inside its parent. */
int64_t pt_whole_ns(const pt_trace * t, int64_t ticks);

/* The mapping of process pid that held addr at ticks, or NULL. */
const pt_vma * pt_vma_at(const pt_trace * t, uint32_t pid, uint64_t addr,
                         int64_t ticks);
/* The frames of stack id (n at *n), or NULL (n 0) for PT_NO_STACK or an
   id not defined. */
const uint64_t * pt_stack_frames(const pt_trace * t, uint32_t id, uint32_t * n);

/* ---- reports (trace_report.c) --------------------------------------------- */

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
   self time in ns, and the count of unmatched zones (not in the statistics;
   the text flags their name with '*'), sorted by total time. 0, or -1
   after a message if out of memory lost zones (as for pt_write_report). */
int pt_write_summary(FILE * out, const pt_trace * t, pt_summary_format f);
/* Chrome Trace Event JSON (array form): the zones, then M events naming the
   process and the threads; ts and dur in microseconds since the start with
   three decimals, from the begin and end each rounded once to whole
   nanoseconds (dur = end - begin), so that children nest exactly inside
   their parents. An end without a begin is an instant ("i") event, and
   unmatched zones are flagged in args. 0, or -1 as pt_write_summary. */
int pt_write_json(FILE * out, const pt_trace * t, pt_json_format f);

/* Which zones a report keeps (prof-trace's filters). A zone passes when
   its thread, name, depth and begin pass (known when it begins) and its
   duration and end pass (known when it ends); the zones around a passing
   zone then pass too, except by thread, name or depth. */
typedef struct
{
    int64_t min_duration_ns;  /* 0: no minimum */
    int64_t from_ns, to_ns;   /* zones that overlap [from, to]; to < 0: no end */
    int max_depth;            /* keep depth < max_depth; 0: all */
    void * name_re;           /* a compiled regex_t, or NULL */
    int thread_is_tid;        /* thread: a tid (1) or a name (0) */
    uint32_t thread_tid;
    const char * thread_name; /* NULL: all threads */
    unsigned long thread_seen; /* zones of the chosen thread seen */
} pt_filter;

typedef enum
{
    PT_OUT_TEXT, PT_OUT_CSV, PT_OUT_JSON, PT_OUT_JSON_BE, PT_OUT_RAW,
    PT_OUT_PERFETTO, PT_OUT_FOLDED, PT_OUT_SPEEDSCOPE,
    PT_OUT_ALLOC,        /* allocations by zone and the leaks (--alloc) */
    PT_OUT_PPROF         /* pprof's gzipped profile.proto (--pprof) */
} pt_output;

typedef struct pt_report pt_report;

/* A report written while the trace streams in: pt_report_handler gives
   the handler to read with; pt_report_finish writes what needs the whole
   trace (the summary; thread names) and frees it: 0, or -1 after a
   message if out of memory lost zones on the way (sticky: the output is
   not the trace; do not keep it). by_thread adds one summary per thread
   after the merged one. NULL if out of memory. */
pt_report * pt_report_new(FILE * out, pt_output kind, const pt_filter * f,
                          int by_thread);
pt_handler pt_report_handler(pt_report * r);
int pt_report_finish(pt_report * r, const pt_trace * t);
/* Any report of a collected trace (pt_read), unfiltered: 0, or -1 as
   pt_report_finish. */
int pt_write_report(FILE * out, const pt_trace * t, pt_output kind);

#endif
