/*
    Helpers for the trace tests: build trace files by hand (a fake clock:
    tick rate 1e9, so ticks are nanoseconds and results are exact), and read
    a file with the reader, keeping its warnings.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TEST_TRACE_UTIL_H
#define PROF_TEST_TRACE_UTIL_H

#include "check.h"
#include "profiler.h"
#include "trace_read.h"
#include "trace_format.h"

#include <sys/wait.h>
#include <unistd.h>

typedef struct { unsigned char * d; size_t n, cap; } tbuf;

static inline void tb_put(tbuf * b, const void * p, size_t n)
{
    if (b->n + n > b->cap)
    {
        b->cap = (b->n + n) * 2 + 256;
        b->d = (unsigned char *) realloc(b->d, b->cap);
    }
    memcpy(b->d + b->n, p, n);
    b->n += n;
}

static inline void tb_header(tbuf * b, double rate, uint64_t start_ticks)
{
    prof_tf_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, PROF_TF_MAGIC, 8);
    h.bom = PROF_TF_BOM;
    h.version = PROF_TF_VERSION;
    h.header_size = sizeof h;
    h.pid = 4242;
    h.tick_rate = rate;
    h.start_ticks = start_ticks;
    tb_put(b, &h, sizeof h);
}

static inline void tb_chunk(tbuf * b, uint32_t type, uint32_t tid,
                            const void * p, size_t n)
{
    prof_tf_chunk c;
    c.magic = PROF_TF_CHUNK_MAGIC;
    c.type = type;
    c.size = (uint32_t) n;
    c.tid = tid;
    tb_put(b, &c, sizeof c);
    tb_put(b, p, n);
}

/* A STRINGS chunk with one label. */
static inline void tb_string(tbuf * b, uint64_t key, const char * s)
{
    unsigned char e[16 + 64];
    uint32_t len = (uint32_t) strlen(s), zero = 0;
    size_t n = 16 + (len + 7) / 8 * 8;
    memset(e, 0, sizeof e);
    memcpy(e, &key, 8);
    memcpy(e + 8, &len, 4);
    memcpy(e + 12, &zero, 4);
    memcpy(e + 16, s, len);
    tb_chunk(b, PROF_TF_STRINGS, 0, e, n);
}

typedef struct { uint64_t ticks; unsigned type; uint64_t key; } tev;

/* Version 1 events (16 bytes each), as older recorders wrote them. */
static inline void tb_events(tbuf * b, uint32_t tid, const tev * e, size_t n)
{
    size_t i;
    uint64_t * v = (uint64_t *) calloc(2 * n + 2, sizeof *v);
    for (i = 0; i < n; i++)
    {
        v[2 * i] = (e[i].ticks & PROF_TF_TICK_MASK) << 3 | e[i].type;
        v[2 * i + 1] = e[i].key;
    }
    tb_chunk(b, PROF_TF_EVENTS, tid, v, n * 16);
    free(v);
}

/* Version 2: a LABELS chunk giving thread tid ids first.. to keys[]. */
static inline void tb_labels(tbuf * b, uint32_t tid, uint32_t first,
                             const uint64_t * keys, uint32_t count)
{
    uint64_t * v = (uint64_t *) calloc(count + 1, sizeof *v);
    uint32_t head[2];
    head[0] = first;
    head[1] = count;
    memcpy(v, head, 8);
    memcpy(v + 1, keys, count * 8);
    tb_chunk(b, PROF_TF_LABELS, tid, v, (count + 1) * 8);
    free(v);
}

/* Version 2 events: e[].key is the thread's id here; base is the ticks
   before the first; a SYNC word where a delta does not fit. */
static inline void tb_events2(tbuf * b, uint32_t tid, uint64_t base,
                              const tev * e, size_t n)
{
    size_t i, k = 1;
    uint64_t * v = (uint64_t *) calloc(2 * n + 1, sizeof *v), last = base;
    v[0] = base;
    for (i = 0; i < n; i++)
    {
        uint64_t d = e[i].ticks - last;
        if (d >> PROF_TF_DELTA_BITS)
        {
            v[k++] = (e[i].ticks & PROF_TF_TICK_MASK) << 3 | PROF_TF_EV_SYNC;
            d = 0;
        }
        v[k++] = d << 24 | e[i].key << 3 | e[i].type;
        last = e[i].ticks;
    }
    tb_chunk(b, PROF_TF_EVENTS2, tid, v, k * 8);
    free(v);
}

static inline void tb_end(tbuf * b, uint64_t ticks, int sig)
{
    uint64_t e[3];
    e[0] = ticks;
    e[1] = 0;
    e[2] = (uint64_t) sig;
    tb_chunk(b, PROF_TF_END, 0, e, sizeof e);
}

/* What the reader wrote to f (its warnings), into buf (at most size - 1
   bytes, terminated); f is closed. */
static inline const char * warnings_of(FILE * f, char * buf, size_t size)
{
    size_t k;
    rewind(f);
    k = fread(buf, 1, size - 1, f);
    buf[k] = '\0';
    fclose(f);
    return buf;
}

/* Read n bytes with the reader; warnings go to the static buffer *warnings.
   Returns pt_read's result. */
static inline int read_trace(const unsigned char * d, size_t n, pt_trace * t,
                             int symbols, const char ** warnings)
{
    static char w[1 << 16];
    pt_options o;
    FILE * f = tmpfile();
    int rc;
    memset(&o, 0, sizeof o);
    o.warn = f;
    o.resolve_symbols = symbols;
    o.max_warnings_per_kind = 1000;
    rc = pt_read(d, n, &o, t);
    warnings_of(f, w, sizeof w);
    if (warnings != NULL)
        *warnings = w;
    return rc;
}

