/*
    The instrumentation recorder: per-thread event buffers (8-byte events,
    label ids per thread), the slow path of the markers, the writer thread
    that full buffers are handed to, and the API. The trace file and the
    writing of buffers are in trace_file.c; exit, thread exit, signals,
    fork and exec in trace_signal.c; the state they share and its lock in
    trace_state.c and trace_impl.h.

    The fast path is inline in profiler.h: read the counter, find the
    label's id in the thread's cache, store one word at the thread's buffer
    position, advance it. Everything here is the cold path.
    SPDX-License-Identifier: MIT
*/
#if !defined(_WIN32) /* Windows: trace_none.c */

#include "trace_impl.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#if defined(__linux__)
# include <sys/syscall.h>
#endif

/* ---- start ------------------------------------------------------------------ */

/* Tracing cannot be made safe (why): off, and said so. */
static NOINST void off(const char * why)
{
    TR.off = 1;
    prof_impl_warn("trace: %s: tracing is off, every event is counted as lost", why);
}

/* Start tracing to path (once). Returns 0 or -1 (the file cannot be
   written) when this call started it, 1 when it was already running. */
/* The sampler's hook (src/sample/sample.c), a weak reference: it does not
   pull the sampler into a program that traces, and is NULL unless the
   program links the sampler for itself (the opt-in rule). */
extern void prof_impl_sample_at_open(void) __attribute__((weak));

static NOINST int start(const char * path)
{
    int expected = 0, rc = 0, was_inside;
    if (__atomic_load_n(&TR.state, __ATOMIC_ACQUIRE) == 2)
        return 1;
    if (!__atomic_compare_exchange_n(&TR.state, &expected, 1, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
        while (__atomic_load_n(&TR.state, __ATOMIC_ACQUIRE) != 2)
            sched_yield();
        return 1;
    }
    /* as in the slow path: what the start allocates is not recorded
       (libprofiler-alloc.a), a handler's event is lost, not waited for */
    was_inside = ME.in_slow_path;
    ME.in_slow_path = 1;
    prof_impl_tr_read_settings();
    TR.pid = (long) getpid();
    TR.tick_rate = prof_tick_rate();
    TR.start_ticks = prof_impl_ticks();
    if (prof_impl_tr_open_file(path) != 0)
        rc = -1;
    /* Without the thread-exit key, the exit handler or the fork handlers,
       buffers would go unwritten or a child would write into the parent's
       file: then nothing is recorded (every event counts as lost), and
       the message says why. */
    if (TR.no_fork_handlers)
        off("pthread_atfork failed");
    else if (pthread_key_create(&TR.thread_key, prof_impl_tr_thread_exit) != 0)
        off("pthread_key_create failed");
    else if (atexit(prof_impl_tr_at_exit) != 0)
        off("atexit failed");
    else
        prof_impl_tr_install_signals();
    if (TR.off)
        rc = -1;
    __atomic_store_n(&TR.state, 2, __ATOMIC_RELEASE);
    ME.in_slow_path = was_inside;
    if (rc == 0 && prof_impl_sample_at_open != NULL)
        prof_impl_sample_at_open(); /* PROF_SAMPLE_HZ, if the sampler is linked */
    return rc;
}

static NOINST uint32_t thread_id(void)
{
#if defined(__linux__) && defined(SYS_gettid)
    return (uint32_t) syscall(SYS_gettid);
#else
    static uint32_t next = 1;
    return __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED);
#endif
}

/* Touch every page of a new buffer now, not on the first event in each: a
   volatile store per page, which the compiler cannot fold into calloc (as
   gcc did with malloc + memset, leaving the faults to the fast path). */
static NOINST void touch_pages(void * p, size_t n)
{
    volatile unsigned char * c = (volatile unsigned char *) p;
    size_t i;
    for (i = 0; i < n; i += 4096)
        c[i] = 0;
    if (n > 0)
        c[n - 1] = 0;
}

/* A new record with a buffer of buffer_events (the smallest past the
   memory cap), on the list; lock held. NULL if out of memory. */
