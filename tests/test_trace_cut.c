/* A real trace cut at every length, as a kill or a full disk can leave it,
   read three ways: from a regular file (prof-trace FILE: its size is
   known, the reader looks past a chunk that runs over the end and comes
   back), through a pipe on stdin (prof-trace - : no size) and in memory
   (pt_read). Each must give the same zones, events and warnings, never a
   crash; a cut file gets a warning that says so and keeps exactly the whole
   events before the cut (counted here from the chunks themselves), and its
   zones are those of the whole trace. The streamed readings use a window
   that holds the whole trace (as the default 1 MiB does, which the whole
   file and its first cut use); once also with a 64-byte read window, so
   that the window moves at every chunk.
   Usage: test_trace_cut TRACE SCRATCH-FILE [STEP [PART PARTS]] (STEP:
   every STEP-th length, and every length around a chunk boundary; 1 by
   default; PART of PARTS: every PARTS-th of those cuts from the PART-th,
   0 of 1 by default, so that CTest runs the parts side by side) */
#include "trace_util.h"
#include "internal.h"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#if defined(__GLIBC__)
# include <malloc.h>
#endif

typedef struct { pt_zone * v; size_t cap; } zones_t;

static void keep_zone(void * ctx, const pt_trace * t, const pt_zone * z)
{
    zones_t * k = (zones_t *) ctx;
    (void) t;
    if (prof_impl_grow(&k->v, &k->cap, (size_t) z->seq + 1, sizeof *z) == 0)
        k->v[z->seq] = *z;
}

/* One reading: its result, trace, zones (in begin order) and warnings. */
typedef struct
{
    int rc;
    pt_trace t;
    zones_t z;
    char * warnings;
    size_t wlen;
} reading;

static void reading_free(reading * r)
{
    pt_free(&r->t);
    free(r->z.v);
    free(r->warnings);
    memset(r, 0, sizeof *r);
}

static void options(pt_options * o, FILE * warn, size_t window)
{
    memset(o, 0, sizeof *o);
    o->warn = warn;
    o->max_warnings_per_kind = 1000;
    o->window = window;
}

/* 'm': in memory; 'f': the file path; '-': stdin (a pipe, set up by the
   caller). */
static void read_as(int how, const char * path, const unsigned char * d,
                    size_t n, size_t window, reading * r)
{
    FILE * w;
    pt_options o;
    pt_handler h;
    memset(r, 0, sizeof *r);
    w = open_memstream(&r->warnings, &r->wlen);
    options(&o, w, window);
    pt_handler_init(&h, &r->z);
    h.begin = keep_zone;
    h.zone = keep_zone;
    if (how == 'm')
    {
        r->rc = pt_read(d, n, &o, &r->t);
        if (r->rc == 0 && r->t.nzones > 0)
        {
            r->z.v = (pt_zone *) malloc(r->t.nzones * sizeof *r->z.v);
            memcpy(r->z.v, r->t.zones, r->t.nzones * sizeof *r->z.v);
        }
    }
    else
        r->rc = pt_stream(how == 'f' ? path : "-", &o, &h, &r->t);
    fclose(w);
}

typedef struct { int fd; const unsigned char * d; size_t n; } feed_t;

static void * feed(void * arg)
{
    feed_t * f = (feed_t *) arg;
    size_t done = 0;
    while (done < f->n)
    {
        ssize_t k = write(f->fd, f->d + done, f->n - done);
        if (k <= 0)
            break; /* the reader stopped early and closed its end */
        done += (size_t) k;
    }
    close(f->fd);
    return NULL;
}

/* The n bytes through a pipe on stdin, as `cat FILE | prof-trace -`. */
static void read_pipe(const unsigned char * d, size_t n, size_t window,
                      reading * r)
{
    int fds[2];
    pthread_t th;
    feed_t f;
    if (pipe(fds) != 0)
    {
        CHECK(0, "pipe");
        memset(r, 0, sizeof *r);
        return;
    }
    dup2(fds[0], 0);
    close(fds[0]);
    clearerr(stdin);
    f.fd = fds[1];
    f.d = d;
    f.n = n;
#if defined(F_SETPIPE_SZ)
    if (n <= 65536 && fcntl(fds[1], F_SETPIPE_SZ, 65536) >= 65536)
    {
        feed(&f); /* it fits in the pipe: no thread needed */
        read_as('-', NULL, d, n, window, r);
        close(0);
        return;
    }
#endif
    pthread_create(&th, NULL, feed, &f);
    read_as('-', NULL, d, n, window, r);
    close(0); /* unblocks the feeder if the reader stopped early */
    pthread_join(th, NULL);
}

