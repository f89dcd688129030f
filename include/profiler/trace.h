/*
    profiler/trace.h -- tracing: the markers (PROF_ZONE, ...), annotations,
    locks and allocations, prof_trace_*, sampling.

    A part of profiler.h, which includes it: include profiler.h, or
    this header alone (it brings profiler.h in, which includes it in
    its place). Names that start with prof_impl_ / PROF_IMPL_ are
    internals and may change in any release.

    SPDX-License-Identifier: MIT
*/

#if !defined(PROFILER_H)
# include "../profiler.h"
#elif !defined(PROFILER_TRACE_H)
#define PROFILER_TRACE_H

/* ==== Tracing ============================================================ */

/* Instrumentation tracing: mark zones of code; each begin and end is one
   8-byte event (counter ticks since the thread's previous event and the
   thread's number for the label) appended to a per-thread buffer, with no
   lock and no system call; full buffers go (through a writer thread) to a
   raw trace file that the prof-trace tool turns into a per-zone summary
   (text, CSV), raw event lines, Chrome JSON or Perfetto's own format. The markers compile to nothing unless
   PROFILE or PROF_TRACE is defined before this header is included (gcc and
   clang). Labels are recorded by address and read when the buffer is
   written: give string literals (or strings that live until exit).

   Output file: the path given to prof_trace_open, else the environment
   variable PROF_TRACE_FILE, else "prof-trace.<pid>.ptrace" in the current
   directory; a path longer than 4095 bytes is refused (never cut). A child
   forked after tracing started, or forked before with PROF_TRACE_FILE
   already set, writes "<path>.<pid>", as does a worker process of the
   runner (prof_bench_set_processes). Events are written when a thread's
   buffer is full (PROF_TRACE_BUFFER_KB, default 1024 KiB per thread,
   4..2097152, at most the memory cap; all buffers stay under
   PROF_TRACE_MEMORY_KB, default 256 MiB, past which new threads get 2 KiB
   buffers of 256 events), at prof_trace_flush, at thread exit, at exit() / return from
   main, before an exec called from code compiled with tracing on (Linux:
   there the exec family's names are the recorder's), and on SIGSEGV,
   SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGINT and SIGTERM (PROF_TRACE_SIGNALS=0
   turns the handlers off). Events that cannot be written are counted,
   never dropped silently: prof_trace_lost and a profiler: message at exit.
   Events recorded inside a program's own handler for one of those signals
   are counted as lost. A program built with -finstrument-functions and
   linked with libprofiler.a is traced at every function entry and exit,
   with no source change.
   On Windows nothing is recorded: the API and markers compile and link,
   every event counts as lost (prof_trace_lost), and the first use says so. */

/* Start (or move) the trace output to path; NULL means PROF_TRACE_FILE or
   the default. Events not yet written go to the new file (a previous file
   that got no event is removed, so a zone begun before the call is kept
   whole); the file being written, named again, is kept and appended to,
   and so is one this process moved away from earlier (A, B, then A).
   Returns 0, or -1 with a profiler: message when path cannot be opened or
   written: the current file, if any, is then kept; with none, events are
   counted as lost. Also -1 when tracing is off: the recorder could not
   register its thread-exit, exit or fork handlers (said once; every
   event counts as lost). Tracing starts by itself at the first event:
   calling this is optional. */
int prof_trace_open(const char * path);
/* Write every thread's recorded events to the file now. Returns 0, or -1 if
   some could not be written (they are counted in prof_trace_lost). Called
   from a signal handler that interrupted the recorder on the same thread
   (its own write, which holds the recorder's lock), it returns -1 at once:
   the events stay in their buffers and are written later. */
int prof_trace_flush(void);
/* Name the calling thread in the trace (copied, at most 31 bytes kept);
   NULL or "" is ignored, as is a call from a signal handler that
   interrupted the recorder on the same thread. */
void prof_trace_thread_name(const char * name);
/* Number of events recorded but not written (unwritable file, full disk). */
unsigned long long prof_trace_lost(void);