static NOINST trace_rec * new_record(void)
{
    static int warned;
    trace_rec * r;
    size_t cap = TR.buffer_events;
    if (TR.memory_used + sizeof *r + cap * sizeof *r->buf > TR.memory_cap
        && cap > MIN_EVENTS)
    {
        cap = MIN_EVENTS;
        if (!warned)
        {
            warned = 1;
            prof_impl_warn("trace: event buffers reached %zu KiB "
                           "(PROF_TRACE_MEMORY_KB): new threads get %zu "
                           "KiB buffers, written more often", TR.memory_cap
                           / 1024, MIN_BUFFER_KB);
        }
    }
    r = (trace_rec *) calloc(1, sizeof *r);
    if (r == NULL)
        return NULL;
    r->buf = (word_t *) malloc(cap * sizeof *r->buf);
    if (r->buf == NULL)
    {
        free(r);
        return NULL;
    }
    touch_pages(r->buf, cap * sizeof *r->buf);
    r->cap = cap;
    TR.memory_used += sizeof *r + cap * sizeof *r->buf;
    r->next = TR.records;
    __atomic_store_n(&TR.records, r, __ATOMIC_RELEASE);
    return r;
}

/* A record taken by a new thread starts its ids again (they are per
   thread in the file). */
static NOINST void reset_ids(trace_rec * r)
{
    size_t i;
    for (i = 0; i < PROF_IMPL_TRACE_SLOTS; i++)
    {
        r->cache[i].key = NO_KEY;
        r->cache[i].tag = 0;
    }
    if (r->mvals != NULL)
        memset(r->mvals, 0, r->mcap * sizeof *r->mvals);
    r->mn = 0;
    r->nids = 0;
    r->ids_written = 0;
}