/* The end offsets of the events (not SYNC words) of the whole trace, in
   file order: a prefix of n bytes holds those that end at n or before. */
static size_t event_ends(const unsigned char * d, size_t n, size_t ** ends)
{
    size_t off = sizeof(prof_tf_header), count = 0, cap = 0;
    *ends = NULL;
    while (off + sizeof(prof_tf_chunk) <= n)
    {
        prof_tf_chunk c;
        size_t k;
        memcpy(&c, d + off, sizeof c);
        CHECK(c.magic == PROF_TF_CHUNK_MAGIC && off + sizeof c + c.size <= n,
              "chunk at %zu", off);
        if (c.magic != PROF_TF_CHUNK_MAGIC)
            break;
        for (k = 8; c.type == PROF_TF_EVENTS2 && k + 8 <= c.size; k += 8)
        {
            uint64_t w;
            memcpy(&w, d + off + sizeof c + k, 8);
            if ((w & 7) == PROF_TF_EV_SYNC)
                continue;
            prof_impl_grow(ends, &cap, count + 1, sizeof **ends);
            (*ends)[count++] = off + sizeof c + k + 8;
        }
        off += sizeof c + c.size;
    }
    return count;
}

static int same_zone(const pt_trace * ta, const pt_zone * a,
                     const pt_trace * tb, const pt_zone * b)
{
    return a->kind == b->kind && a->flags == b->flags && a->depth == b->depth
           && a->begin == b->begin && a->end == b->end && a->seq == b->seq
           && strcmp(a->name, b->name) == 0
           && ta->threads[a->thread].tid == tb->threads[b->thread].tid;
}

/* b read the same as a (what, at cut n). */
static void check_same(const reading * a, const reading * b, const char * what,
                       size_t n)
{
    size_t i;
    CHECK(a->rc == b->rc && a->t.events == b->t.events
          && a->t.nzones == b->t.nzones && a->t.nthreads == b->t.nthreads
          && a->t.has_end == b->t.has_end,
          "cut at %zu: %s: rc %d/%d, events %llu/%llu, zones %zu/%zu", n, what,
          a->rc, b->rc, (unsigned long long) a->t.events,
          (unsigned long long) b->t.events, a->t.nzones, b->t.nzones);
    CHECK(strcmp(a->warnings, b->warnings) == 0,
          "cut at %zu: %s: other warnings:\n%s---\n%s", n, what, a->warnings,
          b->warnings);
    for (i = 0; a->rc == 0 && i < a->t.nzones && i < b->t.nzones; i++)
        if (!same_zone(&a->t, &a->z.v[i], &b->t, &b->z.v[i]))
        {
            CHECK(0, "cut at %zu: %s: zone %zu differs", n, what, i);
            break;
        }
}

/* The zones of the cut trace are the whole trace's (the open ones end at
   the cut). */
static void check_prefix(const reading * cut, const reading * whole, size_t n)
{
    size_t i;
    for (i = 0; i < cut->t.nzones; i++)
    {
        const pt_zone * a = &cut->z.v[i], * b = &whole->z.v[i];
        int ok = i < whole->t.nzones && a->begin == b->begin
                 && strcmp(a->name, b->name) == 0
                 && cut->t.threads[a->thread].tid == whole->t.threads[b->thread].tid
                 && ((a->flags & PT_NO_END) || (a->flags == b->flags && a->end == b->end));
        if (!ok)
        {
            CHECK(0, "cut at %zu: zone %zu (%s) is not the whole trace's", n,
                  i, a->name);
            break;
        }
    }
}

static size_t expected_events(const size_t * ends, size_t nends, size_t n)
{
    size_t k = 0;
    while (k < nends && ends[k] <= n)
        k++;
    return k;
}