/* Sampling (Linux): where the time goes without markers. prof_sample_start
   samples the calling thread and every thread it creates afterwards at hz
   samples a second of CPU time (0: PROF_SAMPLE_HZ, else 997; at most
   10000), through perf events on the task clock with the kernel's user
   call chains (whole with -fno-omit-frame-pointer), into the trace file
   beside the zones (it starts tracing if needed). Threads that exist
   already are not sampled (said once): call it at the top of main.
   Returns 0, or -1 with a profiler: message naming the cause and the
   setting to change when perf events are refused (perf_event_paranoid,
   seccomp, CAP_PERFMON, qemu-user) or the arguments are wrong; zones are
   recorded either way. prof_sample_stop (also run at exit) writes the
   counts: samples, lost, truncated chains and CPU time, from which
   prof-trace gives the rate achieved. Linked only into programs that call
   them. */
int prof_sample_start(double hz);
void prof_sample_stop(void);

/* The markers follow one rule, with tracing on or off, so that a source
   compiles (or fails) alike in both modes: PROF_ZONE and PROF_FUNC are
   declarations, to be put where a declaration may stand (inside a block,
   two on a line too; not as the body of an if, for or while without braces,
   and before C23 not right after a label: write "case 1: { PROF_ZONE(...);
   ... }"); the other four are void expressions, statements anywhere.
   Compiled out, a marker still checks its label's type as it would when
   compiled in, unevaluated: it adds no code and no symbol. */
#if defined(__GNUC__) && (defined(PROFILE) || defined(PROF_TRACE))
/* 1 when the markers record, undefined when they compile to nothing. */
# define PROF_TRACE_ENABLED 1
/* Begin / end a zone named by the string literal label (NULL is shown as
   "(null)"). An end whose label is not the innermost open zone's, a begin
   never ended and an end never begun are reported by prof-trace and flagged
   in its reports, not fixed. */
# define PROF_ZONE_BEGIN(label) prof_impl_trace_rec(PROF_IMPL_EV_BEGIN, (label))
# define PROF_ZONE_END(label) prof_impl_trace_rec(PROF_IMPL_EV_END, (label))
/* Begin / end a zone named after the enclosing function (__func__). */
# define PROF_FUNC_BEGIN() prof_impl_trace_rec(PROF_IMPL_EV_FBEGIN, __func__)
# define PROF_FUNC_END() prof_impl_trace_rec(PROF_IMPL_EV_FEND, __func__)
/* A zone from here to the end of the enclosing block (every exit: return,
   break, goto), through the cleanup attribute. */
# define PROF_ZONE(label) \
    const char * const PROF_IMPL_UNIQUE(prof_impl_zone_) \
    __attribute__((cleanup(prof_impl_zone_cleanup), unused)) = \
        prof_impl_begin(PROF_IMPL_EV_BEGIN, (label))
/* PROF_ZONE named after the enclosing function: put it first in the body. */
# define PROF_FUNC() \
    const char * const PROF_IMPL_UNIQUE(prof_impl_func_) \
    __attribute__((cleanup(prof_impl_func_cleanup), unused)) = \
        prof_impl_begin(PROF_IMPL_EV_FBEGIN, __func__)
/* Annotations (void expressions, statements anywhere), each one record
   in the thread's buffer, about a zone's cost (doc/tracing.md).
   PROF_ZONE_VALUE: an integer (as long long) on the innermost open zone,
   PROF_ZONE_VALUE_F a double; PROF_ZONE_TEXT: the first len bytes of s
   (cut at a zero byte and at 4 KiB) on it. PROF_MESSAGE: the string s
   (cut at 4 KiB) as a line on the thread's timeline. PROF_PLOT: the value
   v (a double) of the quantity name (a string literal) now. PROF_FRAME_MARK:
   a frame ends (of "frame"; _NAMED: of name, a string literal). Strings
   are copied; NULL is recorded as "(null)". */
# define PROF_ZONE_VALUE(n) prof_impl_trace_ext_rec(PROF_IMPL_EXT_ZONE_VALUE, \
    NULL, 2, PROF_IMPL_VALUE_INT, (unsigned long long) (long long) (n))
# define PROF_ZONE_VALUE_F(x) prof_impl_trace_ext_rec(PROF_IMPL_EXT_ZONE_VALUE, \
    NULL, 2, PROF_IMPL_VALUE_DOUBLE, prof_impl_double_bits((double) (x)))
