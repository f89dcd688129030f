/*
    Internal to the sampler (sample.c: the API, the reader thread, the
    stacks and the chunks written; sample_ring.c: the perf events, their
    rings and the records in them; sample_timer.c: the fallback, timers
    and a frame-pointer walk). Linked only into a program that calls
    prof_sample_* (the opt-in rule).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_SAMPLE_IMPL_H
#define PROF_SAMPLE_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "chains.h"

/* The one table of the sampler's defaults and limits. */
enum
{
    SAMPLE_DEFAULT_HZ = 997,    /* prime: no aliasing with periodic work */
    SAMPLE_MAX_HZ = 10000,      /* above, a sample costs more than its period
                                   on a VM (doc/tracing.md "Sampling") */
    SAMPLE_RING_PAGES = 16,     /* data pages per CPU ring (64 KiB) */
    SAMPLE_RECORD_PAGES = 64,   /* ... under prof-trace record (256 KiB) */
    SAMPLE_MAX_CPUS = 1024,
    SAMPLE_POLL_MS = 100,       /* the reader's longest sleep */
    SAMPLE_HOLD_NS = 2000000,   /* samples this recent wait for the next
                                   drain: rings are drained one by one */
    SAMPLE_MAX_FRAMES = 512,    /* frames kept of a chain */
    /* the timer fallback (sample_timer.c) */
    SAMPLE_TIMER_FRAMES = 128,  /* frames its walk follows */
    SAMPLE_TIMER_ENTRIES = 64,  /* samples a thread's ring holds */
    SAMPLE_TIMER_THREADS = 256, /* threads it samples at most */
    SAMPLE_TIMER_SCAN_MS = 5,   /* its reader's longest sleep: a new thread
                                   waits at most this for its timer */
    /* --call-graph=dwarf, PROF_SAMPLE_CALL_GRAPH=dwarf: each sample's
       registers and the top of its stack, unwound at report time */
    SAMPLE_STACK_BYTES = 8192,  /* bytes of stack copied a sample: 4 KiB
                                   cuts deeper stacks, 16 KiB costs more for
                                   the same reach on common ones (doc/
                                   tracing.md, "Call graphs") */
    SAMPLE_DWARF_PAGES = 128,   /* ring data pages per CPU with copies (512
                                   KiB: within perf_event_mlock_kb, 516) */
    SAMPLE_UREGS = 33           /* DWARF register numbers 0..32 */
};

/* The call graph a sampler records, as the bytes of stack it copies a
   sample: 0, frame pointers alone (the kernel's chain, or the timer's
   walk); else the registers too, for unwinding by CFI (dwarf). */
#define SAMPLE_CG_DEFAULT 0u                     /* prof_sample_start: fp */
#define SAMPLE_RECORD_CG_DEFAULT SAMPLE_STACK_BYTES /* prof-trace record: dwarf */
enum { SAMPLE_MIN_STACK = 64, SAMPLE_MAX_STACK = 65528 }; /* dwarf,BYTES */

/* A sample's user registers and copy of its stack (SAMPLE_CG_DWARF). */
typedef struct
{
    uint32_t arch;              /* PROF_TF_ARCH_* */
    uint64_t have;              /* bit i: r[i] given (DWARF numbering) */
    uint64_t r[SAMPLE_UREGS];
    uint64_t base;              /* the address data starts at (the sp) */
    const unsigned char * data;
    size_t size;
} sample_copy;

typedef struct
{
    uint32_t tid;
    uint32_t stack;             /* id, or PROF_TF_NO_STACK */
    uint64_t ns;                /* CLOCK_MONOTONIC_RAW of the sample */
    uint32_t weight;            /* periods it stands for (timers: > 1) */
    uint8_t flags;
    uint32_t copy_bytes;        /* the USAMPLES payload after the word(s) */
    unsigned char * copy;       /* owned; NULL: a SAMPLES sample */
} sample_rec;

/* Chains interned and samples waiting to be written (sample_writer.c). */
typedef struct
{
    prof_impl_chains chains;    /* the stacks' ids */
    size_t written;             /* stacks written so far */
    sample_rec * batch;
    size_t nbatch, bcap;
    uint64_t samples, truncated, dropped, weight; /* weight: of those written */
    /* the caller's: a chunk out (0, or -1: counted as dropped), ns to ticks */
    int (*put)(void * ctx, uint32_t type, uint32_t tid, const void * p, size_t n);
    uint64_t (*ticks)(void * ctx, uint64_t ns);
    void * ctx;
} sample_writer;

/* One sample of thread tid of process pid (0: the trace's) at ns, standing
   for weight periods (1, or more: a timer's overruns); flags:
   PROF_TF_SAMPLE_TRUNCATED (= 1), PROF_TF_SAMPLE_LEAF_FIXED; c: its
   registers and stack copy (written as USAMPLES), or NULL. */
/* s as a sampling rate in (0, SAMPLE_MAX_HZ] (--hz, PROF_SAMPLE_HZ): a
   decimal number as people write it (no space, no hex, no inf), or 0. */
double prof_impl_sample_rate(const char * s);
void prof_impl_sw_add(sample_writer * w, uint32_t pid, uint32_t tid, uint64_t ns,
                      const uint64_t * ip, size_t n, int flags, uint32_t weight,
                      const sample_copy * c);
