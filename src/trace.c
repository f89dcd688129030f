/*
    The instrumentation recorder: per-thread event buffers, the trace file,
    and every way the buffers reach it (full buffer, prof_trace_flush, thread
    exit, exit(), fatal signals, fork).

    The fast path is inline in profiler.h: read the counter, store 16 bytes at
    the thread's buffer position, advance it. Everything here is the cold
    path. One lock (a spin lock, so that a signal handler can try it) guards
    the file and every record's "flushed" mark; only a buffer's owner thread
    moves its position back to the start, under that lock, so a flush from
    another thread (exit, prof_trace_flush, a signal) reads a consistent
    [flushed, position) range. Records are never freed (a thread that exits
    leaves its record and buffer to the next new thread), so the list can be
    walked from a signal handler.
    SPDX-License-Identifier: MIT
*/
#if !defined(_WIN32) /* Windows: trace_none.c */

#define PROF_IMPL_TRACE_INTERNAL 1
#include "internal.h"
#include "trace_format.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#if defined(__linux__)
# include <sys/syscall.h>
#endif

#define NOINST __attribute__((no_instrument_function))

typedef unsigned long long word_t;  /* one event (src/trace_format.h) */

/* Before a thread has a buffer: pos == end sends every event to the slow
   path, and the fast path's cache lookup reads this. */
static const prof_impl_trace_slot_t empty_cache[PROF_IMPL_TRACE_SLOTS];
__thread prof_impl_trace_tls_t prof_impl_trace_tls = { NULL, NULL, 0, empty_cache };

enum { SCRATCH_BYTES = 16384, NAME_BYTES = 32 };
/* Events chunks are written in pieces of at most this many words, well
   under the reader's limit on a chunk (PROF_TF_MAX_CHUNK). */
enum { PIECE_WORDS = 1 << 23 };
#define NO_KEY ((const void *) 1)   /* an empty cache slot */

typedef struct trace_rec
{
    struct trace_rec * next;        /* list of all records, never freed */
    prof_impl_trace_tls_t * tls;    /* owner's position/end; NULL: free */
    word_t * buf;                   /* cap events */
    size_t cap;
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
    prof_impl_trace_slot_t cache[PROF_IMPL_TRACE_SLOTS];
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

static __thread trace_rec * my_rec;
static __thread int in_slow_path;   /* a signal handler that records while
                                       this thread is in the slow path */
static __thread int holds_lock;     /* this thread holds the lock: a signal
                                       handler on it must not take it */
/* Inside the program's own handler, called by on_signal: its events go to
   the slow path (end = pos), which counts them as lost, since the handler
   may have interrupted the fast path between its check and its store. */
static __thread int in_handler;
static __thread void * handler_frame;  /* on_signal's frame */
static __thread word_t * handler_saved_end;

static int state;                   /* 0: off, 1: starting, 2: running */
static int lock_word;
static int fd = -1;
static unsigned file_gen;
/* Paths are refused, never cut, when they do not fit (PATH_MAX on Linux). */
enum { PATH_BYTES = 4096 };
static char file_path[PATH_BYTES]; /* the file written, or "" (none) */
static int file_errno;              /* why the last write/open failed */
static int file_warned;
static int file_has_events;         /* an events chunk has gone to the file */
static trace_rec * records;
static uint64_t lost_total;
static uint64_t start_ticks;
static double tick_rate;
static size_t buffer_events = 65536;
/* All records and buffers together stay under memory_cap (while every live
   thread has at least a MIN_EVENTS buffer): past it, a new thread gets the
   smallest buffer, which only means more frequent writes. */
enum { MIN_EVENTS = 256 };
static size_t memory_cap = (size_t) 256 << 20;
static size_t memory_used;
static int finished;                /* the exit-time flush has run */
static int forked_before_start;     /* a child of a process that had not
                                       started tracing when it forked, */
static char env_at_fork[PATH_BYTES]; /* ... and its PROF_TRACE_FILE then */
static int fork_locked;             /* fork_prepare took the lock */
static pthread_key_t thread_key;
/* The writer thread (see hand_off) */
static pthread_mutex_t writer_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t writer_cond = PTHREAD_COND_INITIALIZER;
static int writer_work;
static int writer_state;            /* 0: not started, 1: running, -1: none */
static int use_writer = 1;          /* PROF_TRACE_WRITER=0: no writer thread */
static unsigned long handed_off;    /* buffers given to the writer thread */

static const int fatal_signals[] =
    { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGINT, SIGTERM };
static struct sigaction old_actions[sizeof fatal_signals / sizeof fatal_signals[0]];

static void write_end(int sig);

/* ---- lock ------------------------------------------------------------------ */

static NOINST void lock(void)
{
    while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE))
        sched_yield();
    holds_lock = 1;
}

static NOINST double monotonic_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

/* From a signal handler: 0 at once when the interrupted code (this thread)
   holds the lock, which it cannot release before the handler returns;
   else wait for another thread's write to finish, at most a second. */