# define PROF_ZONE_TEXT(s, len) prof_impl_trace_zone_text((s), (size_t) (len))
# define PROF_MESSAGE(s) prof_impl_trace_message(s)
# define PROF_PLOT(name, v) prof_impl_trace_ext_rec(PROF_IMPL_EXT_PLOT, \
    prof_impl_name(name), 1, prof_impl_double_bits((double) (v)), 0)
# define PROF_FRAME_MARK() \
    prof_impl_trace_ext_rec(PROF_IMPL_EXT_FRAME, "frame", 0, 0, 0)
# define PROF_FRAME_MARK_NAMED(name) \
    prof_impl_trace_ext_rec(PROF_IMPL_EXT_FRAME, prof_impl_name(name), 0, 0, 0)
/* Locks and allocations (void expressions, statements anywhere), each one
   record in the thread's buffer (doc/tracing.md). lock is any address
   that stands for a lock. PROF_LOCK_WAIT: the thread starts waiting for
   it; PROF_LOCK_ACQUIRED: the thread holds it; PROF_LOCK_RELEASED: it lets
   it go. PROF_LOCK_NAME names it (name: a string that lives until exit, as
   a label; 512 locks at most), else it is shown as "lock" and its address.
   prof_mutex_lock / prof_mutex_unlock: pthread_mutex_lock / _unlock of a
   pthread_mutex_t * (include <pthread.h>), recorded: a mutex taken at once
   (pthread_mutex_trylock) costs one record, a wait one more; they return
   what pthread's functions return. PROF_ALLOC: the program's own
   allocator gave ptr, of size bytes; PROF_FREE: ptr was freed (NULL: none).
   libprofiler-alloc.a records malloc and free themselves. */
# define PROF_LOCK_WAIT(lock) prof_impl_trace_lock_wait(lock)
# define PROF_LOCK_ACQUIRED(lock) prof_impl_trace_lock_acquired(lock)
# define PROF_LOCK_RELEASED(lock) prof_impl_trace_lock_released(lock)
# define PROF_LOCK_NAME(lock, name) prof_impl_trace_lock_name((lock), (name))
# if !defined(_WIN32) /* Windows records nothing (prof_mutex_lock: below) */
#  define prof_mutex_lock(m) \
    prof_impl_mutex_lock(((void) sizeof(pthread_mutex_lock(m)), (m)))
#  define prof_mutex_unlock(m) \
    prof_impl_mutex_unlock(((void) sizeof(pthread_mutex_unlock(m)), (m)))
# endif
# define PROF_ALLOC(ptr, size) prof_impl_trace_alloc((ptr), (size_t) (size))
# define PROF_FREE(ptr) prof_impl_trace_free(ptr)
#else
# define PROF_LOCK_WAIT(lock) ((void) sizeof(prof_impl_check_key(lock)))
# define PROF_LOCK_ACQUIRED(lock) ((void) sizeof(prof_impl_check_key(lock)))
# define PROF_LOCK_RELEASED(lock) ((void) sizeof(prof_impl_check_key(lock)))
# define PROF_LOCK_NAME(lock, name) \
    ((void) sizeof(prof_impl_check_lock_name((lock), (name))))
# define PROF_ALLOC(ptr, size) \
    ((void) sizeof(prof_impl_check_alloc((ptr), (size_t) (size))))
# define PROF_FREE(ptr) ((void) sizeof(prof_impl_check_key(ptr)))
# define PROF_ZONE_VALUE(n) ((void) sizeof((long long) (n)))
# define PROF_ZONE_VALUE_F(x) ((void) sizeof((double) (x)))
# define PROF_ZONE_TEXT(s, len) \
    ((void) sizeof(prof_impl_check_text((s), (size_t) (len))))
# define PROF_MESSAGE(s) ((void) sizeof(prof_impl_check_label(s)))
# define PROF_PLOT(name, v) \
    ((void) sizeof(prof_impl_check_plot((name), (double) (v))))
# define PROF_FRAME_MARK() ((void) 0)
# define PROF_FRAME_MARK_NAMED(name) ((void) sizeof(prof_impl_check_label(name)))
# define PROF_ZONE_BEGIN(label) ((void) sizeof(prof_impl_check_key(label)))
# define PROF_ZONE_END(label) ((void) sizeof(prof_impl_check_key(label)))
# define PROF_FUNC_BEGIN() ((void) sizeof(prof_impl_check_key(__func__)))
# define PROF_FUNC_END() ((void) sizeof(prof_impl_check_key(__func__)))
# define PROF_ZONE(label) enum { PROF_IMPL_UNIQUE(prof_impl_zone_) \
    = sizeof(prof_impl_check_label(label)) }