/* "fp", "dwarf" or "dwarf,BYTES" (--call-graph, PROF_SAMPLE_CALL_GRAPH)
   as the bytes of stack to copy (0: fp; BYTES rounded up to 8, in
   [SAMPLE_MIN_STACK, SAMPLE_MAX_STACK]), or -1. */
long prof_impl_sample_cg(const char * s);
/* New stacks, then the samples up to upto_ns (UINT64_MAX: all), sorted. */
void prof_impl_sw_flush(sample_writer * w, uint64_t upto_ns);
void prof_impl_sw_free(sample_writer * w);

/* What the rings hand the reader: a sample with its chain (leaf first)
   and its PROF_TF_SAMPLE_TRUNCATED and _LEAF_FIXED flags, and its copy
   (NULL: none). */
typedef void (*sample_sink)(void * ctx, uint32_t pid, uint32_t tid, uint64_t ns,
                            const uint64_t * ip, size_t n, int flags,
                            const sample_copy * c);
/* Any other record (prof-trace record's MMAP2, COMM, FORK, EXIT): its
   perf type | misc << 16, the bytes after its header and before its
   sample_id, and its time (sample_id_all). */
typedef void (*record_sink)(void * ctx, unsigned type, const unsigned char * p,
                            size_t n, uint64_t ns);

typedef struct
{
    int fd[SAMPLE_MAX_CPUS];
    void * ring[SAMPLE_MAX_CPUS];
    int n;
    size_t ring_bytes;          /* data bytes per ring */
    unsigned max_stack;         /* the kernel's depth limit */
    int leaf_word;              /* samples carry the word at the user sp */
    unsigned stack_bytes;       /* samples carry regs and this much stack */
    uint64_t regs_mask;         /* the perf registers asked for */
    unsigned char * rec;        /* a record read out of a ring (64 KiB) */
    uint64_t lost;              /* LOST records */
    /* attach (prof-trace record -p): ring i's CPU, the other threads'
       events (each writing into its CPU's ring), the events' attributes
       (for a thread found later), whether they are enabled */
    int cpu[SAMPLE_MAX_CPUS];
    int * more;
    size_t nmore, morecap;
    uint64_t attr[32];
    int on;
} sample_rings;

/* Open one inherited task-clock sampling event per online CPU on the
   calling thread (pid 0), disabled, or on process pid from its next exec
   on (prof-trace record: with its mappings, names, forks and exits), and
   map their rings. Inherited by new threads, and by child processes too
   if children (else inherit_thread; a kernel before 5.13 cannot leave
   them out: said, and they are sampled). With stack_bytes > 0 each
   sample carries the user registers and that much stack too (a kernel
   that cannot: said, frame pointers only). 0, or an errno after closing
   what was opened. */
int prof_impl_sample_rings_open(sample_rings * r, double hz, long pid, int children,
                                unsigned stack_bytes);
/* prof-trace record -p: the same events on thread tid of a running
   process, not enabled at an exec (enable them), inherited by the threads
   (with children, the processes) it starts from then on. Another thread
   of it, or of another process: follow, its events writing into these
   rings, enabled if they are. Each 0, or an errno (follow: with nothing
   of tid left open; ESRCH: it has ended). */
int prof_impl_sample_rings_attach(sample_rings * r, double hz, long tid, int children,
                                  unsigned stack_bytes);
int prof_impl_sample_rings_follow(sample_rings * r, long tid);
void prof_impl_sample_rings_enable(sample_rings * r, int on);
/* Every record of every ring: samples to sink, LOST counted. */
void prof_impl_sample_rings_drain(sample_rings * r, sample_sink sink,
                                  record_sink other, void * ctx);
/* CPU time the events counted (ns), and close them. */
uint64_t prof_impl_sample_rings_close(sample_rings * r);

/* A frameless leaf's caller (x86-64, this process): word, the one at the
   leaf's stack pointer, goes in as ip[1] when it is a return address (in
   an executable segment of a loaded object, just after a call
   instruction) that ip[1] is not already, and *n < cap. Returns
   PROF_TF_SAMPLE_LEAF_FIXED when it went in, else 0. Reader side only (it
   takes the loader's lock). */
int prof_impl_sample_leaf_caller(uint64_t * ip, size_t * n, size_t cap,
                                 uint64_t word);

/* The perf_event_open call (pid, cpu, no group, CLOEXEC), behind a hook
   that tests replace to refuse sampling (the fake perf seam). */
extern int (*prof_impl_sample_open)(void * attr, long pid, int cpu);
int prof_impl_sample_open_syscall(void * attr, long pid, int cpu);

/* PROF_SAMPLE_HZ's start at the trace's open (sample.c; the recorder
   refers to it weakly, src/trace/trace.c). */
void prof_impl_sample_at_open(void);

/* The fallback (sample_timer.c): SIGPROF from a timer on each thread's
   CPU clock every 1/hz s, a frame-pointer walk. start: 0, or an errno
   with *why; poll (the reader, each pass): timers for new threads,
   samples into w; stop: the timers deleted, the last samples into w. */
typedef struct
{
    uint64_t cpu_ns, lost, period_ns;
} sample_timer_counts;
int prof_impl_sample_timers_start(double hz, unsigned stack_bytes, const char ** why);
void prof_impl_sample_timers_poll(sample_writer * w);
sample_timer_counts prof_impl_sample_timers_stop(sample_writer * w);

#endif