static NOINST size_t key_slot(uint64_t k, size_t cap)
{
    return (size_t) ((k * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (cap - 1);
}

/* Double the owner's map key -> id + 1. 0 or -1. */
static NOINST int grow_map(trace_rec * r)
{
    size_t cap = r->mcap ? r->mcap * 2 : FIRST_MAP_SLOTS, i;
    uint64_t * k = (uint64_t *) calloc(cap, sizeof *k);
    uint32_t * v = (uint32_t *) calloc(cap, sizeof *v);
    if (k == NULL || v == NULL)
    {
        free(k);
        free(v);
        return -1;
    }
    for (i = 0; i < r->mcap; i++)
        if (r->mvals[i] != 0)
        {
            size_t j = key_slot(r->mkeys[i], cap);
            while (v[j] != 0)
                j = (j + 1) & (cap - 1);
            k[j] = r->mkeys[i];
            v[j] = r->mvals[i];
        }
    free(r->mkeys);
    free(r->mvals);
    r->mkeys = k;
    r->mvals = v;
    r->mcap = cap;
    return 0;
}

/* Room for the thread's first labels, made when it attaches, before its
   first event is stamped: the map, the id table (the first allocations of
   a new thread's malloc arena among them) and their pages, so that a
   label's first use inside a zone costs a lookup and a store, not an
   allocation or a page fault. Failures are left to intern. */
static NOINST void prepare_ids(trace_rec * r)
{
    size_t n = FIRST_MAP_SLOTS / 2; /* the map grows past half full */
    if (r->mcap == 0 && grow_map(r) == 0)
    {
        touch_pages(r->mkeys, r->mcap * sizeof *r->mkeys);
        touch_pages(r->mvals, r->mcap * sizeof *r->mvals);
    }
    if (prof_impl_grow(&r->ids, &r->idcap, n, sizeof *r->ids) == 0)
        touch_pages(r->ids, n * sizeof *r->ids);
    if (prof_impl_grow(&r->cls, &r->clscap, n, 1) == 0)
        touch_pages(r->cls, n);
}

/* Give the calling thread a record and a buffer. NULL if out of memory. */
static NOINST trace_rec * attach(void)
{
    trace_rec * r, * best = NULL;
    prof_impl_tr_lock();
    for (r = TR.records; r != NULL; r = r->next) /* the largest free record */
        if (r->at == NULL && (best == NULL || r->cap > best->cap))
            best = r;
    r = best != NULL ? best : new_record();
    if (r == NULL)
    {
        prof_impl_tr_unlock();
        return NULL;
    }
    reset_ids(r);
    prepare_ids(r);
    r->flushed = r->buf;
    r->base61 = 0; /* deltas count from 0 until the first SYNC */
    /* the last thread's losses not yet told in a LOST chunk (its file could
       not be written): they stay in the end record's total, and are not
       this thread's */
    r->lost = 0;
    r->tid = thread_id();
    memset(r->name, 0, sizeof r->name);
#if defined(__GLIBC__)
    pthread_getname_np(pthread_self(), r->name, sizeof r->name);
#endif
    r->name_dirty = r->name[0] != '\0';
    r->first = r->buf; /* places[0..1] are this buffer's (trace_impl.h) */
    r->places[0].pos = r->buf;
    r->places[0].end = r->buf + r->cap;
    r->places[0].last = 0;
    r->turn[0] = r->turn[1] = 0;
    r->at = &r->places[0];
    prof_impl_trace_tls.cache = r->cache;
    prof_impl_trace_tls.cur = r->at;
    prof_impl_tr_unlock();
    ME.rec = r;
    pthread_setspecific(TR.thread_key, r);
    return r;
}

/* Go on at the start of b, one of r's buffers, through b's place not used
   last (lock held): the place left may still be held by a marker that a
   signal handler interrupted (trace_impl.h), and its late store goes
   there. The thread's TLS moves too, unless it points to the closed place
   (after the exit-time flush, or inside the program's handler). Returns
   the place left, whose words the caller writes or counts. */
static NOINST prof_impl_trace_place * move_to(trace_rec * r, word_t * b,
                                                int sync)
{
    prof_impl_trace_place * old = r->at, * c;
    int k = b == r->first ? 0 : 1;
    r->turn[k] ^= 1;
    c = &r->places[2 * k + r->turn[k]];
    c->pos = b;
    c->end = b + r->cap;
    c->last = old->last;
    /* sync: b's first word is that time, absolute. The buffer left goes to
       the writer thread, and the interrupted marker's late store may change
       one of its last words while the writer reads them: the time base the
       writer carries over to b can be off, the SYNC word is not. */
    if (sync)
        *c->pos++ = (c->last & PROF_TF_TICK_MASK) << 3 | PROF_TF_EV_SYNC;
    r->buf = b;
    r->flushed = b;
    __atomic_store_n(&r->at, c, __ATOMIC_RELEASE);
    if (prof_impl_trace_tls.cur == old)
        __atomic_store_n(&prof_impl_trace_tls.cur, c, __ATOMIC_RELAXED);
    /* inside the program's handler (prof_trace_flush there): the place
       restored when it returns is the new one */
    if (ME.in_handler && ME.handler_saved == old)
        ME.handler_saved = c;
    /* what a signal handler records from here on goes to c: read old's
       position only after this */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    return old;
}

/* Words w[0..n) of r that will not be written: counted as lost, and the
   time base moved over them (the next event's delta counts from them). */
static NOINST void drop_words(trace_rec * r, const word_t * w, size_t n)
{
    size_t k = prof_impl_tr_advance_base(r, w, n);
    r->lost += k;
    __atomic_add_fetch(&TR.lost_total, k, __ATOMIC_RELAXED);
}

/* Go on at the start of r's buffer, all of which was written up to
   r->flushed (lock held). Events a signal handler recorded since, in the
   place left, are counted as lost: the new place writes over them. */
static NOINST void restart(trace_rec * r)
{
    word_t * seen = r->flushed, * pos;
    prof_impl_trace_place * old = move_to(r, r->buf, 0);
    pos = __atomic_load_n(&old->pos, __ATOMIC_ACQUIRE);
    if (pos > seen)
        drop_words(r, seen, (size_t) (pos - seen));
}

static NOINST void count_lost(uint64_t n, const char * why)
{
    static int warned;
    __atomic_add_fetch(&TR.lost_total, n, __ATOMIC_RELAXED);
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
        prof_impl_warn("trace: %s; such events are counted as lost", why);
}

/* A new id for key (class cls) of r, under the lock (the writer reads the
   table). -1 if out of memory or of ids. */
static NOINST long new_id(trace_rec * r, uint64_t key, unsigned cls)
{
    long id = -1;
    prof_impl_tr_lock();
    if (r->nids < ((size_t) 1 << PROF_TF_ID_BITS)
        && prof_impl_grow(&r->ids, &r->idcap, r->nids + 1, sizeof *r->ids) == 0
        && prof_impl_grow(&r->cls, &r->clscap, r->nids + 1, 1) == 0)
    {
        r->ids[r->nids] = key;
        r->cls[r->nids] = (unsigned char) cls;
        id = (long) r->nids++;
    }
    prof_impl_tr_unlock();
    return id;
}

/* The id of key in the calling thread's record r, made on first use. */
static NOINST long intern(trace_rec * r, const void * key, unsigned type)
{
    uint64_t k = (uint64_t) (size_t) key;
    size_t i;
    long id;
    if ((r->mn + 1) * 2 > r->mcap && grow_map(r) != 0)
        return -1;
    for (i = key_slot(k, r->mcap); r->mvals[i] != 0; i = (i + 1) & (r->mcap - 1))
        if (r->mkeys[i] == k)
            return (long) r->mvals[i] - 1;
    if ((id = new_id(r, k, type / 2)) < 0)
        return -1;
    r->mkeys[i] = k;
    r->mvals[i] = (uint32_t) id + 1;
    r->mn++;
    return id;
}

/* key -> id into the fast path's cache: the first slot of its pair, the
   one there moving to the second. Each slot's tag is stored before its key
   (a signal handler on this thread may read the cache in between). */
static NOINST void cache_put(trace_rec * r, const void * key, long id)
{
    prof_impl_trace_slot * c = r->cache + PROF_IMPL_TRACE_PAIR(key);
    if (c[0].key == key)
        return; /* there already (the slow path came for another reason) */
    c[1].key = NO_KEY;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    c[1].tag = c[0].tag;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    c[1].key = c[0].key;
    c[0].key = NO_KEY;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    c[0].tag = (unsigned long long) id << 3;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    c[0].key = key;
}

/* ---- the writer thread ------------------------------------------------------- */

/* Full buffers are handed to it, so that the recording thread goes on at
   once into its other buffer. It writes under the lock, as every flush
   does (order and signal safety stay those of the lock); a thread whose
   other buffer is still waiting writes itself. */

static NOINST void * writer_main(void * arg)
{
    sigset_t all;
    (void) arg;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL); /* signals go to the program's */
    for (;;)
    {
        trace_rec * r;
        pthread_mutex_lock(&TR.writer_mutex);
        while (!TR.writer_work)
            pthread_cond_wait(&TR.writer_cond, &TR.writer_mutex);
        TR.writer_work = 0;
        pthread_mutex_unlock(&TR.writer_mutex);
        prof_impl_tr_lock();
        for (r = TR.records; r != NULL; r = r->next)
            (void) prof_impl_tr_write_pending(r, 0);
        prof_impl_tr_unlock();
    }
    return NULL;
}

static NOINST void wake_writer(void)
{
    pthread_mutex_lock(&TR.writer_mutex);
    TR.writer_work = 1;
    pthread_cond_signal(&TR.writer_cond);
    pthread_mutex_unlock(&TR.writer_mutex);
}

/* 1 if the writer thread runs (started now if need be; lock held). */
static NOINST int writer_running(void)
{
    pthread_t th;
    pthread_attr_t a;
    if (TR.writer_state != 0)
        return TR.writer_state > 0;
    TR.writer_state = -1;
    if (pthread_attr_init(&a) != 0)
        return 0;
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &a, writer_main, NULL) == 0)
        TR.writer_state = 1;
    pthread_attr_destroy(&a);
    return TR.writer_state > 0;
}

