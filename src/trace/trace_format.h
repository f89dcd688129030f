/*
    The raw trace file written by trace.c and read by tools/trace_read.c.

    A 64-byte file header, then chunks. Each chunk is a 16-byte chunk header
    (magic, type, payload size, thread id) and a payload whose size is a
    multiple of 8. All numbers are in the writer's byte order (the header's
    byte-order mark says which).

    Version 4 (written now): version 3's and USAMPLES (below), samples
    with the user registers and a copy of the top of the user stack, for
    unwinding at report time. A file without them differs from version 3
    only in its version number.
    Version 3 (still read): version 2's chunks, the sampling chunks
    (SAMPLES, STACKS, SAMPLING, MAPS2, PROCESS, below) and the extension
    word in EVENTS2. A file that samples nothing differs from version 2
    only in its version number.
    Version 2 (still read): EVENTS2 chunks, 8 bytes an event. The payload
    is a u64 base, the counter ticks (modulo 2^61) of the thread's event
    before the first, then one word per event:
        delta << 24 | id << 3 | type
    delta: ticks since the thread's previous event (< 2^40); id: the
    thread's number for the label or function address (< 2^21), defined by
    a LABELS chunk of that thread written before; type: PROF_IMPL_EV_*. A
    word ticks << 3 | PROF_TF_EV_SYNC sets the time (modulo 2^61) that the
    next delta counts from (after a gap of 2^40 ticks or more).
    The extension word (version 3), type PROF_TF_EV_EXT, for in-stream
    records other than zones (annotations):
        delta << 24 | words << 8 | kind << 3 | 7
    followed by `words` payload words (< 2^16) that belong to the record;
    kind (< 32, PROF_TF_EXT_*) says what they mean. delta advances the
    time as an event's does. A reader skips a kind it does not know, with
    its payload, and says so once; no record spans two chunks.
    Kinds (PROF_TF_EXT_*, below) and their payloads: NAME is the word
    holding the thread's id (as a zone's, LABELS) of a name string; TEXT
    is a word holding the byte length n (<= PROF_TF_MAX_STRING), then the
    n bytes, zero padded to whole words (no terminating zero).
        1 ZONE_VALUE  u64 tag (PROF_TF_VALUE_*), u64 the value's bits:
                      on the thread's innermost open zone
        2 ZONE_TEXT   TEXT, on the thread's innermost open zone
        3 MESSAGE     TEXT: a line on the thread's timeline
        4 PLOT        NAME, the double's bits: a sample of a counter
        5 FRAME       NAME: the end of a frame (and the start of the next)
        6 LOCK_WAIT, 7 LOCK_ACQUIRED, 8 LOCK_RELEASED   NAME
        9 ALLOC       u64 address, u64 size
       10 FREE        u64 address
    A reader takes the words it knows of a kind and ignores any more.
    Version 1 (still read): EVENTS chunks, 16 bytes an event:
        word = counter ticks (modulo 2^61) << 3 | event type
        id   = label address, or function address for ENTER/EXIT.
    Label addresses are resolved by STRINGS chunks, written with (before)
    the events that use them, so that a truncated file (a crash, a kill, a
    full disk) loses at most its last, partial chunk; the reader skips what
    it cannot read and finds the next chunk by its magic number.

    Sampling (version 3). Samples are written by the recorder's writer
    thread, not by the sampled thread, so they go into chunks of their
    own. Ticks are the trace's clock, modulo 2^61, as everywhere.
    SAMPLES (tid: the sampled thread): a u64 base, the ticks before the
    first sample, then a word per sample, in time order within the chunk:
        delta << 24 | stack << 3 | flags
    delta: ticks since the previous sample of the chunk (< 2^40: a longer
    gap starts a new chunk); stack: the number of a call chain defined by
    a STACKS chunk written before (< 2^21; PROF_TF_NO_STACK: none kept);
    flags: PROF_TF_SAMPLE_*. With PROF_TF_SAMPLE_WEIGHTED the next word is
    the sample's weight, the periods it stands for (> 1: a timer's
    overruns). A thread's chunks are in time order, one after the other.
    USAMPLES (version 4; tid: the sampled thread): a SAMPLES chunk whose
    samples each carry, after their word (and weight word), a copy:
        u64 have      bit i: DWARF register i is given (i < 33)
        u32 arch      PROF_TF_ARCH_* (the registers' numbering)
        u32 size      bytes of stack copied (<= PROF_TF_MAX_USTACK)
        u64 r[]       the registers of have, lowest number first
        u64 base      the address the copy starts at (the stack pointer)
        size bytes    zero padded to whole words
    Its stack is the chain the kernel (or the timer's walk) followed by
    frame pointers; a reader chooses per sample. Within a thread, SAMPLES
    and USAMPLES chunks are one sequence in time order.
    STACKS (tid: the process whose address space the addresses are in; 0:
    the header's pid): entries u32 id, u32 n, n u64 addresses, leaf first
    (the sampled instruction, then return addresses, the kernel's context
    markers left out; n <= PROF_TF_MAX_FRAMES). Ids are one numbering for
    the file, 0, 1, 2... each defined once, in order.
    SAMPLING (tid 0, or the thread the counts are for): u64 key, u64
    value pairs (PROF_TF_SAMPLING_*; unknown keys are skipped). Settings:
    the last value read holds. Counts: a reader adds them up over the
    chunks, so each is written once (per ring, per thread or in total).
    prof-trace record writes one first, NO_ZONES alone, before any sample.
    MAPS2 (tid: the process; 0: the header's pid): u64 ticks, u32 flags
    (PROF_TF_MAPS_REPLACE: the lines replace the process's mappings from
    then on; 0: they add to them), u32 0, then lines as /proc/PID/maps
    writes them, zero padded. Written at dlopen or exec in-process; one
    line per kernel MMAP2 record under prof-trace record.
    PROCESS (tid: the thread): u64 ticks, u32 pid, u32 ppid, u32 kind
    (PROF_TF_PROC_*), u32 0, the name (command or path), zero padded.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_FORMAT_H
#define PROF_TRACE_FORMAT_H

#include <stdint.h>

#define PROF_TF_MAGIC "PTRACE01"          /* 8 bytes, file start */
#define PROF_TF_BOM 0x01020304u
#define PROF_TF_VERSION 4u            /* 1, 2, 3: still read */
#define PROF_TF_CHUNK_MAGIC 0x4b435450u   /* "PTCK" little-endian */
#define PROF_TF_TICK_BITS 61
#define PROF_TF_TICK_MASK ((UINT64_C(1) << PROF_TF_TICK_BITS) - 1)
#define PROF_TF_MAX_CHUNK (UINT32_C(1) << 30)
#define PROF_TF_MAX_STRING 4096u          /* longer labels are cut */
#define PROF_TF_DELTA_BITS 40             /* version 2 event words */
#define PROF_TF_ID_BITS 21
/* Event types beyond the markers' (PROF_IMPL_EV_BEGIN..FEND, 0..3, in
   profiler.h): -finstrument-functions entry and exit (id = the function's
   address, trace_hooks.c), and the time word. */