static NOINST int lock_from_signal(void)
{
    double t0 = 0;
    long i;
    if (holds_lock)
        return 0;
    for (i = 0; __atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE); i++)
    {
        if (i == 0)
            t0 = monotonic_s(); /* clock_gettime: async-signal-safe */
        else if (i % 64 == 0 && monotonic_s() - t0 > 1.0)
            return 0;
        sched_yield();
    }
    holds_lock = 1;
    return 1;
}

static NOINST void unlock(void)
{
    holds_lock = 0;
    __atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
}

/* ---- file ------------------------------------------------------------------ */

static NOINST int write_fd(int to, const void * p, size_t n)
{
    const char * c = (const char *) p;
    if (to < 0)
        return -1;
    while (n > 0)
    {
        ssize_t k = write(to, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
        {
            file_errno = k < 0 ? errno : EIO;
            return -1;
        }
        c += k;
        n -= (size_t) k;
    }
    return 0;
}

static NOINST int write_chunk_fd(int to, uint32_t type, uint32_t tid,
                                 const void * payload, size_t size)
{
    prof_tf_chunk h;
    h.magic = PROF_TF_CHUNK_MAGIC;
    h.type = type;
    h.size = (uint32_t) size;
    h.tid = tid;
    if (write_fd(to, &h, sizeof h) != 0)
        return -1;
    return size ? write_fd(to, payload, size) : 0;
}

static NOINST int write_all(const void * p, size_t n)
{
    return write_fd(fd, p, n);
}

static NOINST int write_chunk(uint32_t type, uint32_t tid, const void * payload,
                              size_t size)
{
    return write_chunk_fd(fd, type, tid, payload, size);
}

static NOINST uint64_t now_unix_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return 0;
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* The executable mappings, so that prof-trace can name the code addresses
   recorded by -finstrument-functions (PIE and shared libraries included). */
static NOINST void write_maps(int to)
{
    int mfd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    size_t len = 0, cap = 0;
    char * text = NULL;
    if (mfd < 0)
        return;
    while (prof_impl_grow(&text, &cap, len + 4096 + 8, 1) == 0)
    {
        ssize_t k = read(mfd, text + len, cap - len - 8);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            break;
        len += (size_t) k;
    }
    close(mfd);
    if (text != NULL)
    {
        while (len % 8 != 0)
            text[len++] = '\0';
        if (len > 0)
            (void) write_chunk_fd(to, PROF_TF_MAPS, 0, text, len);
        free(text);
    }
}

static NOINST const char * shown_path(void)
{
    return file_path[0] != '\0' ? file_path : "(no trace file)";
}

static NOINST void warn_write_failed(void)
{
    if (!file_warned)
    {
        file_warned = 1;
        prof_impl_warn("trace: cannot write %s: %s; events are counted as "
                       "lost", shown_path(), strerror(file_errno));
    }
}

/* 0 if snprintf's result n fits a path; else -1 after a message: a path cut
   short could name another, existing file. */
static NOINST int path_fits(int n)
{
    if (n >= 0 && n < PATH_BYTES)
        return 0;
    prof_impl_warn("trace: a trace file path of %d bytes is too long (at most "
                   "%d): refused, not cut", n, PATH_BYTES - 1);
    return -1;
}

/* The file to write: path, else PROF_TRACE_FILE (<it>.<pid> in a process
   forked before tracing started, as for a fork after), else the default. */
static NOINST int choose_path(const char * path, char * out)
{
    const char * env = getenv("PROF_TRACE_FILE");
    int n;
    if (path != NULL && path[0] != '\0')
        n = snprintf(out, PATH_BYTES, "%s", path);
    else if (env != NULL && env[0] != '\0' && forked_before_start
             && strcmp(env, env_at_fork) == 0) /* the parent's file too */
        n = snprintf(out, PATH_BYTES, "%s.%ld", env, (long) getpid());
    else if (env != NULL && env[0] != '\0')
        n = snprintf(out, PATH_BYTES, "%s", env);
    else
        n = snprintf(out, PATH_BYTES, "prof-trace.%ld.ptrace", (long) getpid());
    return path_fits(n);
}

/* Create the trace file p with its header and maps: its descriptor, or -1
   with errno set. */
static NOINST int create_file(const char * p)
{
    prof_tf_header h;
    int f = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (f < 0)
        return -1;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, PROF_TF_MAGIC, 8);
    h.bom = PROF_TF_BOM;
    h.version = PROF_TF_VERSION;
    h.header_size = sizeof h;
    h.pid = (uint32_t) getpid();
    h.tick_rate = tick_rate;
    h.start_ticks = start_ticks;
    h.start_unix_ns = now_unix_ns();
    if (write_fd(f, &h, sizeof h) != 0)
    {
        close(f);
        errno = file_errno;
        return -1;
    }
    write_maps(f);
    return f;
}

