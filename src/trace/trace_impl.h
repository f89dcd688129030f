/*
    Internal to the trace recorder (trace.c, trace_file.c, trace_signal.c,
    trace_state.c, trace_exec.c): a thread's record, the state they share,
    and the functions one file calls in another. The fast path and the
    event format are in profiler.h and trace_format.h.

    One lock (a spin lock, so that a signal handler can try it) guards the
    file and every record's "flushed" mark; only a buffer's owner thread
    moves to another place (below), under that lock, so a flush from
    another thread (exit, prof_trace_flush, a signal, the writer thread)
    reads a consistent [flushed, position) range. Records are never freed (a
    thread that exits leaves its record and buffer to the next new thread),
    so the list can be walked from a signal handler.

    Places (prof_impl_trace_place, profiler.h): the markers record through
    the place the thread's TLS points to, {pos, end, last}, with no atomic
    read-modify-write, so a signal handler that records can run between a
    marker's load of pos and its store of pos + 1. When the handler's event
    finds the buffer full, the slow path moves the thread to another place;
    the interrupted marker then stores into the place left. Each buffer has
    two places of its own, used in turn, so that store never points into
    another buffer and never rewinds the place in use: memory stays safe
    and no event is written twice. What it costs is that marker's event (it
    lands in the place left, unwritten or over one of the handler's) or,
    when the handler records into the same place without moving, the
    handler's events (the marker's store of pos + 1 goes back over them);
    those losses cannot be seen, so they are not counted. A place left for
    the writer thread (a hand-off) may get that late word while the writer
    writes it: one word, inside the buffer, either version written; the
    time base carried over may then be off, so the new place starts with
    a SYNC word (move_to). The markers read pos before last and store
    last before their word (profiler.h), so a handler in between never
    makes time in the trace go back. A handler that
    records past two full buffers in one call could come back to the place
    the interrupted marker holds: still inside that buffer, but events may
    then be lost or written twice.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TRACE_IMPL_H
#define PROF_TRACE_IMPL_H

#define PROF_IMPL_TRACE_INTERNAL 1
#include "internal.h"
#include "trace_format.h"

#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#define NOINST __attribute__((no_instrument_function))

typedef unsigned long long word_t;  /* one event (src/trace/trace_format.h) */

/* Paths are refused, never cut, when they do not fit (PATH_MAX on Linux). */
enum { PATH_BYTES = 4096 };
/* All records and buffers together stay under memory_cap (while every live
   thread has at least a MIN_EVENTS buffer): past it, a new thread gets the
   smallest buffer, 2 KiB, which only means more frequent writes. A buffer
   is DEFAULT_BUFFER_KB unless PROF_TRACE_BUFFER_KB says otherwise, the
   cap DEFAULT_MEMORY_KB unless PROF_TRACE_MEMORY_KB does. */
enum { MIN_EVENTS = 256, DEFAULT_BUFFER_KB = 1024, DEFAULT_MEMORY_KB = 262144 };
#define MIN_BUFFER_KB ((size_t) MIN_EVENTS * sizeof(word_t) / 1024)

enum { SCRATCH_BYTES = 16384, NAME_BYTES = 32 };
/* A thread's map of label ids starts with this many slots (trace.c). */
enum { FIRST_MAP_SLOTS = 256 };
/* Events chunks are written in pieces of at most this many words, well
   under the reader's limit on a chunk (PROF_TF_MAX_CHUNK). */
enum { PIECE_WORDS = 1 << 23 };
#define NO_KEY ((const void *) 1)   /* an empty cache slot */

