/*
    The trace file: its path (refused, never cut, when too long), its
    creation (header and executable mappings), the move to another file,
    and the writing of a thread's buffer: label strings and ids first, then
    the events in pieces. Every function here runs with the recorder's lock
    held (or before tracing starts). See trace_impl.h.
    SPDX-License-Identifier: MIT
*/
#if !defined(_WIN32) /* Windows: trace_none.c */

#include "trace_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

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
            TR.file_errno = k < 0 ? errno : EIO;
            return -1;
        }
        c += k;
        n -= (size_t) k;
    }
    return 0;
}

/* The head of a chunk of size bytes. */
static NOINST prof_tf_chunk chunk_head(uint32_t type, uint32_t tid, size_t size)
{
    prof_tf_chunk h;
    h.magic = PROF_TF_CHUNK_MAGIC;
    h.type = type;
    h.size = (uint32_t) size;
    h.tid = tid;
    return h;
}

static NOINST int write_chunk_fd(int to, uint32_t type, uint32_t tid,
                                 const void * payload, size_t size)
{
    prof_tf_chunk h = chunk_head(type, tid, size);
    if (write_fd(to, &h, sizeof h) != 0)
        return -1;
    return size ? write_fd(to, payload, size) : 0;
}

static NOINST int write_all(const void * p, size_t n)
{
    return write_fd(TR.fd, p, n);
}

static NOINST int write_chunk(uint32_t type, uint32_t tid, const void * payload,
                              size_t size)
{
    return write_chunk_fd(TR.fd, type, tid, payload, size);
}

static NOINST uint64_t now_unix_ns(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
        return 0;
    return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

/* /proc/self/maps now, zero padded to 8 bytes: malloc'd (its length in
   *n), or NULL. */
NOINST char * prof_impl_tr_read_maps(size_t * n)
{
    int mfd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
    size_t len = 0, cap = 0;
    char * text = NULL;
    if (mfd < 0)
        return NULL;
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
    while (text != NULL && len % 8 != 0)
        text[len++] = '\0';
    *n = len;
    return text;
}

/* The executable mappings, so that prof-trace can name the code addresses
   recorded by -finstrument-functions (PIE and shared libraries included). */
static NOINST void write_maps(int to)
{
    size_t len = 0;
    char * text = prof_impl_tr_read_maps(&len);
    if (text != NULL && len > 0)
        (void) write_chunk_fd(to, PROF_TF_MAPS, 0, text, len);
    free(text);
}

NOINST const char * prof_impl_tr_shown_path(void)
{
    return TR.file_path[0] != '\0' ? TR.file_path : "(no trace file)";
}

static NOINST void warn_write_failed(void)
{
    if (!TR.file_warned)
    {
        TR.file_warned = 1;
        prof_impl_warn("trace: cannot write %s: %s; events are counted as "
                       "lost", prof_impl_tr_shown_path(), strerror(TR.file_errno));
    }
}

/* 0 if snprintf's result n fits a path; else -1 after a message: a path cut
   short could name another, existing file. */
NOINST int prof_impl_tr_path_fits(int n)
{
    if (n >= 0 && n < PATH_BYTES)
        return 0;
    prof_impl_warn("trace: a trace file path of %d bytes is too long (at most "
                   "%d): refused, not cut", n, PATH_BYTES - 1);
    return -1;
}

/* The file to write: path, else PROF_TRACE_FILE, else the default. The
   first two get ".<pid>" where another process is writing them: in a
   process forked before tracing started with PROF_TRACE_FILE set (as for
   a fork after), and in a worker process of the runner (PROFILER_WORKER
   set, src/bench/workers/bench_workers.c: the program run again by its
   parent, which traces to the same path and is still writing it). */
static NOINST int choose_path(const char * path, char * out)
{
    const char * env = getenv("PROF_TRACE_FILE");
    const char * worker = getenv("PROFILER_WORKER");
    const char * base = path != NULL && path[0] != '\0' ? path
                      : env != NULL && env[0] != '\0' ? env : NULL;
    int n;
    if (base == NULL)
        n = snprintf(out, PATH_BYTES, "prof-trace.%ld.ptrace", (long) getpid());
    else if ((worker != NULL && worker[0] != '\0')
             || (base == env && TR.forked_before_start
                 && strcmp(env, TR.env_at_fork) == 0))
        n = snprintf(out, PATH_BYTES, "%s.%ld", base, (long) getpid());
    else
        n = snprintf(out, PATH_BYTES, "%s", base);
    return prof_impl_tr_path_fits(n);
}

/* Create the trace file p with its header and maps: its descriptor, or -1
   with errno set. */
NOINST int prof_impl_tr_create_file(const char * p)
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
    h.tick_rate = TR.tick_rate;
    h.start_ticks = TR.start_ticks;
    h.start_unix_ns = now_unix_ns();
    if (write_fd(f, &h, sizeof h) != 0)
    {
        close(f);
        errno = TR.file_errno;
        return -1;
    }
    write_maps(f);
    return f;
}