/* 1 if p names the file being written. */
static NOINST int is_current_file(const char * p)
{
    struct stat a, b;
    return fd >= 0 && fstat(fd, &a) == 0 && stat(p, &b) == 0
           && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Go on in the file nfd, named p (fits PATH_BYTES). The file left gets its
   end record, or is removed if no event went to it (events recorded before
   a prof_trace_open, say, went to the new file). */
static NOINST void switch_file(int nfd, const char * p)
{
    trace_rec * r;
    if (fd >= 0)
    {
        if (file_has_events)
            write_end(0);
        close(fd);
        if (!file_has_events)
            unlink(file_path);
    }
    fd = nfd;
    snprintf(file_path, sizeof file_path, "%s", p);
    file_gen++;
    file_warned = nfd < 0;
    file_has_events = 0;
    for (r = records; r != NULL; r = r->next)
        r->name_dirty = r->name[0] != '\0';
}

/* Write to path (see choose_path) from now on; lock held, or before
   tracing starts. The file being written, named again, is kept and goes on.
   A path that cannot be used leaves the current file, if any, in use; with
   none, events are counted as lost. 0 or -1 (after a message). */
static NOINST int open_file(const char * path)
{
    char p[PATH_BYTES];
    int nfd, e;
    if (choose_path(path, p) != 0)
    {
        e = ENAMETOOLONG;
        p[0] = '\0';
    }
    else if (is_current_file(p))
        return 0;
    else if ((nfd = create_file(p)) >= 0)
    {
        switch_file(nfd, p);
        return 0;
    }
    else
    {
        e = errno;
        prof_impl_warn("trace: cannot open %s for writing: %s%s%s", p,
                       strerror(e), fd >= 0 ? "; still writing " : "; events "
                       "are counted as lost", fd >= 0 ? file_path : "");
    }
    if (fd < 0)
    {
        switch_file(-1, p);
        file_errno = e;
    }
    return -1;
}

/* ---- flushing a record ------------------------------------------------------ */

/* STRINGS chunks for the label strings of ids [from, to) of r. */
static NOINST int write_strings(trace_rec * r, size_t from, size_t to)
{
    size_t used = 0, i;
    for (i = from; i < to; i++)
    {
        const char * s = (const char *) (size_t) r->ids[i];
        size_t len, need;
        uint32_t head[2];
        if (r->cls[i] == 2 || s == NULL)
            continue; /* a code address, or NULL (shown as "(null)") */
        len = strnlen(s, PROF_TF_MAX_STRING);
        need = 16 + (len + 7) / 8 * 8;
        if (used + need > SCRATCH_BYTES)
        {
            if (write_chunk(PROF_TF_STRINGS, r->tid, r->scratch, used) != 0)
                return -1;
            used = 0;
        }
        memcpy(r->scratch + used, &r->ids[i], 8);
        head[0] = (uint32_t) len;
        head[1] = 0;
        memcpy(r->scratch + used + 8, head, 8);
        memcpy(r->scratch + used + 16, s, len);
        memset(r->scratch + used + 16 + len, 0, need - 16 - len);
        used += need;
    }
    return used ? write_chunk(PROF_TF_STRINGS, r->tid, r->scratch, used) : 0;
}

/* The ids not yet in this file (their strings, then LABELS chunks). */
static NOINST int write_labels(trace_rec * r)
{
    if (r->ids_gen != file_gen)
    {
        r->ids_written = 0;
        r->ids_gen = file_gen;
    }
    if (r->ids_written == r->nids)
        return 0;
    if (write_strings(r, r->ids_written, r->nids) != 0)
        return -1;
    while (r->ids_written < r->nids)
    {
        size_t k = r->nids - r->ids_written;
        uint32_t head[2];
        if (k > (SCRATCH_BYTES - 8) / 8)
            k = (SCRATCH_BYTES - 8) / 8;
        head[0] = (uint32_t) r->ids_written;
        head[1] = (uint32_t) k;
        memcpy(r->scratch, head, 8);
        memcpy(r->scratch + 8, r->ids + r->ids_written, k * 8);
        if (write_chunk(PROF_TF_LABELS, r->tid, r->scratch, 8 + k * 8) != 0)
            return -1;
        r->ids_written += k;
    }
    return 0;
}

/* Move r->base61 over words w[0..n); returns how many are events (not
   SYNC words). */
static NOINST size_t advance_base(trace_rec * r, const word_t * w, size_t n)
{
    size_t i, events = 0;
    for (i = 0; i < n; i++)
        if ((w[i] & 7) == PROF_TF_EV_SYNC)
            r->base61 = (w[i] >> 3) & PROF_TF_TICK_MASK;
        else
        {
            r->base61 = (r->base61 + (w[i] >> 24)) & PROF_TF_TICK_MASK;
            events++;
        }
    return events;
}

/* EVENTS2 chunks of words w[0..n) (base first); r->base61 moves over them
   either way. Returns the events that could not be written. */
static NOINST size_t write_events(trace_rec * r, const word_t * w, size_t n)
{
    size_t unwritten = 0;
    while (n > 0)
    {
        size_t k = n < PIECE_WORDS ? n : PIECE_WORDS;
        unsigned char head[sizeof(prof_tf_chunk) + 8];
        prof_tf_chunk h;
        h.magic = PROF_TF_CHUNK_MAGIC;
        h.type = PROF_TF_EVENTS2;
        h.size = (uint32_t) (8 + k * 8);
        h.tid = r->tid;
        memcpy(head, &h, sizeof h);
        memcpy(head + sizeof h, &r->base61, 8);
        if (unwritten > 0 || write_all(head, sizeof head) != 0
            || write_all(w, k * 8) != 0)
            unwritten += advance_base(r, w, k);
        else
            (void) advance_base(r, w, k);
        w += k;
        n -= k;
    }
    return unwritten;
}

/* Words w[0..n) of r: labels first, then events; those that cannot be
   written are counted as lost (-1). */
static NOINST int write_range(trace_rec * r, const word_t * w, size_t n,
                              int in_signal)
{
    size_t unwritten;
    if (write_labels(r) != 0)
        unwritten = advance_base(r, w, n);
    else
        unwritten = write_events(r, w, n);
    if (unwritten == 0)
    {
        file_has_events = 1;
        return 0;
    }
    r->lost += unwritten;
    __atomic_add_fetch(&lost_total, unwritten, __ATOMIC_RELAXED);
    if (!in_signal)
        warn_write_failed();
    return -1;
}

/* The buffer handed to the writer thread, if any (lock held): it comes
   before the current one. Its buffer is then the spare. */
static NOINST int write_pending(trace_rec * r, int in_signal)
{
    int rc;
    if (r->pending == NULL)
        return 0;
    rc = write_range(r, r->pending, r->pending_n, in_signal);
    r->spare = r->pending_buf;
    r->pending = NULL;
    return rc;
}

/* Write the record's unwritten events (lock held). Returns 0 or -1; events
   that could not be written are counted as lost. */
static NOINST int flush_locked(trace_rec * r, int in_signal)
{
    word_t * pos;
    size_t n;
    int rc = 0;

    if (r->tls == NULL)
        return 0;
    pos = __atomic_load_n(&r->tls->pos, __ATOMIC_ACQUIRE);
    if (pos < r->flushed || pos > r->buf + r->cap)
        return 0; /* not attached to this buffer (yet): nothing to write */
    n = (size_t) (pos - r->flushed);
    if (r->name_dirty && fd >= 0)
    {
        char name[NAME_BYTES];
        memcpy(name, r->name, NAME_BYTES);
        if (write_chunk(PROF_TF_THREAD, r->tid, name, NAME_BYTES) == 0)
            r->name_dirty = 0;
    }
    if (write_pending(r, in_signal) != 0)
        rc = -1;
    if (n > 0)
    {
        if (write_range(r, r->flushed, n, in_signal) != 0)
            rc = -1;
        r->flushed = pos;
    }
    if (r->lost > 0 && rc == 0 && fd >= 0)
    {
        uint64_t lost = r->lost;
        if (write_chunk(PROF_TF_LOST, r->tid, &lost, 8) == 0)
            r->lost = 0;
    }
    return rc;
}

static NOINST int flush_all_locked(int in_signal)
{
    trace_rec * r;
    int rc = 0;
    for (r = __atomic_load_n(&records, __ATOMIC_ACQUIRE); r != NULL; r = r->next)
        if (flush_locked(r, in_signal) != 0)
            rc = -1;
    return rc;
}

static NOINST void write_end(int sig)
{
    uint64_t end[3];
    end[0] = prof_impl_trace_ticks();
    end[1] = __atomic_load_n(&lost_total, __ATOMIC_RELAXED);
    end[2] = (uint64_t) (unsigned) sig;
    (void) write_chunk(PROF_TF_END, 0, end, sizeof end);
}

/* ---- exit, thread exit, signals, fork, exec ---------------------------------- */

static NOINST void at_exit(void)
{
    uint64_t lost;
    lock();
    (void) flush_all_locked(0);
    write_end(0);
    __atomic_store_n(&finished, 1, __ATOMIC_RELAXED);
    /* later events of this thread (other atexit handlers) go to the slow
       path, which writes them one by one */
    prof_impl_trace_tls.end = prof_impl_trace_tls.pos;
    unlock();
    lost = __atomic_load_n(&lost_total, __ATOMIC_RELAXED);
    if (lost > 0)
        prof_impl_warn("trace: %llu events lost (not written to %s)",
                       (unsigned long long) lost, shown_path());
}

static NOINST void thread_exit(void * arg)
{
    trace_rec * r = (trace_rec *) arg;
    lock();
    (void) flush_locked(r, 0);
    r->tls = NULL; /* free for the next thread */
    r->flushed = r->buf;
    unlock();
    my_rec = NULL;
    prof_impl_trace_tls.pos = prof_impl_trace_tls.end = NULL;
    prof_impl_trace_tls.cache = empty_cache;
}

/* The program's own action for sig, saved when ours was installed. */
static NOINST const struct sigaction * old_action(int sig)
{
    size_t i;
    for (i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
        if (fatal_signals[i] == sig)
            return &old_actions[i];
    return NULL;
}

/* 1 if action o is the default one (the signal ends the process). */
static NOINST int is_default(const struct sigaction * o)
{
    return (o->sa_flags & SA_SIGINFO) ? o->sa_sigaction == NULL
                                      : o->sa_handler == SIG_DFL;
}

/* Call the program's own handler o (not SIG_DFL or SIG_IGN), with this
   thread's events going to the slow path while it runs. */
static NOINST void call_handler(const struct sigaction * o, int sig,
                                siginfo_t * info, void * ctx)
{
    int outer = !in_handler;
    if (outer)
    {
        handler_saved_end = prof_impl_trace_tls.end;
        prof_impl_trace_tls.end = prof_impl_trace_tls.pos;
        handler_frame = __builtin_frame_address(0);
        in_handler = 1;
    }
    if (o->sa_flags & SA_SIGINFO)
        o->sa_sigaction(sig, info, ctx);
    else
        o->sa_handler(sig);
    if (outer)
    {
        prof_impl_trace_tls.end = handler_saved_end;
        in_handler = 0;
    }
}

/* 1 while the program's handler called by call_handler runs; a handler
   left by longjmp is noticed here (the stack is back above its frame) and
   recording goes on as before it. */
static NOINST int inside_handler(void)
{
    if (!in_handler)
        return 0;
    if ((char *) __builtin_frame_address(0) < (char *) handler_frame)
        return 1;
    prof_impl_trace_tls.end = handler_saved_end;
    in_handler = 0;
    return 0;
}

/* Write what was recorded, and the end record when the signal ends the
   process; the program's own handler may go on instead, so nothing may be
   torn or written twice: everything is written under the lock, and not at
   all when this thread holds it (the interrupted code is writing, and goes
   on when the handler returns). */
static NOINST void on_signal(int sig, siginfo_t * info, void * ctx)
{
    int saved = errno;
    const struct sigaction * o = old_action(sig);
    int dies = o == NULL || is_default(o);
    /* a fault or an abort ends the program even through its own handler
       (a sanitizer's, say); after SIGINT or SIGTERM a handler often goes
       on, and exit() writes the end record then (a later end record
       overrides an earlier one anyway) */
    int ends = dies || (sig != SIGINT && sig != SIGTERM);
    if (lock_from_signal())
    {
        (void) flush_all_locked(1);
        if (ends)
            write_end(sig);
        unlock();
    }
    errno = saved;
    if (o == NULL)
        return;
    if (dies)
    {
        /* the default action: die by this signal, as without us */
        sigaction(sig, o, NULL);
        raise(sig);
    }
    else
        call_handler(o, sig, info, ctx);
}

static NOINST void install_signals(void)
{
    const char * env = getenv("PROF_TRACE_SIGNALS");
    size_t i;
    if (env != NULL && strcmp(env, "0") == 0)
        return;
    for (i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; i++)
    {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_signal;
        sa.sa_flags = SA_SIGINFO;
        sigemptyset(&sa.sa_mask);
        if (sigaction(fatal_signals[i], NULL, &old_actions[i]) != 0)
            continue;
        if (!(old_actions[i].sa_flags & SA_SIGINFO)
            && old_actions[i].sa_handler == SIG_IGN)
            continue; /* the program ignores it: so do we */
        sigaction(fatal_signals[i], &sa, NULL);
    }
}

/* Registered at load time, so that a process forked before tracing
   started knows it (see choose_path). */
static NOINST void fork_prepare(void)
{
    while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 1)
        sched_yield(); /* another thread is starting: let it finish */
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 2)
    {
        lock();
        fork_locked = 1;
    }
}