/* A second buffer for r, within the memory cap (lock held). */
static NOINST word_t * new_spare(trace_rec * r)
{
    word_t * b;
    if (TR.memory_used + r->cap * sizeof *b > TR.memory_cap)
        return NULL;
    b = (word_t *) malloc(r->cap * sizeof *b);
    if (b != NULL)
    {
        touch_pages(b, r->cap * sizeof *b);
        TR.memory_used += r->cap * sizeof *b;
    }
    return b;
}

/* Hand r's full buffer to the writer thread and go on in the spare one
   (lock held). 0 if it cannot (no writer, no spare, one still waiting). */
static NOINST int hand_off(trace_rec * r)
{
    word_t * full = r->buf, * from = r->flushed, * spare = r->spare;
    prof_impl_trace_place * old;
    if (!TR.use_writer || r->pending != NULL || r->cap < 4096
        || (spare == NULL && (spare = r->spare = new_spare(r)) == NULL)
        || !writer_running())
        return 0;
    TR.handed_off++;
    r->spare = NULL;
    old = move_to(r, spare, 1);
    /* the count of words handed over is taken once, after the move: the
       writer never reads the place left, where a late store may land */
    r->pending = from;
    r->pending_n = (size_t) (__atomic_load_n(&old->pos, __ATOMIC_ACQUIRE) - from);
    r->pending_buf = full;
    return 1;
}