#define PROF_IMPL_EV_ENTER 4u
#define PROF_IMPL_EV_EXIT 5u
#define PROF_TF_EV_SYNC 6u
#define PROF_TF_EV_EXT 7u                 /* the extension word */
#define PROF_TF_EXT_WORDS_BITS 16
#define PROF_TF_EXT_KIND_BITS 5
/* Extension record kinds (the payloads: above). 1-5: annotations
   (trace_annot.c), 6-10: locks and allocations. */
enum prof_tf_ext_kind
{
    PROF_TF_EXT_ZONE_VALUE = 1,
    PROF_TF_EXT_ZONE_TEXT = 2,
    PROF_TF_EXT_MESSAGE = 3,
    PROF_TF_EXT_PLOT = 4,
    PROF_TF_EXT_FRAME = 5,
    PROF_TF_EXT_LOCK_WAIT = 6,
    PROF_TF_EXT_LOCK_ACQUIRED = 7,
    PROF_TF_EXT_LOCK_RELEASED = 8,
    PROF_TF_EXT_ALLOC = 9,
    PROF_TF_EXT_FREE = 10
};
#define PROF_TF_EXT_LAST PROF_TF_EXT_FREE
/* A zone value's tag (ZONE_VALUE's first word). */
enum { PROF_TF_VALUE_INT = 0, PROF_TF_VALUE_DOUBLE = 1 }; /* int64, double */
#define PROF_TF_NO_STACK ((UINT32_C(1) << PROF_TF_ID_BITS) - 1)
#define PROF_TF_MAX_FRAMES 1024u          /* addresses in one stack */
#define PROF_TF_MAX_USTACK 65528u         /* bytes of a USAMPLES stack copy */
#define PROF_TF_UREGS 33                  /* DWARF registers 0..32 */
enum { PROF_TF_ARCH_X86_64 = 1, PROF_TF_ARCH_ARM64 = 2 }; /* = pt_arch */

/* A sample's flags (the low 3 bits of its word). */
enum
{
    PROF_TF_SAMPLE_TRUNCATED = 1, /* the chain reached the depth limit */
    PROF_TF_SAMPLE_LEAF_FIXED = 2,/* the leaf's caller was found on the stack */
    PROF_TF_SAMPLE_WEIGHTED = 4   /* a weight word follows */
};