static NOINST void fork_parent(void)
{
    if (fork_locked)
    {
        fork_locked = 0;
        unlock();
    }
}

/* The child shares the parent's file offset: give it its own file,
   <path>.<pid> (refused if that does not fit, never cut back to the
   parent's), and leave the parent's unwritten events to the parent. */
static NOINST void fork_child(void)
{
    trace_rec * r;
    char p[PATH_BYTES];
    int nfd = -1, e = 0;
    if (!fork_locked)
    {
        const char * env = getenv("PROF_TRACE_FILE");
        forked_before_start = 1;
        snprintf(env_at_fork, sizeof env_at_fork, "%s", env != NULL ? env : "");
        return;
    }
    fork_locked = 0;
    for (r = records; r != NULL; r = r->next)
    {
        if (r == my_rec)
        {
            if (r->pending != NULL)
                (void) advance_base(r, r->pending, r->pending_n);
            (void) advance_base(r, r->flushed, (size_t) (r->tls->pos - r->flushed));
            r->flushed = r->tls->pos;
        }
        else
        {
            r->tls = NULL;
            r->flushed = r->buf;
        }
        if (r->pending != NULL) /* the parent's to write */
            r->spare = r->pending_buf, r->pending = NULL;
    }
    __atomic_store_n(&lost_total, 0, __ATOMIC_RELAXED);
    writer_state = 0; /* not in the child: started again when needed */
    writer_work = 0;
    pthread_mutex_init(&writer_mutex, NULL);
    pthread_cond_init(&writer_cond, NULL);
    if (my_rec != NULL)
        my_rec->tid = (uint32_t) getpid(), my_rec->name_dirty = 1;
    if (fd >= 0)
        close(fd); /* the parent's: neither written nor removed here */
    fd = -1;
    if (file_path[0] == '\0'
        || path_fits(snprintf(p, sizeof p, "%s.%ld", file_path, (long) getpid())) != 0)
        p[0] = '\0', e = ENAMETOOLONG;
    else if ((nfd = create_file(p)) < 0)
        prof_impl_warn("trace: cannot open %s for writing: %s; events are "
                       "counted as lost", p, strerror(e = errno));
    switch_file(nfd, p);
    file_errno = e;
    unlock();
}