/* With a directory argument, a test's files (recorded and hand-made) are
   also written there: seeds of the fuzz targets' corpus (.ci/run). */
static const char * seed_dir;

static inline void save_seed(const char * name, const void * d, size_t n)
{
    char p[512];
    FILE * f;
    if (seed_dir == NULL)
        return;
    snprintf(p, sizeof p, "%s/%s", seed_dir, name);
    f = fopen(p, "wb");
    CHECK(f != NULL && fwrite(d, 1, n, f) == n && fclose(f) == 0,
          "cannot write %s", p);
}

/* What was written to the temporary file f, as a malloc'd string (its
   length at *len if not NULL); f is closed. */
static inline char * read_back(FILE * f, size_t * len)
{
    long n = ftell(f);
    char * s;
    rewind(f);
    s = (char *) calloc((size_t) n + 1, 1);
    if (fread(s, 1, (size_t) n, f) != (size_t) n)
        s[0] = '\0';
    fclose(f);
    if (len != NULL)
        *len = (size_t) n;
    return s;
}

/* What fn(t, f, arg) writes, as a malloc'd string. */
static inline char * report(const pt_trace * t, int what)
{
    FILE * f = tmpfile();
    if (what == 'j' || what == 'b')
        pt_write_json(f, t, what == 'j' ? PT_JSON_X : PT_JSON_BE);
    else
        pt_write_summary(f, t, what == 'c' ? PT_SUMMARY_CSV : PT_SUMMARY_TEXT);
    return read_back(f, NULL);
}

/* The zones named name in thread index th (th < 0: any): count. */
static inline size_t count_zones(const pt_trace * t, const char * name, long th,
                                 int flags)
{
    size_t i, c = 0;
    for (i = 0; i < t->nzones; i++)
        if (strcmp(t->zones[i].name, name) == 0
            && (th < 0 || t->zones[i].thread == (uint32_t) th)
            && t->zones[i].flags == flags)
            c++;
    return c;
}

/* ---- recorder tests: a child process per case ------------------------------ */

/* Run fn in a child; returns its wait status. The child exits with 0 when
   its own checks passed, unless fn exits or dies first. */
static inline int run_child(void (*fn)(void))
{
    int status = -1;
    pid_t pid;
    fflush(NULL);
    pid = fork();
    if (pid == 0)
    {
        check_failures = 0; /* the child's own */
        fn();
        exit(check_failures ? 10 : 0);
    }
    waitpid(pid, &status, 0);
    return status;
}

/* Read the trace file p (no symbols); -1 if it cannot be read. */
static inline int load_trace(const char * p, pt_trace * t, const char ** w)
{
    size_t n;
    unsigned char * d = pt_slurp(p, &n);
    int rc;
    if (d == NULL)
    {
        memset(t, 0, sizeof *t);
        if (w != NULL)
            *w = "";
        return -1;
    }
    rc = read_trace(d, n, t, 0, w);
    free(d);
    return rc;
}

/* A whole file d of n bytes holding at most one record of extension kind
   `kind`, damaged two ways: cut at every byte past the header, each read
   says something and keeps at most that one record; each bit flipped in
   turn (and put back) never crashes, and not every flip goes unsaid. */
static inline void check_cuts_and_flips(unsigned char * d, size_t n,
                                        unsigned kind)
{
    pt_trace t;
    const char * warn;
    size_t i, quiet = 0;
    for (i = sizeof(prof_tf_header); i < n; i++)
    {
        CHECK(read_trace(d, i, &t, 0, &warn) == 0 && t.warnings > 0
              && t.annots[kind] <= 1, "cut at %zu: no warning", i);
        pt_free(&t);
    }
    for (i = 0; i < n * 8; i++)
    {
        d[i / 8] ^= (unsigned char) (1u << (i % 8));
        if (read_trace(d, n, &t, 0, &warn) == 0)
            quiet += t.warnings == 0;
        pt_free(&t);
        d[i / 8] ^= (unsigned char) (1u << (i % 8));
    }
    CHECK(quiet < n * 8, "%zu of %zu flips said nothing", quiet, n * 8);
}

/* n zones named "z" (nothing unless the test defines PROF_TRACE) */
static inline void zones(int n)
{
    int i;
    for (i = 0; i < n; i++)
    {
        PROF_ZONE_BEGIN("z");
        PROF_ZONE_END("z");
    }
}

/* Fork a child that records n zones and exits; wait for it. Its pid. */
static inline pid_t child_zones(int n)
{
    int st;
    pid_t pid;
    fflush(NULL);
    pid = fork();
    if (pid == 0)
    {
        zones(n);
        exit(0);
    }
    waitpid(pid, &st, 0);
    return pid;
}

#ifdef TRACE_TEST_DIR
/* A test whose cases each write their own file in one directory defines
   TRACE_TEST_DIR, a mkdtemp template, before including this file: dir
   (main makes it with mkdtemp), and path, the case's file in it, named
   by set_path. */
static char dir[] = TRACE_TEST_DIR;
static char path[256];

static inline void set_path(const char * name)
{
    snprintf(path, sizeof path, "%s/%s", dir, name);
}
#endif

/* Remove the test's directory when every check passed (else keep it to
   look at), and report. */
static inline int finish_in(const char * dir, const char * name)
{
    char cmd[300];
    if (check_failures == 0)
    {
        snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
        if (system(cmd) != 0)
            fprintf(stderr, "could not remove %s\n", dir);
    }
    return check_report(name);
}


#endif