/* SAMPLING keys: settings 1..15, counts from 16. */
enum prof_tf_sampling_key
{
    PROF_TF_SAMPLING_METHOD = 1,    /* PROF_TF_METHOD_* */
    PROF_TF_SAMPLING_EVENT = 2,     /* perf software event (config), or the
                                       timer's clockid */
    PROF_TF_SAMPLING_HZ = 3,        /* the rate asked for, samples a second */
    PROF_TF_SAMPLING_PERIOD_NS = 4, /* the period, when fixed (timers) */
    PROF_TF_SAMPLING_CLOCK = 5,     /* clockid of the kernel's timestamps */
    PROF_TF_SAMPLING_RING = 6,      /* ring buffer bytes (per CPU) */
    PROF_TF_SAMPLING_MAX_STACK = 7, /* the kernel's depth limit */
    PROF_TF_SAMPLING_START = 8,     /* ticks (mod 2^61): sampling began */
    PROF_TF_SAMPLING_STOP = 9,      /* ticks (mod 2^61): it stopped */
    PROF_TF_SAMPLING_NO_ZONES = 10, /* 1: the file holds no zone events
                                       (prof-trace record), so a reader
                                       need not wait for a sample's zone */
    PROF_TF_SAMPLING_SAMPLES = 16,  /* samples written */
    PROF_TF_SAMPLING_LOST = 17,     /* samples the kernel lost (ring full) */
    PROF_TF_SAMPLING_TRUNCATED = 18,/* chains cut at the depth limit */
    PROF_TF_SAMPLING_DROPPED = 19,  /* samples the writer could not keep */
    PROF_TF_SAMPLING_CPU_NS = 20,   /* CPU time the event counted, ns: the
                                       achieved rate is samples / that */
    PROF_TF_SAMPLING_WEIGHT = 21    /* periods the samples stand for */
};

enum
{
    PROF_TF_METHOD_PERF = 1,        /* perf_event_open, kernel call chains */
    PROF_TF_METHOD_TIMER = 2,       /* timer_create per thread, SIGPROF */
    PROF_TF_METHOD_ITIMER = 3       /* setitimer(ITIMER_PROF), SIGPROF */
};

enum { PROF_TF_MAPS_REPLACE = 1 };

enum
{
    PROF_TF_PROC_START = 1,  /* process pid begins (fork or the first) */
    PROF_TF_PROC_EXEC = 2,   /* it runs name from now on */
    PROF_TF_PROC_EXIT = 3,   /* it ended */
    PROF_TF_PROC_THREAD = 4, /* thread tid of process pid begins */
    PROF_TF_PROC_THREAD_EXIT = 5
};

typedef struct
{
    char magic[8];           /* PROF_TF_MAGIC */
    uint32_t bom;            /* PROF_TF_BOM */
    uint32_t version;        /* PROF_TF_VERSION */
    uint32_t header_size;    /* sizeof(prof_tf_header) = 64 */
    uint32_t pid;
    double tick_rate;        /* counter ticks per second */
    uint64_t start_ticks;    /* counter at the start (all 64 bits) */
    uint64_t start_unix_ns;  /* CLOCK_REALTIME at the start */
    uint64_t reserved[2];
} prof_tf_header;

typedef struct
{
    uint32_t magic;          /* PROF_TF_CHUNK_MAGIC */
    uint32_t type;           /* prof_tf_chunk_type */
    uint32_t size;           /* payload bytes, a multiple of 8 */
    uint32_t tid;            /* thread the chunk is about (0: process) */
} prof_tf_chunk;

enum prof_tf_chunk_type
{
    PROF_TF_EVENTS = 1,  /* events of thread tid, in order */
    PROF_TF_STRINGS = 2, /* entries: u64 address, u32 length, u32 0, bytes,
                            zero padding to 8 */
    PROF_TF_THREAD = 3,  /* thread tid's name, zero padded */
    PROF_TF_MAPS = 4,    /* /proc/self/maps at the start, zero padded */
    PROF_TF_LOST = 5,    /* u64: events of thread tid lost before this */
    PROF_TF_END = 6,     /* u64 end ticks (64 bits), u64 total lost,
                            u32 signal number (0: normal exit), u32 0 */
    PROF_TF_EVENTS2 = 7, /* version 2 events of thread tid (see above) */
    PROF_TF_LABELS = 8,  /* u32 first id, u32 count, count u64 addresses:
                            thread tid's ids first..first+count-1 */
    PROF_TF_SAMPLES = 9, /* version 3 (see above) */
    PROF_TF_STACKS = 10,
    PROF_TF_SAMPLING = 11,
    PROF_TF_MAPS2 = 12,
    PROF_TF_PROCESS = 13,
    PROF_TF_USAMPLES = 14 /* version 4 (see above) */
};
#define PROF_TF_LAST_CHUNK PROF_TF_USAMPLES

#endif