__attribute__((constructor)) static NOINST void register_fork(void)
{
    pthread_atfork(fork_prepare, fork_parent, fork_child);
}

/* exec replaces the process image: nothing runs at exit. Write every
   buffer and the end record now (src/trace_exec.c calls this before each
   function of the exec family). Nothing when tracing is off, or when this
   thread is inside the recorder (exec from a signal handler). */
NOINST void prof_impl_trace_before_exec(void)
{
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != 2 || holds_lock
        || in_slow_path)
        return;
    lock();
    (void) flush_all_locked(0);
    write_end(0);
    unlock();
}

/* ---- start ------------------------------------------------------------------ */

/* A whole number of KiB in lo..hi from environment variable name, or def
   (with a message when it is set to anything else). */
static NOINST size_t env_kib(const char * name, long lo, long hi, long def)
{
    const char * env = getenv(name);
    char * end;
    long v;
    if (env == NULL || env[0] == '\0')
        return (size_t) def;
    errno = 0;
    v = strtol(env, &end, 10);
    if (env[0] < '0' || env[0] > '9' || errno != 0 || *end != '\0' || v < lo
        || v > hi)
    {
        prof_impl_warn("trace: %s=%s is not a whole number of KiB in %ld..%ld; "
                       "using %ld", name, env, lo, hi, def);
        return (size_t) def;
    }
    return (size_t) v;
}

