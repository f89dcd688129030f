/*
    Internal to prof-trace record: the recorder (the trace file being
    written, the rings it drains) and the chunks it writes
    (record_chunks.c), shared by the command's recording (trace_record.c)
    and the attach to running processes (trace_attach.c).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_RECORD_IMPL_H
#define PROF_RECORD_IMPL_H

#include "sample_impl.h"

#include <stdint.h>
#include <stdio.h>

#define PROGRAM "prof-trace record"

typedef struct
{
    FILE * f;                 /* the output's temporary file */
    char ** cmd;
    double hz;
    int children;             /* --children */
    unsigned cg;              /* --call-graph: stack bytes a sample (0: fp) */
    int opened;               /* the events are open, the header written */
    int keep;                 /* the command ran: the trace replaces -o's file */
    uint64_t ns0;             /* the start, CLOCK_MONOTONIC_RAW */
    sample_rings rings;
    sample_writer w;
    /* called for each thread the kernel says was started (a FORK record),
       so sampled through its creator's inherited events: -p's */
    void (*forked)(void * ctx, uint32_t pid, uint32_t tid);
    void * forked_ctx;
} recorder;

/* CLOCK_MONOTONIC_RAW now, in ns: the trace's clock. */
uint64_t pt_rec_now_ns(void);
/* A chunk out: 0, or -1 (the error stays in r->f's indicator). */
int pt_rec_put(void * ctx, uint32_t type, uint32_t tid, const void * p, size_t n);
/* r's sample writer set to write its chunks into r->f. */
void pt_rec_writer_init(recorder * r);
/* The file header (pid: the process first sampled, ns0: the start), and a
   SAMPLING chunk saying the file holds no zones. */
void pt_rec_header(recorder * r, uint32_t pid, uint64_t ns0);
/* A PROCESS chunk of thread tid at ns: pid, ppid, PROF_TF_PROC_* kind,
   name. */
void pt_rec_process(recorder * r, uint32_t tid, uint64_t ns, uint32_t pid,
                    uint32_t ppid, uint32_t kind, const char * name);
/* What the rings hold into the file (last: every sample, else those older
   than SAMPLE_HOLD_NS). */
void pt_rec_drain(recorder * r, int last);
/* A wait of at most ms for the rings to fill, then pt_rec_drain. */
void pt_rec_poll(recorder * r, int ms);
/* The counts (SAMPLING), and the END chunk with sig (0: none). */
void pt_rec_end(recorder * r, uint64_t cpu_ns, int sig);

#endif