typedef struct trace_rec
{
    struct trace_rec * next;        /* list of all records, never freed */
    prof_impl_trace_place * at;   /* the owner's place; NULL: free */
    word_t * buf;                   /* cap events: the buffer of at */
    size_t cap;
    /* places[0..1] are the places of buffer first (the one the owner
       thread attached with), places[2..3] those of the other (spare,
       pending_buf or buf in turn); turn[] says which of each pair was
       used last. */
    word_t * first;
    prof_impl_trace_place places[4];
    unsigned char turn[2];
    word_t * flushed;               /* events before it are written */
    uint64_t base61;                /* ticks of the event before the first
                                       unwritten one (pending's, or flushed) */
    /* Double buffering: a full buffer handed to the writer thread waits in
       pending (words pending[0..pending_n) of buffer pending_buf) while the
       thread records into the other; spare is the free one. */
    word_t * pending, * pending_buf, * spare;
    size_t pending_n;
    uint32_t tid;
    int name_dirty;
    char name[NAME_BYTES];
    uint64_t lost;                  /* lost, not yet told in a LOST chunk */
    /* The thread's label ids: the fast path's cache, the owner's map
       key -> id + 1, and id -> key (appended under the lock: the writer
       reads it) with each key's class (0 label, 1 __func__, 2 code). */
    prof_impl_trace_slot cache[PROF_IMPL_TRACE_SLOTS];
    uint64_t * mkeys;
    uint32_t * mvals;
    size_t mcap, mn;
    uint64_t * ids;
    unsigned char * cls;
    size_t nids, idcap, clscap;
    size_t ids_written;             /* ids [0, ids_written) are in the file */
    unsigned ids_gen;               /* ... of this generation */
    unsigned char scratch[SCRATCH_BYTES];
} trace_rec;

/* What the recorder's files share (one instance, prof_impl_trace_g: TR). */
typedef struct
{
    int state;                      /* 0: off, 1: starting, 2: running */
    int lock_word;
    int fd;                         /* the trace file, or -1 */
    unsigned file_gen;              /* counts the files opened */
    char file_path[PATH_BYTES];     /* the file written, or "" (none) */
    int file_errno;                 /* why the last write/open failed */
    int file_warned;
    int file_has_events;            /* an events chunk has gone to the file
                                       (or it was gone back to): kept */
    trace_rec * records;
    uint64_t lost_total;
    uint64_t start_ticks;
    double tick_rate;
    size_t buffer_events;
    size_t memory_cap;
    size_t memory_used;
    int finished;                   /* the exit-time flush has run */
    int forked_before_start;        /* a child of a process that had not
                                       started tracing when it forked, */
    char env_at_fork[PATH_BYTES];   /* ... and its PROF_TRACE_FILE then */
    int fork_locked;                /* fork_prepare took the lock */
    long pid;                       /* the process that traces: set at the
                                       start and by fork_child; another pid
                                       is a child made without fork()'s
                                       handlers (vfork, clone) */
    int in_fork_child;              /* set by fork_child: only
                                       async-signal-safe work until exec */
    pthread_key_t thread_key;
    /* the writer thread (trace.c, hand_off) */
    pthread_mutex_t writer_mutex;
    pthread_cond_t writer_cond;
    int writer_work;
    int writer_state;               /* 0: not started, 1: running, -1: none */
    int use_writer;                 /* PROF_TRACE_WRITER=0: no writer thread */
    unsigned long handed_off;       /* buffers given to the writer thread */
    int no_fork_handlers;           /* pthread_atfork failed (load time) */
    int off;                        /* the start could not make tracing
                                       safe: every event counts as lost */
} prof_impl_trace_shared;
extern prof_impl_trace_shared prof_impl_trace_g;
#define TR prof_impl_trace_g

/* The cache a thread reads before it has a buffer, and the place (pos ==
   end == NULL, never written) that sends every event to the slow path:
   before the first event, after the exit-time flush, inside the program's
   handler called by the recorder's. */
extern const prof_impl_trace_slot prof_impl_trace_empty_cache[PROF_IMPL_TRACE_SLOTS];
extern prof_impl_trace_place prof_impl_trace_closed;

/* Each thread's own (ME). */
typedef struct
{
    trace_rec * rec;                /* its record, NULL before the first event */
    int in_slow_path;               /* a signal handler that records while
                                       this thread is in the slow path */
    int holds_lock;                 /* this thread holds the lock: a signal
                                       handler on it must not take it */
    /* Inside the program's own handler, called by on_signal: its events go
       to the slow path (the closed place), which counts them as lost, since
       the handler may have interrupted the fast path between its load and
       its store. */
    int in_handler;
    void * handler_frame;           /* on_signal's frame */
    prof_impl_trace_place * handler_saved;
} prof_impl_trace_mine;
extern __thread prof_impl_trace_mine prof_impl_trace_me;
#define ME prof_impl_trace_me

/* trace_state.c: the lock (and the definitions of TR, ME and the places
   above) */
void prof_impl_tr_lock(void);
void prof_impl_tr_unlock(void);
/* For the API (open, flush, thread name, exit): 1 if taken; 0 at once when
   this thread already holds it, i.e. a signal handler (or an exit inside
   one) interrupted the recorder, which cannot release it before the
   handler returns: waiting would never end. */