/* PROF_TRACE_BUFFER_KB (at most 2 GiB: a full buffer is written as one
   chunk, whose size field is 32 bits) and PROF_TRACE_MEMORY_KB. A buffer
   that does not fit under the memory cap is made to fit, and said so. */
static NOINST void read_settings(void)
{
    size_t kb = env_kib("PROF_TRACE_BUFFER_KB", 4, 1L << 21, 1024);
    const char * cap_env = getenv("PROF_TRACE_MEMORY_KB");
    memory_cap = env_kib("PROF_TRACE_MEMORY_KB", 4, 1L << 30, 262144) * 1024;
    if (kb * 1024 + sizeof(trace_rec) > memory_cap)
    {
        size_t fit = memory_cap > sizeof(trace_rec) + 4096
                     ? (memory_cap - sizeof(trace_rec)) / 1024 : 4;
        prof_impl_warn("trace: PROF_TRACE_BUFFER_KB=%zu is more than the memory "
                       "cap of all buffers, PROF_TRACE_MEMORY_KB=%zu%s: buffers "
                       "of %zu KiB (later threads get 4 KiB ones)", kb,
                       memory_cap / 1024, cap_env != NULL && cap_env[0] != '\0'
                       ? "" : " (the default)", fit);
        kb = fit;
    }
    buffer_events = kb * 1024 / sizeof(word_t);
    {
        const char * w = getenv("PROF_TRACE_WRITER");
        use_writer = !(w != NULL && strcmp(w, "0") == 0);
    }
}

/* Start tracing to path (once). Returns 0 or -1 (the file cannot be
   written) when this call started it, 1 when it was already running. */
