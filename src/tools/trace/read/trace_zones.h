/*
    The trace reader's state and its zones: the events of each thread
    turned into zones with a stack, the zones' names (labels, __func__,
    code addresses named from the ELF files), and the warnings, counted
    by kind. trace_read.c parses the file and hands events here.
    Internal to the trace reader.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_ZONES_H
#define PROF_TRACE_ZONES_H

#include "trace_read.h"
#include "trace_input.h"
#include "trace_elf.h"
#include "trace_map.h"
#include "trace_format.h"

#include <string.h>

typedef struct
{
    pt_zone z;
    uint64_t key;       /* label or code address */
    uint8_t cls;        /* 0 label, 1 __func__, 2 code address */
} pt_open;

typedef struct
{
    pt_open * stack;    /* the open zones, innermost last */
    size_t depth, cap;
    int64_t last;       /* time of the thread's last event */
    uint64_t prev61;    /* version 2: ticks of the previous event */
    uint64_t * ids;     /* version 2: id -> address */
    size_t nids, idcap;
    uint32_t ext_left;  /* version 3: payload words of an extension record
                           still to come, */
    unsigned ext_kind;  /* its kind (0: unknown, skipped), */
    int64_t ext_ticks;  /* its time, */
    uint64_t * ext_words; /* the words kept (at most PT_EXT_KEEP) */
    size_t ext_have, ext_cap;
    int64_t last_sample;/* time of the thread's last sample */
} pt_tstate;

/* The kinds of warnings, each printed up to the limit (pt_options). */
enum { W_CORRUPT, W_TRUNC, W_MATCH, W_ORDER, W_STRING, W_EVENT, W_KINDS };

struct pt_state
{
    const pt_options * o;
    pt_handler h;
    uint64_t start61;
    pt_map strings;     /* label address -> char * */
    pt_map names;       /* code address -> char * */
    pt_map tids;        /* tid -> thread index + 1 */
    pt_map made;        /* key*4+class -> owned made-up name */
    pt_map texts;       /* a hash of a zone text -> owned copy (one each) */
    char text[PROF_TF_MAX_STRING + 1]; /* the annotation's text */
    pt_tstate * ts;
    size_t tcap, tscap;
    pt_symbols * syms;
    unsigned long wcount[W_KINDS];
    size_t zcap;        /* pt_read: capacity of t->zones */
    size_t stcap, ipcap, vmacap, proccap; /* capacities of t's sampling arrays */
    int has_sampling;   /* a SAMPLING chunk was read */
    int oom;            /* out of memory once: zones or names were lost */
    pt_src src;
};

/* A warning of that kind, "prof-trace: " and a line on o->warn, if
   fewer than the limit of its kind were printed. */
void pt_warn(pt_trace * t, int kind, const char * fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* "... and N more" for each kind of warning past the limit, and the loss. */
void pt_warning_totals(const pt_trace * t);

/* Ticks since the trace's start of a 61-bit counter reading. */
int64_t pt_rel_ticks(const pt_state * s, uint64_t ticks61);
/* The state of thread tid (made on first sight), its index in
   t->threads at *index; NULL if out of memory. */
pt_tstate * pt_thread_of(pt_trace * t, uint32_t tid, size_t * index);
/* One event of thread ti (state ts) at ticks61 (modulo 2^61): type
   0..5 (begin or end of a label, __func__ or code address zone). */
void pt_on_event(pt_trace * t, pt_tstate * ts, size_t ti, uint64_t ticks61,
                 unsigned type, uint64_t key);
/* The name of the label at key ("(null)" for 0; made up if the file has
   no string for it). */
const char * pt_label_name(pt_trace * t, uint64_t key);
/* Extension records (trace_read_annot.c): the extension word w of thread
   ti (state ts, whose prev61 is its time); each payload word after it. */
void pt_ext_begin(pt_trace * t, pt_tstate * ts, size_t ti, uint64_t w);
void pt_ext_word(pt_trace * t, pt_tstate * ts, size_t ti, uint64_t w);
/* A chunk begins: a record the last one cut is dropped (said). */
void pt_ext_cut(pt_trace * t, pt_tstate * ts, size_t ti);
/* After the last chunk: the zones still open closed at the trace's end. */
void pt_close_open_zones(pt_trace * t);
/* The sampling chunks (trace_read_samples.c): 1 if c's type is one and
   its payload p was read, 0 if it is another chunk. */
int pt_sampling_chunk(pt_trace * t, const prof_tf_chunk * c,
                      const unsigned char * p);
/* MAPS at the start: the mappings of the header's process from time 0. */
void pt_vmas_add(pt_trace * t, uint32_t pid, int64_t from,
                 const unsigned char * p, size_t n);
/* After the last chunk: the achieved rate, what was lost, said. */
void pt_samples_finish(pt_trace * t);
/* Free the sampling arrays of t. */
void pt_samples_release(pt_trace * t);
/* Free what the state holds (not the state itself, nor its input). */
void pt_state_release(pt_trace * t);

static inline uint64_t pt_rd64(const unsigned char * p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

static inline uint32_t pt_rd32(const unsigned char * p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

#endif
