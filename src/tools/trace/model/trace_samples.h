/*
    prof-trace's reports of a sampled trace (format version 3): the samples
    a report reads, their stacks named (trace_samples.c), and what is
    written from them: the top functions by self and total samples (text,
    CSV, per thread), the samples per zone, collapsed stacks, and for
    speedscope's and Perfetto's sampled profiles each sample. Internal to
    the trace reader's reports.

    Naming: each address through the mapping that held it at the sample's
    time (pt_vma_at), then the function symbols of that file (trace_elf.c);
    a return address is named at address - 1. An address with no symbol is
    module+0xOFFSET (the file name and the offset in it), a leaf in no
    mapping [unknown]+0xADDRESS: never a bare number. A caller in no
    executable mapping ends the stack (a frame-pointer chain that ran
    into data, not a caller). Each distinct stack is named once, its
    addresses kept as locations (trace_locs.c) for the writers that
    carry real mappings.

    The samples stream: each is added to sums as it is read, the weight
    per (thread, named stack) for the tables and collapsed stacks, and
    (the text report) per (zone, leaf function), (pprof's) per (zone,
    named stack), once its zone is known
    (trace_sample_zones.c: most samples at once, those ahead of their
    thread's zone events wait). Only speedscope's and Perfetto's
    reports keep the samples, 16 bytes each, for pt_samples_each, past
    PT_LOG_MEM in a temporary file (trace_log.c).
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_SAMPLES_H
#define PROF_TRACE_SAMPLES_H

#include "trace_locs.h"
#include "trace_read.h"
#include "trace_sample_zones.h"

#include <stdint.h>
#include <stdio.h>

/* Rows of the text table of top functions (CSV has them all). */
#define PT_TOP_FUNCTIONS 25
typedef struct pt_samples pt_samples;

/* binaries: --binary's list (NULL-terminated, or NULL); resolve 0: no
   symbols read (module+0xOFFSET only); kind: the report's, which says
   what is kept besides the sums per stack (the text report: the samples
   per zone; speedscope, Perfetto: each sample). NULL if out of memory. */
pt_samples * pt_samples_new(const char * const * binaries, int resolve,
                            pt_output kind);
/* One sample the filters kept. */
void pt_samples_add(pt_samples * p, const pt_trace * t, const pt_sample * s);
/* A zone that begins, one that ended (every zone, whatever the filters;
   not those without a begin). */
void pt_samples_begin(pt_samples * p, const pt_trace * t, const pt_zone * z);
void pt_samples_zone(pt_samples * p, const pt_trace * t, const pt_zone * z);
/* Samples kept (weighted), 0 with none. */
uint64_t pt_samples_count(const pt_samples * p);

/* Text (csv 0) or CSV: the top functions, merged over the threads, then
   per thread (by_thread); text adds the samples per zone. 0, or -1 if out
   of memory lost samples. */
int pt_samples_write_top(pt_samples * p, FILE * out, const pt_trace * t,
                         int csv, int by_thread);
/* "thread;root;...;leaf SAMPLES" a distinct stack. 0 or -1 as above. */
int pt_samples_write_folded(pt_samples * p, FILE * out, const pt_trace * t);
/* Nanoseconds a sample of weight 1 stands for: the fixed period, else
   that of the rate asked for, else the CPU time counted per sample; 0 if
   the trace says none. */
double pt_samples_period_ns(const pt_trace * t);
/* The functions with samples, all threads merged, by self then total
   samples (the rows of the top functions): *n of them, to free; the
   samples' sum at *sum. NULL if out of memory (or none). */
typedef struct { const char * name; uint64_t self, total; } pt_top;
pt_top * pt_samples_top(pt_samples * p, size_t * n, uint64_t * sum);
/* The weight of each named stack, all threads merged: an array of
   pt_samples_stacks(p) to free; NULL if out of memory. */
uint64_t * pt_samples_stack_weights(const pt_samples * p);
/* For the other writers: function fn's name; named stack rs's function
   ids, leaf first (n at *n); the samples of thread (weighted); each
   sample kept (speedscope, Perfetto), thread by thread in time order (or
   of one thread), to each(ctx, thread index, ticks, named stack, weight):
   from memory or the temporary file, as often as asked: 0, or -1 if a
   part could not be read back. */
const char * pt_samples_function(const pt_samples * p, uint32_t fn);
size_t pt_samples_functions(const pt_samples * p);
const uint32_t * pt_samples_stack(const pt_samples * p, uint32_t rs,
                                  uint32_t * n);
size_t pt_samples_stacks(const pt_samples * p);
/* Named stack rs's locations (the addresses behind its functions, as
   many, leaf first), and the locations and mappings (trace_locs.h). */
const uint32_t * pt_samples_stack_locs(const pt_samples * p, uint32_t rs);
const pt_locs * pt_samples_locs(const pt_samples * p);
typedef void (*pt_samples_each_fn)(void * ctx, uint32_t thread, int64_t ticks,
                                   uint32_t rs, uint32_t weight);
uint64_t pt_samples_of(const pt_samples * p, uint32_t thread);
int pt_samples_each(pt_samples * p, void * ctx, pt_samples_each_fn each);
int pt_samples_each_of(pt_samples * p, uint32_t thread, void * ctx,
                       pt_samples_each_fn each);
/* The module of function fn: a number 1..pt_samples_modules(p), whose
   path (the mapping's, as the trace recorded it) pt_samples_module gives;
   0: none ([unknown]+0x..., [no stack]). A name found in two modules
   keeps the first. */
uint32_t pt_samples_function_module(const pt_samples * p, uint32_t fn);
/* The pprof report (kind PT_OUT_PPROF) only, at the end: the samples by
   the innermost zone they fell in (trace_sample_zones.h) and named stack,
   weighted, to each(ctx, zone, kind, rs, weight) (zone NULL: outside
   every zone). 0, or -1 if out of memory lost samples. */
int pt_samples_by_zone(pt_samples * p, void * ctx, pt_sz_each_fn each);
/* 1 unless --no-symbols: the mapped files may be read. */
int pt_samples_resolving(const pt_samples * p);
size_t pt_samples_modules(const pt_samples * p);
const char * pt_samples_module(const pt_samples * p, uint32_t mod);
void pt_samples_free(pt_samples * p);

#endif