# define PROF_FUNC() enum { PROF_IMPL_UNIQUE(prof_impl_func_) \
    = sizeof(prof_impl_check_label(__func__)) }
#endif
#if !defined(prof_mutex_lock) /* tracing off, or Windows */
# define prof_mutex_lock(m) pthread_mutex_lock(m)
# define prof_mutex_unlock(m) pthread_mutex_unlock(m)
#endif

/* ==== Internals of the recorder ========================================== */

/* ---- the trace recorder ------------------------------------------------- */

#define PROF_IMPL_CAT2(a, b) a##b
#define PROF_IMPL_CAT(a, b) PROF_IMPL_CAT2(a, b)
/* A name of its own for each marker's variable: prefix and a number that
   __COUNTER__ gives each use (so that two zones on one line compile);
   where there is none, the line's. */
#if defined(__COUNTER__)
# define PROF_IMPL_UNIQUE(prefix) PROF_IMPL_CAT(prefix, __COUNTER__)
#else
# define PROF_IMPL_UNIQUE(prefix) PROF_IMPL_CAT(prefix, __LINE__)
#endif
/* Declared, never defined: the markers compiled out pass their label to
   these inside sizeof (unevaluated), so that it is checked as the markers
   compiled in check it (a pointer for the fast path, a string for the
   zones' cleanup). */
int prof_impl_check_key(const void * key);
int prof_impl_check_label(const char * label);
int prof_impl_check_text(const char * s, size_t len);
int prof_impl_check_plot(const char * name, double v);
int prof_impl_check_lock_name(const void * lock, const char * name);
int prof_impl_check_alloc(const void * ptr, size_t size);

/* The event layout and the recorder's fast path used by the markers. An
   event is one 8-byte word in the thread's buffer
   (src/trace/trace_format.h, version 2):
       ticks since the thread's previous event << 24 | id << 3 | type
   where id is the thread's number for the label (or function address),
   found in a small per-thread cache; a cache miss, a full buffer or a gap of
   2^40 ticks takes the slow path. The library's sources see it through
   PROF_IMPL_TRACE_INTERNAL. The instrumentation hooks' types (4, 5) and
   the time word's (6) are in trace_format.h. */
#define PROF_IMPL_EV_BEGIN 0u  /* zone begin, id = label */
#define PROF_IMPL_EV_END 1u    /* zone end, id = label */
#define PROF_IMPL_EV_FBEGIN 2u /* function begin, id = __func__ */
#define PROF_IMPL_EV_FEND 3u   /* function end, id = __func__ */
#if defined(__GNUC__) && (defined(PROFILE) || defined(PROF_TRACE) \
        || defined(PROF_IMPL_TRACE_INTERNAL))
#define PROF_IMPL_TRACE_SLOTS 256 /* cache entries, in pairs */
/* The first of key's pair of cache slots: the top 8 bits (256 slots) of a
   multiplicative hash of its address, made even. The fast path and the
   slow path's cache_put (src/trace/trace.c) both use it. */
#define PROF_IMPL_TRACE_PAIR(key) ((size_t) \
    ((((unsigned long long) (size_t) (key) * 0x9e3779b97f4a7c15ull) >> 56) & ~1ull))
typedef struct
{
    const void * key;        /* label or function address */
    unsigned long long tag;  /* its id << 3 */
} prof_impl_trace_slot;
PROF_IMPL_COLD void prof_impl_trace_slow(unsigned type, const void * key,
        unsigned long long ticks);
/* Extension records (src/trace/trace_annot.c): the one writer, kind (and
   the label id of name, if not NULL), n words w, the string s (at most len
   bytes, cut at 4 KiB; NULL: none); and the annotations' entry points. */
PROF_IMPL_COLD void prof_impl_trace_ext(unsigned kind, const char * name,
        const unsigned long long * w, size_t n, const char * s, size_t len);
PROF_IMPL_COLD void prof_impl_trace_zone_text(const char * s, size_t len);
PROF_IMPL_COLD void prof_impl_trace_message(const char * s);
/* Kinds and value tags of src/trace/trace_format.h (checked equal in
   trace_annot.c) that the inline path writes. */