/* Cut the file at n: the three readings agree and keep what they should. */
static void check_cut(const char * scratch, const unsigned char * d, size_t n,
                      size_t size, const reading * whole, const size_t * ends,
                      size_t nends, size_t window)
{
    reading m, f, p;
    CHECK(truncate(scratch, (off_t) n) == 0, "truncate to %zu", n);
    read_as('m', NULL, d, n, window, &m);
    read_as('f', scratch, d, n, window, &f);
    read_pipe(d, n, window, &p);
    check_same(&m, &f, "file vs memory", n);
    check_same(&m, &p, "stdin pipe vs memory", n);
    if (n < sizeof(prof_tf_header))
        CHECK(f.rc == -1 && strstr(f.warnings, "not a trace file") != NULL,
              "cut at %zu: rc %d, %s", n, f.rc, f.warnings);
    else
    {
        CHECK(f.rc == 0, "cut at %zu: rc %d", n, f.rc);
        CHECK(f.t.events == expected_events(ends, nends, n),
              "cut at %zu: %llu events, %zu whole before the cut", n,
              (unsigned long long) f.t.events, expected_events(ends, nends, n));
        CHECK(n == size ? f.warnings[0] == '\0'
                        : strstr(f.warnings, "cut") != NULL,
              "cut at %zu of %zu: warnings: %s", n, size, f.warnings);
        check_prefix(&f, whole, n);
    }
    reading_free(&m);
    reading_free(&f);
    reading_free(&p);
}

/* 1 if n is within 24 bytes of a chunk boundary of d. */
static int near_boundary(const unsigned char * d, size_t size, size_t n)
{
    size_t off = sizeof(prof_tf_header);
    while (off + sizeof(prof_tf_chunk) <= size)
    {
        prof_tf_chunk c;
        if (n + 24 >= off && n <= off + 24)
            return 1;
        memcpy(&c, d + off, sizeof c);
        off += sizeof c + c.size;
    }
    return n + 24 >= size;
}

int main(int argc, char ** argv)
{
    unsigned char * d;
    size_t size, n, step, nends, * ends, checked = 0, holds = 4096;
    size_t part, parts, seen = 0;
    reading whole;
    FILE * f;
    if (argc < 3 || (d = pt_slurp(argv[1], &size)) == NULL)
    {
        fprintf(stderr, "usage: test_trace_cut TRACE SCRATCH-FILE [STEP [PART PARTS]]\n");
        return 1;
    }
    step = argc > 3 ? (size_t) atol(argv[3]) : 1;
    step = step > 0 ? step : 1;
    part = argc > 5 ? (size_t) atol(argv[4]) : 0;
    parts = argc > 5 ? (size_t) atol(argv[5]) : 1;
    if (parts == 0 || part >= parts)
    {
        fprintf(stderr, "test_trace_cut: part %zu of %zu\n", part, parts);
        return 1;
    }
#if defined(M_MMAP_THRESHOLD) && defined(M_TRIM_THRESHOLD)
    /* Each of the ~10^5 readings allocates and frees the same memory:
       glibc would give it back to the kernel every time and fault it in
       again, which took three quarters of this test's time (a VM where page
       faults are dear). Kept in the heap. */
    mallopt(M_MMAP_THRESHOLD, 64 << 20);
    mallopt(M_TRIM_THRESHOLD, 64 << 20);
#endif
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdin, NULL, _IONBF, 0); /* nothing left over from one pipe */
    nends = event_ends(d, size, &ends);
    read_as('m', NULL, d, size, 0, &whole);
    CHECK(whole.rc == 0 && whole.warnings[0] == '\0' && nends > 1000,
          "the whole trace: rc %d, %zu events: %s", whole.rc, nends,
          whole.warnings);
    /* A window that holds the whole trace reads it as the default one does,
       without allocating (and, under ASan, mapping and poisoning) 1 MiB for
       each of the readings: that was half of the time under ASan. */
    while (holds < size)
        holds *= 2;
    f = fopen(argv[2], "wb");
    CHECK(f != NULL && fwrite(d, 1, size, f) == size && fclose(f) == 0,
          "writing %s", argv[2]);
    for (n = size + 1; n-- > 0 && check_failures < 20;)
        if ((n % step == 0 || near_boundary(d, size, n)) && seen++ % parts == part)
        {
            check_cut(argv[2], d, n, size, &whole, ends, nends,
                      n + 1 >= size ? 0 : holds);
            checked++;
        }
    /* a small window: refilled, moved and sought back at every chunk */
    f = fopen(argv[2], "wb");
    CHECK(f != NULL && fwrite(d, 1, size, f) == size && fclose(f) == 0,
          "writing %s", argv[2]);
    for (n = size + 1; n-- > 0 && check_failures < 20;)
        if ((n % (step * 13) == 0 || n == size) && seen++ % parts == part)
            check_cut(argv[2], d, n, size, &whole, ends, nends, 64);
    printf("test_trace_cut: %zu cuts of a %zu-byte trace (%zu events), "
           "part %zu of %zu\n", checked, size, nends, part, parts);
    remove(argv[2]);
    reading_free(&whole);
    free(ends);
    free(d);
    return check_report("test_trace_cut");
}