int prof_impl_tr_lock_api(void);
/* From a signal handler: 0 at once when this thread holds the lock, else
   wait a second at most for another thread's write. 1 if taken. */
int prof_impl_tr_lock_from_signal(void);
/* The environment's settings into TR (at the start). */
void prof_impl_tr_read_settings(void);

/* trace_file.c */
/* Write to path (NULL: PROF_TRACE_FILE or the default) from now on; lock
   held, or before tracing starts. 0 or -1 (after a message). */
int prof_impl_tr_open_file(const char * path);
/* Write a record's (or every record's) unwritten events; lock held. 0, or
   -1 with the events that could not be written counted as lost. */
int prof_impl_tr_flush_locked(trace_rec * r, int in_signal);
int prof_impl_tr_flush_all_locked(int in_signal);
/* The buffer handed to the writer thread, if any; lock held. */
int prof_impl_tr_write_pending(trace_rec * r, int in_signal);
/* The end record (sig: the signal that ends the program, or 0). */
void prof_impl_tr_write_end(int sig);
/* Move r->base61 over words w[0..n); returns how many are events. */
size_t prof_impl_tr_advance_base(trace_rec * r, const word_t * w, size_t n);
/* Start tracing if it is not running (trace.c), into the file it would
   use at its first event: 0, or -1 if tracing is off (said). */
int prof_impl_trace_begin(void);
/* A chunk from outside the recorder (the sampler), taking the lock. 0, or
   -1 if it could not be written. */
int prof_impl_tr_put_chunk(uint32_t type, uint32_t tid, const void * p, size_t n);
/* /proc/self/maps, zero padded to 8 bytes (malloc'd, length in *n), or
   NULL. */
char * prof_impl_tr_read_maps(size_t * n);
/* The file being written, for messages. */
const char * prof_impl_tr_shown_path(void);
/* 0 if snprintf's result n fits a path, else -1 after a message. */
int prof_impl_tr_path_fits(int n);
/* Create the trace file p with its header and maps: its descriptor, or -1
   with errno set. */
int prof_impl_tr_create_file(const char * p);
/* Go on in the file nfd (-1: none), named p. */
void prof_impl_tr_switch_file(int nfd, const char * p);

/* ---- extension records (trace_format.h), such as annotations ---- */
/* One record: kind, then the id of name (a string that lives until exit,
   interned as a label; NULL: no such word), words w[0..n), and the string
   s of len bytes (NULL: none) as a length word and the bytes. */
typedef struct
{
    unsigned kind;                  /* PROF_TF_EXT_* */
    const char * name;
    const word_t * w;
    size_t n;
    const char * s;
    size_t len;
} prof_impl_tr_ext;
/* trace.c: record x on the calling thread, as the slow path records an
   event (one counter read, after any set-up; from a handler that
   interrupted the recorder it is counted as lost). */
void prof_impl_tr_record_ext(prof_impl_tr_ext * x);
/* trace_ext.c: the words x takes in a buffer (the extension word
   included); x's string cut so that it takes at most room words; x
   written at p (delta d, name id id) and the word after it. */
size_t prof_impl_tr_ext_words(const prof_impl_tr_ext * x);
void prof_impl_tr_ext_fit(prof_impl_tr_ext * x, size_t room);
word_t * prof_impl_tr_put_ext(word_t * p, unsigned long long d, long id,
                              const prof_impl_tr_ext * x);
/* The words of the record whose first word is w (1 for an event), at most
   n (a record cut by a place's end, or corrupt). */
size_t prof_impl_tr_record_words(const word_t * w, size_t n);

/* trace_lock.c: 0 while the calling thread is inside the recorder (its
   slow path, its lock): the allocation archive (src/alloc/) records
   nothing of the recorder's own allocations. */
int prof_impl_trace_alloc_hook_ok(void);

/* trace_signal.c */
/* Write every buffer and the end record before exec replaces the process
   image (the recorder's exec functions, trace_exec.c, call it). */
void prof_impl_trace_before_exec(void);
void prof_impl_tr_at_exit(void);
void prof_impl_tr_thread_exit(void * record);
void prof_impl_tr_install_signals(void);
/* 1 while the program's handler called by the recorder's runs. */
int prof_impl_tr_inside_handler(void);

#endif