#define PROF_IMPL_EXT_ZONE_VALUE 1u
#define PROF_IMPL_EXT_PLOT 4u
#define PROF_IMPL_EXT_FRAME 5u
#define PROF_IMPL_VALUE_INT 0u
#define PROF_IMPL_VALUE_DOUBLE 1u
/* Locks and allocations (src/trace/trace_lock.c). */
PROF_IMPL_COLD void prof_impl_trace_lock_wait(const void * lock);
PROF_IMPL_COLD void prof_impl_trace_lock_acquired(const void * lock);
PROF_IMPL_COLD void prof_impl_trace_lock_released(const void * lock);
PROF_IMPL_COLD void prof_impl_trace_lock_name(const void * lock, const char * name);
int prof_impl_mutex_lock(void * mutex);
int prof_impl_mutex_unlock(void * mutex);
PROF_IMPL_COLD PROF_IMPL_ADDRESS_ONLY(1)
void prof_impl_trace_alloc(const void * ptr, size_t size);
PROF_IMPL_COLD PROF_IMPL_ADDRESS_ONLY(1) void prof_impl_trace_free(const void * ptr);

/* Where a thread records: the free part [pos, end) of one of its buffers
   and the ticks of the last event recorded there. A marker loads the place,
   then stores pos (and last) back into it; a signal handler that records
   in between may move the thread to another place (a full buffer), and the
   interrupted marker's late store then lands in the place left, which
   stays inside its own buffer: a place never changes buffers, and a thread
   never goes back to the place it just left (src/trace/trace_impl.h). */
typedef struct
{
    unsigned long long * pos, * end;
    unsigned long long last;
} prof_impl_trace_place;

/* What the fast path reads, per thread. */
typedef struct
{
    prof_impl_trace_place * cur;   /* pos == end: the slow path */
    const prof_impl_trace_slot * cache; /* PROF_IMPL_TRACE_SLOTS entries */
} prof_impl_trace_fast;
/* initial-exec: one %fs-relative access, also from position-independent
   code (no __tls_get_addr call on the fast path) */
extern __thread prof_impl_trace_fast prof_impl_trace_tls
    __attribute__((tls_model("initial-exec")));

/* Append one event to the calling thread's buffer: the cache pair of key
   (a multiplicative hash), then one word. */