static NOINST int start(const char * path)
{
    int expected = 0, rc = 0;
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == 2)
        return 1;
    if (!__atomic_compare_exchange_n(&state, &expected, 1, 0,
                                     __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    {
        while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != 2)
            sched_yield();
        return 1;
    }
    read_settings();
    tick_rate = prof_tick_rate();
    start_ticks = prof_impl_trace_ticks();
    if (open_file(path) != 0)
        rc = -1;
    pthread_key_create(&thread_key, thread_exit);
    atexit(at_exit);
    install_signals();
    __atomic_store_n(&state, 2, __ATOMIC_RELEASE);
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
    size_t cap = buffer_events;
    if (memory_used + sizeof *r + cap * sizeof *r->buf > memory_cap
        && cap > MIN_EVENTS)
    {
        cap = MIN_EVENTS;
        if (!warned)
        {
            warned = 1;
            prof_impl_warn("trace: event buffers reached %zu KiB "
                           "(PROF_TRACE_MEMORY_KB): new threads get %zu "
                           "KiB buffers, written more often", memory_cap
                           / 1024, (size_t) MIN_EVENTS * sizeof *r->buf / 1024);
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
    memory_used += sizeof *r + cap * sizeof *r->buf;
    r->next = records;
    __atomic_store_n(&records, r, __ATOMIC_RELEASE);
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

/* Give the calling thread a record and a buffer. NULL if out of memory. */
static NOINST trace_rec * attach(void)
{
    trace_rec * r, * best = NULL;
    lock();
    for (r = records; r != NULL; r = r->next) /* the largest free record */
        if (r->tls == NULL && (best == NULL || r->cap > best->cap))
            best = r;
    r = best != NULL ? best : new_record();
    if (r == NULL)
    {
        unlock();
        return NULL;
    }
    reset_ids(r);
    r->flushed = r->buf;
    r->base61 = 0; /* deltas count from 0 until the first SYNC */
    r->tid = thread_id();
    memset(r->name, 0, sizeof r->name);
#if defined(__GLIBC__)
    pthread_getname_np(pthread_self(), r->name, sizeof r->name);
#endif
    r->name_dirty = r->name[0] != '\0';
    prof_impl_trace_tls.pos = r->buf;
    prof_impl_trace_tls.end = r->buf + r->cap;
    prof_impl_trace_tls.last = 0;
    prof_impl_trace_tls.cache = r->cache;
    r->tls = &prof_impl_trace_tls;
    unlock();
    my_rec = r;
    pthread_setspecific(thread_key, r);
    return r;
}

static NOINST void count_lost(uint64_t n, const char * why)
{
    static int warned;
    __atomic_add_fetch(&lost_total, n, __ATOMIC_RELAXED);
    if (!__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
        prof_impl_warn("trace: %s; such events are counted as lost", why);
}

static NOINST size_t key_slot(uint64_t k, size_t cap)
{
    return (size_t) ((k * UINT64_C(0x9e3779b97f4a7c15)) >> 32) & (cap - 1);
}

/* Double the owner's map key -> id + 1. 0 or -1. */
static NOINST int grow_map(trace_rec * r)
{
    size_t cap = r->mcap ? r->mcap * 2 : 256, i;
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

/* A new id for key (class cls) of r, under the lock (the writer reads the
   table). -1 if out of memory or of ids. */
static NOINST long new_id(trace_rec * r, uint64_t key, unsigned cls)
{
    long id = -1;
    lock();
    if (r->nids < ((size_t) 1 << PROF_TF_ID_BITS)
        && prof_impl_grow(&r->ids, &r->idcap, r->nids + 1, sizeof *r->ids) == 0
        && prof_impl_grow(&r->cls, &r->clscap, r->nids + 1, 1) == 0)
    {
        r->ids[r->nids] = key;
        r->cls[r->nids] = (unsigned char) cls;
        id = (long) r->nids++;
    }
    unlock();
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
    size_t h = (size_t) ((((uint64_t) (size_t) key) * UINT64_C(0x9e3779b97f4a7c15)) >> 56) & ~(size_t) 1;
    prof_impl_trace_slot_t * c = r->cache + h;
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
        pthread_mutex_lock(&writer_mutex);
        while (!writer_work)
            pthread_cond_wait(&writer_cond, &writer_mutex);
        writer_work = 0;
        pthread_mutex_unlock(&writer_mutex);
        lock();
        for (r = records; r != NULL; r = r->next)
            (void) write_pending(r, 0);
        unlock();
    }
    return NULL;
}

static NOINST void wake_writer(void)
{
    pthread_mutex_lock(&writer_mutex);
    writer_work = 1;
    pthread_cond_signal(&writer_cond);
    pthread_mutex_unlock(&writer_mutex);
}

/* 1 if the writer thread runs (started now if need be; lock held). */
static NOINST int writer_running(void)
{
    pthread_t th;
    pthread_attr_t a;
    if (writer_state != 0)
        return writer_state > 0;
    writer_state = -1;
    if (pthread_attr_init(&a) != 0)
        return 0;
    pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&th, &a, writer_main, NULL) == 0)
        writer_state = 1;
    pthread_attr_destroy(&a);
    return writer_state > 0;
}

/* A second buffer for r, within the memory cap (lock held). */
static NOINST word_t * new_spare(trace_rec * r)
{
    word_t * b;
    if (memory_used + r->cap * sizeof *b > memory_cap)
        return NULL;
    b = (word_t *) malloc(r->cap * sizeof *b);
    if (b != NULL)
    {
        touch_pages(b, r->cap * sizeof *b);
        memory_used += r->cap * sizeof *b;
    }
    return b;
}

/* Hand r's full buffer to the writer thread and go on in the spare one
   (lock held). 0 if it cannot (no writer, no spare, one still waiting). */
static NOINST int hand_off(trace_rec * r)
{
    word_t * full = r->buf;
    if (!use_writer || r->pending != NULL || r->cap < 4096
        || (r->spare == NULL && (r->spare = new_spare(r)) == NULL)
        || !writer_running())
        return 0;
    handed_off++;
    r->pending = r->flushed;
    r->pending_n = (size_t) (prof_impl_trace_tls.pos - r->flushed);
    r->pending_buf = full;
    r->buf = r->spare;
    r->spare = NULL;
    r->flushed = r->buf;
    prof_impl_trace_tls.end = r->buf + r->cap;
    __atomic_store_n(&prof_impl_trace_tls.pos, r->buf, __ATOMIC_RELEASE);
    return 1;
}

/* Room for two words (a SYNC and an event) in r's buffer: a full buffer
   goes to the writer thread, or is written here (always, after the
   exit-time flush). 1 if this thread wrote. */
static NOINST int make_room(trace_rec * r)
{
    int handed;
    if (prof_impl_trace_tls.pos + 2 <= r->buf + r->cap
        && !__atomic_load_n(&finished, __ATOMIC_RELAXED))
        return 0;
    lock();
    handed = !__atomic_load_n(&finished, __ATOMIC_RELAXED) && hand_off(r);
    if (!handed)
    {
        (void) flush_locked(r, 0);
        r->flushed = r->buf;
        prof_impl_trace_tls.pos = r->buf;
    }
    unlock();
    if (handed)
        wake_writer();
    return !handed;
}

/* The event's word (after a SYNC word if the gap is too long for it). */
static NOINST void append(unsigned type, long id, unsigned long long t)
{
    word_t * p = prof_impl_trace_tls.pos;
    unsigned long long d = t - prof_impl_trace_tls.last;
    if (d >> PROF_TF_DELTA_BITS)
    {
        *p++ = (t & PROF_TF_TICK_MASK) << 3 | PROF_TF_EV_SYNC;
        d = 0;
    }
    *p = d << 24 | (unsigned long long) id << 3 | type;
    prof_impl_trace_tls.last = t;
    __atomic_store_n(&prof_impl_trace_tls.pos, p + 1, __ATOMIC_RELEASE);
}

/* The fast path found the buffer full, the key not in its cache, a long
   gap, or the thread new: make room, then record the event. */
NOINST void prof_impl_trace_slow(unsigned type, const void * key,
                                 unsigned long long t)
{
    int saved = errno;
    trace_rec * r;
    long id;
    if (in_slow_path || holds_lock || inside_handler())
    {
        /* re-entered (a signal handler that records, interrupting this
           thread's flush): taking the lock again would deadlock */
        __atomic_add_fetch(&lost_total, 1, __ATOMIC_RELAXED);
        return;
    }
    in_slow_path = 1;
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != 2)
    {
        start(NULL);
        t = prof_impl_trace_ticks(); /* after the start, which took a while */
    }
    if ((r = my_rec) == NULL && (r = attach()) == NULL)
        count_lost(1, "out of memory for a thread's event buffer");
    else if ((id = intern(r, key, type)) < 0)
        count_lost(1, "out of memory for label numbers, or more than 2^21 "
                   "labels in a thread");
    else
    {
        cache_put(r, key, id);
        /* A begin (even type) is stamped again after a write, an end keeps
           its stamp from before: the write's time falls between zones. */
        if (make_room(r) && type % 2 == 0)
            t = prof_impl_trace_ticks();
        append(type, id, t);
        if (__atomic_load_n(&finished, __ATOMIC_RELAXED))
        {
            /* after the exit-time flush: write it now, nobody will later */
            lock();
            (void) flush_locked(r, 0);
            unlock();
            prof_impl_trace_tls.end = prof_impl_trace_tls.pos;
        }
    }
    in_slow_path = 0;
    errno = saved;
}

/* ---- API -------------------------------------------------------------------- */

int prof_trace_open(const char * path)
{
    int rc = start(path);
    if (rc != 1)
        return rc; /* this call started tracing, with path */
    /* running: events not yet written go to the new file */
    lock();
    rc = open_file(path);
    unlock();
    return rc;
}

/* After a flush by the owner thread (lock held): start its buffer again if
   all of it was written, so that a signal handler that records while this
   thread holds the lock finds room. The compare-and-swap fails if such a
   handler has just recorded: then the buffer is left as it is. */
static NOINST void rewind_own(void)
{
    trace_rec * r = my_rec;
    word_t * pos;
    if (r == NULL || r->tls == NULL || __atomic_load_n(&finished, __ATOMIC_RELAXED))
        return;
    pos = r->flushed;
    if (pos != r->buf && __atomic_compare_exchange_n(&prof_impl_trace_tls.pos,
            &pos, r->buf, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
        r->flushed = r->buf;
}

int prof_trace_flush(void)
{
    int rc;
    if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != 2)
        return 0;
    lock();
    rc = flush_all_locked(0);
    rewind_own();
    unlock();
    return rc;
}

void prof_trace_thread_name(const char * name)
{
    trace_rec * r;
    if (name == NULL || name[0] == '\0')
        return;
    if (start(NULL), (r = my_rec) == NULL && (r = attach()) == NULL)
        return;
    lock();
    memset(r->name, 0, sizeof r->name);
    strncpy(r->name, name, sizeof r->name - 1);
    r->name_dirty = 1;
    unlock();
}

unsigned long prof_impl_trace_writer_buffers(void)
{
    unsigned long n;
    lock();
    n = handed_off;
    unlock();
    return n;
}

unsigned long long prof_trace_lost(void)
{
    return __atomic_load_n(&lost_total, __ATOMIC_RELAXED);
}

#else
typedef int prof_impl_trace_posix_only; /* ISO C: no empty translation unit */
#endif /* !_WIN32 */