/* The file p opened to append to, if this process wrote it earlier in this
   run (its header names this pid and this start: a file left for another,
   then named again); else -1, and the caller makes it anew. Another
   program's file, or this pid's before an exec, is not appended to. */
static NOINST int reopen_own(const char * p)
{
    prof_tf_header h;
    struct stat a, b;
    ssize_t k;
    /* O_NONBLOCK: a FIFO's open for reading waits for a writer, and this
       process is the one its reader waits for; only a regular file can
       hold a header to read back */
    int f = -1, r = open(p, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (r < 0)
        return -1;
    if (fstat(r, &b) != 0 || !S_ISREG(b.st_mode))
    {
        close(r);
        return -1;
    }
    do
        k = pread(r, &h, sizeof h, 0);
    while (k < 0 && errno == EINTR);
    if (k == (ssize_t) sizeof h && memcmp(h.magic, PROF_TF_MAGIC, 8) == 0
        && h.bom == PROF_TF_BOM && h.version == PROF_TF_VERSION
        && h.header_size == sizeof h && h.pid == (uint32_t) getpid()
        && h.start_ticks == TR.start_ticks
        && (f = open(p, O_WRONLY | O_APPEND | O_NONBLOCK | O_CLOEXEC)) >= 0
        && (fstat(f, &a) != 0 || a.st_dev != b.st_dev || a.st_ino != b.st_ino
            || fcntl(f, F_SETFL, O_APPEND) != 0))
    {
        close(f); /* replaced between the two opens: not the one read */
        f = -1;
    }
    close(r);
    return f;
}

/* 1 if p names the file being written. */
static NOINST int is_current_file(const char * p)
{
    struct stat a, b;
    return TR.fd >= 0 && fstat(TR.fd, &a) == 0 && stat(p, &b) == 0
           && a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/* Go on in the file nfd, named p (fits PATH_BYTES). The file left gets its
   end record, or is removed if no event went to it (events recorded before
   a prof_trace_open, say, went to the new file). */
NOINST void prof_impl_tr_switch_file(int nfd, const char * p)
{
    trace_rec * r;
    if (TR.fd >= 0)
    {
        if (TR.file_has_events)
            prof_impl_tr_write_end(0);
        close(TR.fd);
        if (!TR.file_has_events)
            unlink(TR.file_path);
    }
    TR.fd = nfd;
    prof_impl_copy(TR.file_path, sizeof TR.file_path, p);
    TR.file_gen++;
    TR.file_warned = nfd < 0;
    TR.file_has_events = 0;
    for (r = TR.records; r != NULL; r = r->next)
        r->name_dirty = r->name[0] != '\0';
}

/* Write to path (see choose_path) from now on; lock held, or before
   tracing starts. The file being written, named again, is kept and goes on;
   one this process left earlier is appended to (reopen_own).
   A path that cannot be used leaves the current file, if any, in use; with
   none, events are counted as lost. 0 or -1 (after a message). */
NOINST int prof_impl_tr_open_file(const char * path)
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
    else if ((nfd = reopen_own(p)) >= 0)
    {
        prof_impl_tr_switch_file(nfd, p);
        TR.file_has_events = 1; /* its earlier events: never removed */
        return 0;
    }
    else if ((nfd = prof_impl_tr_create_file(p)) >= 0)
    {
        prof_impl_tr_switch_file(nfd, p);
        return 0;
    }
    else
    {
        e = errno;
        prof_impl_warn("trace: cannot open %s for writing: %s%s%s", p,
                       strerror(e), TR.fd >= 0 ? "; still writing " : "; events "
                       "are counted as lost", TR.fd >= 0 ? TR.file_path : "");
    }
    if (TR.fd < 0)
    {
        prof_impl_tr_switch_file(-1, p);
        TR.file_errno = e;
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
    if (r->ids_gen != TR.file_gen)
    {
        r->ids_written = 0;
        r->ids_gen = TR.file_gen;
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
NOINST size_t prof_impl_tr_advance_base(trace_rec * r, const word_t * w, size_t n)
{
    size_t i, events = 0;
    for (i = 0; i < n; i += prof_impl_tr_record_words(w + i, n - i))
        if ((w[i] & 7) == PROF_TF_EV_SYNC)
            r->base61 = (w[i] >> 3) & PROF_TF_TICK_MASK;
        else
        {
            r->base61 = (r->base61 + (w[i] >> 24)) & PROF_TF_TICK_MASK;
            events++;
        }
    return events;
}

/* The first k <= max words of w[0..n) that end on a record's end (no
   record spans two chunks). */
static NOINST size_t whole_records(const word_t * w, size_t n, size_t max)
{
    size_t k = 0, m;
    if (n <= max)
        return n;
    while (k < n && k + (m = prof_impl_tr_record_words(w + k, n - k)) <= max)
        k += m;
    return k > 0 ? k : max;
}

/* EVENTS2 chunks of words w[0..n) (base first); r->base61 moves over them
   either way. Returns the events that could not be written. */
static NOINST size_t write_events(trace_rec * r, const word_t * w, size_t n)
{
    size_t unwritten = 0;
    while (n > 0)
    {
        size_t k = whole_records(w, n, PIECE_WORDS);
        unsigned char head[sizeof(prof_tf_chunk) + 8];
        prof_tf_chunk h = chunk_head(PROF_TF_EVENTS2, r->tid, 8 + k * 8);
        memcpy(head, &h, sizeof h);
        memcpy(head + sizeof h, &r->base61, 8);
        if (unwritten > 0 || write_all(head, sizeof head) != 0
            || write_all(w, k * 8) != 0)
            unwritten += prof_impl_tr_advance_base(r, w, k);
        else
            (void) prof_impl_tr_advance_base(r, w, k);
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
        unwritten = prof_impl_tr_advance_base(r, w, n);
    else
        unwritten = write_events(r, w, n);
    if (unwritten == 0)
    {
        TR.file_has_events = 1;
        return 0;
    }
    r->lost += unwritten;
    __atomic_add_fetch(&TR.lost_total, unwritten, __ATOMIC_RELAXED);
    if (!in_signal)
        warn_write_failed();
    return -1;
}

/* The buffer handed to the writer thread, if any (lock held): it comes
   before the current one. Its buffer is then the spare. */
NOINST int prof_impl_tr_write_pending(trace_rec * r, int in_signal)
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
NOINST int prof_impl_tr_flush_locked(trace_rec * r, int in_signal)
{
    word_t * pos;
    size_t n;
    int rc = 0;

    if (r->at == NULL)
        return 0;
    pos = __atomic_load_n(&r->at->pos, __ATOMIC_ACQUIRE);
    if (pos < r->flushed || pos > r->buf + r->cap)
        return 0; /* not attached to this buffer (yet): nothing to write */
    n = (size_t) (pos - r->flushed);
    if (r->name_dirty && TR.fd >= 0)
    {
        char name[NAME_BYTES];
        memcpy(name, r->name, NAME_BYTES);
        if (write_chunk(PROF_TF_THREAD, r->tid, name, NAME_BYTES) == 0)
            r->name_dirty = 0;
    }
    if (prof_impl_tr_write_pending(r, in_signal) != 0)
        rc = -1;
    if (n > 0)
    {
        if (write_range(r, r->flushed, n, in_signal) != 0)
            rc = -1;
        r->flushed = pos;
    }
    if (r->lost > 0 && rc == 0 && TR.fd >= 0)
    {
        uint64_t lost = r->lost;
        if (write_chunk(PROF_TF_LOST, r->tid, &lost, 8) == 0)
            r->lost = 0;
    }
    return rc;
}

NOINST int prof_impl_tr_flush_all_locked(int in_signal)
{
    trace_rec * r;
    int rc = 0;
    for (r = __atomic_load_n(&TR.records, __ATOMIC_ACQUIRE); r != NULL; r = r->next)
        if (prof_impl_tr_flush_locked(r, in_signal) != 0)
            rc = -1;
    return rc;
}

NOINST void prof_impl_tr_write_end(int sig)
{
    uint64_t end[3];
    end[0] = prof_impl_ticks();
    end[1] = __atomic_load_n(&TR.lost_total, __ATOMIC_RELAXED);
    end[2] = (uint64_t) (unsigned) sig;
    (void) write_chunk(PROF_TF_END, 0, end, sizeof end);
}

/* A chunk from outside the recorder (the sampler's reader thread): under
   the lock, into the current file. 0, or -1 if there is no file or the
   write failed (the caller counts what it loses). */
NOINST int prof_impl_tr_put_chunk(uint32_t type, uint32_t tid, const void * p,
                                  size_t n)
{
    int rc = -1;
    if (!prof_impl_tr_lock_api())
        return -1;
    if (TR.fd >= 0 && write_chunk(type, tid, p, n) == 0)
    {
        TR.file_has_events = 1;
        rc = 0;
    }
    prof_impl_tr_unlock();
    return rc;
}

#else
typedef int prof_impl_trace_file_posix_only; /* ISO C: no empty translation unit */
#endif /* !_WIN32 */