/* Room for a SYNC and a record of words words in r's buffer: a full
   buffer goes to the writer thread, or is written here (always, after the
   exit-time flush). */
static NOINST void make_room(trace_rec * r, size_t words)
{
    int handed;
    if (r->at->pos + 1 + words <= r->at->end
        && !__atomic_load_n(&TR.finished, __ATOMIC_RELAXED))
        return;
    prof_impl_tr_lock();
    handed = !__atomic_load_n(&TR.finished, __ATOMIC_RELAXED) && hand_off(r);
    if (!handed)
    {
        (void) prof_impl_tr_flush_locked(r, 0);
        restart(r);
    }
    prof_impl_tr_unlock();
    if (handed)
        wake_writer();
}

/* The event's word in r's place (after a SYNC word if the gap is too long
   for it). 0, with nothing stored, if the place has no room for them: a
   signal handler that records took the room make_room had made (its
   events go through the fast path, into this place). */
static NOINST int append(trace_rec * r, unsigned type, long id,
                         unsigned long long t, const prof_impl_tr_ext * x)
{
    prof_impl_trace_place * c = r->at;
    word_t * p = __atomic_load_n(&c->pos, __ATOMIC_RELAXED);
    unsigned long long last, d;
    /* the fast path's order (profiler.h): pos, then last; last stored
       before the words */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    last = c->last;
    /* A stamp before the last event's: a signal handler recorded between
       this marker's read of the counter and its read of last (or the
       counter differs a little between cores). Stamped with the last
       event's time, so that time in the trace never goes back. */
    if ((long long) (t - last) < 0)
        t = last;
    d = t - last;
    if (p + (x != NULL ? prof_impl_tr_ext_words(x) : 1)
        + (d >> PROF_TF_DELTA_BITS != 0) > c->end)
        return 0;
    __atomic_store_n(&c->last, t, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (d >> PROF_TF_DELTA_BITS)
    {
        *p++ = (t & PROF_TF_TICK_MASK) << 3 | PROF_TF_EV_SYNC;
        d = 0;
    }
    if (x != NULL)
        p = prof_impl_tr_put_ext(p, d, id, x);
    else
        *p++ = d << 24 | (unsigned long long) id << 3 | type;
    __atomic_store_n(&c->pos, p, __ATOMIC_RELEASE);
    return 1;
}

/* The slow path of an event of type (x NULL: the fast path found the
   buffer full, the key not in its cache, a long gap, or the thread new)
   or of an extension record x (key: its name, or NULL): make room, then
   record it. */
static NOINST void record(unsigned type, const void * key, unsigned long long t,
                          prof_impl_tr_ext * x)
{
    int saved = errno;
    trace_rec * r;
    long id = -1;
    if (ME.in_slow_path || ME.holds_lock || prof_impl_tr_inside_handler())
    {
        /* re-entered (a signal handler that records, interrupting this
           thread's flush): taking the lock again would deadlock */
        __atomic_add_fetch(&TR.lost_total, 1, __ATOMIC_RELAXED);
        return;
    }
    ME.in_slow_path = 1;
    if (__atomic_load_n(&TR.state, __ATOMIC_ACQUIRE) != 2)
    {
        start(NULL);
        t = prof_impl_ticks(); /* no event before the trace's start */
    }
    if (TR.off)
        __atomic_add_fetch(&TR.lost_total, 1, __ATOMIC_RELAXED);
    else if ((r = ME.rec) == NULL && (r = attach()) == NULL)
        count_lost(1, "out of memory for a thread's event buffer");
    else if ((x == NULL || key != NULL)
             && (id = intern(r, key, x != NULL ? PROF_IMPL_EV_BEGIN : type)) < 0)
        count_lost(1, "out of memory for label numbers, or more than 2^21 "
                   "labels in a thread");
    else
    {
        if (key != NULL || x == NULL) /* a named record's too: inline */
            cache_put(r, key, id);
        if (x != NULL)
            prof_impl_tr_ext_fit(x, r->cap - 1); /* a SYNC, the record */
        /* A begin (even type) is stamped when the set-up is done (the
           thread's record and buffer, the label's id, a buffer written),
           so that none of it is charged to the zone it begins; an end
           keeps its stamp from before: the work falls between zones. A
           handler that fills the room made before the event is written
           (its own slow path is refused here, so it cannot make more)
           sends this round again. */
        do
        {
            make_room(r, x != NULL ? prof_impl_tr_ext_words(x) : 1);
            if (type % 2 == 0 || x != NULL)
                t = prof_impl_ticks();
        } while (!append(r, type, id, t, x));
        if (__atomic_load_n(&TR.finished, __ATOMIC_RELAXED))
        {
            /* after the exit-time flush: write it now, nobody will later */
            prof_impl_tr_lock();
            (void) prof_impl_tr_flush_locked(r, 0);
            prof_impl_tr_unlock();
            prof_impl_trace_tls.cur = &prof_impl_trace_closed;
        }
    }
    ME.in_slow_path = 0;
    errno = saved;
}

NOINST void prof_impl_trace_slow(unsigned type, const void * key,
                                 unsigned long long t)
{
    record(type, key, t, NULL);
}

NOINST void prof_impl_tr_record_ext(prof_impl_tr_ext * x)
{
    record(PROF_TF_EV_EXT, x->name, 0, x);
}

/* ---- API -------------------------------------------------------------------- */

NOINST int prof_impl_trace_begin(void)
{
    int rc = start(NULL);
    return TR.off || rc < 0 ? -1 : 0;
}

int prof_trace_open(const char * path)
{
    int rc = start(path);
    if (rc != 1)
        return rc; /* this call started tracing, with path */
    if (TR.off)
        return -1;
    /* running: events not yet written go to the new file */
    if (!prof_impl_tr_lock_api())
        return -1;
    rc = prof_impl_tr_open_file(path);
    prof_impl_tr_unlock();
    return rc;
}

int prof_trace_flush(void)
{
    int rc;
    if (__atomic_load_n(&TR.state, __ATOMIC_ACQUIRE) != 2)
        return 0;
    if (!prof_impl_tr_lock_api())
        return -1;  /* the interrupted flush writes them */
    rc = prof_impl_tr_flush_all_locked(0);
    prof_impl_tr_unlock();
    return rc;
}

void prof_trace_thread_name(const char * name)
{
    trace_rec * r;
    if (name == NULL || name[0] == '\0')
        return;
    /* from a handler that interrupted the recorder on this thread (its
       slow path may be attaching a buffer): the name stays */
    if (ME.holds_lock || ME.in_slow_path)
        return;
    if (start(NULL), TR.off || ((r = ME.rec) == NULL && (r = attach()) == NULL))
        return;
    prof_impl_tr_lock();    /* not held here: checked above */
    memset(r->name, 0, sizeof r->name);
    strncpy(r->name, name, sizeof r->name - 1);
    r->name_dirty = 1;
    prof_impl_tr_unlock();
}

unsigned long prof_impl_trace_writer_buffers(void)
{
    unsigned long n;
    prof_impl_tr_lock();
    n = TR.handed_off;
    prof_impl_tr_unlock();
    return n;
}

unsigned long long prof_trace_lost(void)
{
    return __atomic_load_n(&TR.lost_total, __ATOMIC_RELAXED);
}

#else
typedef int prof_impl_trace_posix_only; /* ISO C: no empty translation unit */
#endif /* !_WIN32 */