PROF_IMPL_INLINE void prof_impl_trace_rec(unsigned type, const void * key)
{
    unsigned long long t = prof_impl_ticks();
    prof_impl_trace_place * c = prof_impl_trace_tls.cur;
    unsigned long long * p = __atomic_load_n(&c->pos, __ATOMIC_RELAXED);
    const prof_impl_trace_slot * s = prof_impl_trace_tls.cache
        + PROF_IMPL_TRACE_PAIR(key);
    unsigned long long d, tag;
    int miss;
    s = s->key == key ? s : s + 1;
    miss = s->key != key;
    tag = s->tag;
    /* pos before last: a signal handler that records in between raises
       last, so d wraps and the slow path takes the event (compiler-only
       fences, no instruction: the handler runs on this thread) */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    d = t - c->last;
    if (__builtin_expect(miss | (p == c->end) | ((d >> 40) != 0), 0))
    {
        prof_impl_trace_slow(type, key, t);
        return;
    }
    /* last before the word: a handler that records in between writes over
       this event, with its delta from t, never ahead of the time the next
       event counts from */
    __atomic_store_n(&c->last, t, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    *p = d << 24 | tag | type;
    /* release: a flush from another thread (exit, signal) reads up to pos */
    __atomic_store_n(&c->pos, p + 1, __ATOMIC_RELEASE);
}

PROF_IMPL_INLINE unsigned long long prof_impl_double_bits(double v)
{
    unsigned long long b;
    __builtin_memcpy(&b, &v, sizeof b);
    return b;
}
/* A name for a plot or frame: NULL is "(null)", as a NULL label. */
PROF_IMPL_INLINE const char * prof_impl_name(const char * name)
{
    return name != NULL ? name : "(null)";
}

/* An extension record (src/trace/trace_format.h) of kind inline, as the
   fast path writes an event: the extension word, the id of name (not
   NULL: looked up in the markers' cache) and n <= 2 words w0, w1; a miss,
   a buffer without room or a long gap takes prof_impl_trace_ext. */
PROF_IMPL_INLINE void prof_impl_trace_ext_rec(unsigned kind, const char * name,
        unsigned n, unsigned long long w0, unsigned long long w1)
{
    unsigned long long t = prof_impl_ticks();
    prof_impl_trace_place * c = prof_impl_trace_tls.cur;
    unsigned long long * p = __atomic_load_n(&c->pos, __ATOMIC_RELAXED);
    unsigned long long d, tag = 0;
    unsigned words = (name != NULL) + n, k = 0;
    int miss = 0;
    if (name != NULL)
    {
        const prof_impl_trace_slot * s = prof_impl_trace_tls.cache
            + PROF_IMPL_TRACE_PAIR(name);
        s = s->key == name ? s : s + 1;
        miss = s->key != name;
        tag = s->tag;
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST); /* as in prof_impl_trace_rec */
    d = t - c->last;
    /* the closed place's pos and end are NULL: no room, no subtraction */
    if (__builtin_expect(miss | (p == c->end || (size_t) (c->end - p) <= words)
                         | ((d >> 40) != 0), 0))
    {
        unsigned long long w[2];
        w[0] = w0;
        w[1] = w1;
        prof_impl_trace_ext(kind, name, w, n, NULL, 0);
        return;
    }
    __atomic_store_n(&c->last, t, __ATOMIC_RELAXED);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    p[0] = d << 24 | (unsigned long long) words << 8 | kind << 3 | 7u;
    if (name != NULL)
        p[++k] = tag >> 3;
    if (n > 0)
        p[++k] = w0;
    if (n > 1)
        p[++k] = w1;
    __atomic_store_n(&c->pos, p + 1 + words, __ATOMIC_RELEASE);
}

PROF_IMPL_INLINE void prof_impl_zone_cleanup(const char * const * label)
{
    prof_impl_trace_rec(PROF_IMPL_EV_END, *label);
}
PROF_IMPL_INLINE void prof_impl_func_cleanup(const char * const * name)
{
    prof_impl_trace_rec(PROF_IMPL_EV_FEND, *name);
}
PROF_IMPL_INLINE const char * prof_impl_begin(unsigned type, const char * label)
{
    prof_impl_trace_rec(type, label);
    return label;
}

/* The exec family, in a translation unit that traces (Linux): each name
   is a macro for the recorder's function (src/trace/trace_exec.c), which
   writes every buffer and the end record, then calls the C library's
   function. Only the calls compiled with tracing on go there: the C
   library's names stay the C library's, in this program and any other
   (doc/tracing.md says why). In C++ the declarations carry the exception
   specification of glibc's, which <unistd.h> gives the renamed names when
   it comes after this header. */
# if defined(__linux__)
#  if defined(__cplusplus) && defined(__THROW)
#   define PROF_IMPL_THROW __THROW
#  else
#   define PROF_IMPL_THROW
#  endif
int prof_impl_execve(const char * path, char * const argv[],
        char * const envp[]) PROF_IMPL_THROW;
int prof_impl_execv(const char * path, char * const argv[]) PROF_IMPL_THROW;
int prof_impl_execvpe(const char * file, char * const argv[],
        char * const envp[]) PROF_IMPL_THROW;
int prof_impl_execvp(const char * file, char * const argv[]) PROF_IMPL_THROW;
int prof_impl_fexecve(int fd, char * const argv[], char * const envp[])
        PROF_IMPL_THROW;
int prof_impl_execl(const char * path, const char * arg, ...) PROF_IMPL_THROW;
int prof_impl_execle(const char * path, const char * arg, ...) PROF_IMPL_THROW;
int prof_impl_execlp(const char * file, const char * arg, ...) PROF_IMPL_THROW;
#  if defined(PROFILE) || defined(PROF_TRACE)
#   define execve prof_impl_execve
#   define execv prof_impl_execv
#   define execvpe prof_impl_execvpe
#   define execvp prof_impl_execvp
#   define fexecve prof_impl_fexecve
#   define execl prof_impl_execl
#   define execle prof_impl_execle
#   define execlp prof_impl_execlp
#  endif
# endif
#endif

#endif /* PROFILER_TRACE_H */
