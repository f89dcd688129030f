/*
    The records a worker process sends its parent over a pipe: what it is
    about to run (BEGIN), a finished benchmark's epochs (EPOCHS), a paired
    comparison's two sides (COMPARE). The format is the library's own, and
    checked field by field on the way in: a damaged or hostile stream is
    refused, never trusted.

    A record: a 16-byte header (magic "PRFW", type, payload length,
    FNV-1a checksum of the payload; little-endian 32-bit words), then the
    payload: 32-bit integers, IEEE doubles (bit patterns, so values round-
    trip exactly) and strings (a length, then the bytes).
    SPDX-License-Identifier: MIT
*/
#include "bench.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAGIC 0x57465250u          /* "PRFW" read as little-endian */
#define HEADER 16
#define MAX_PAYLOAD (1u << 30)
#define MAX_STRING 4096u
#define MAX_EPOCHS 100000000u

/* ---- writing ------------------------------------------------------------- */

typedef struct
{
    unsigned char * d;
    size_t n, cap;
    int failed;
} out_buf;

static void put_bytes(out_buf * o, const void * p, size_t n)
{
    if (o->failed || prof_impl_grow(&o->d, &o->cap, o->n + n, 1) != 0)
    {
        o->failed = 1;
        return;
    }
    memcpy(o->d + o->n, p, n);
    o->n += n;
}

static void put_u32(out_buf * o, unsigned long v)
{
    unsigned char b[4];
    int i;
    for (i = 0; i < 4; i++)
        b[i] = (unsigned char) (v >> (8 * i));
    put_bytes(o, b, 4);
}

static void put_u64(out_buf * o, unsigned long long v)
{
    put_u32(o, (unsigned long) (v & 0xFFFFFFFFu));
    put_u32(o, (unsigned long) (v >> 32));
}

static void put_f64(out_buf * o, double v)
{
    unsigned long long bits;
    memcpy(&bits, &v, sizeof bits);
    put_u64(o, bits);
}

static void put_str(out_buf * o, const char * s)
{
    size_t n = strlen(s);
    if (n > MAX_STRING)
        n = MAX_STRING;
    put_u32(o, (unsigned long) n);
    put_bytes(o, s, n);
}

static unsigned long fnv1a(const unsigned char * d, size_t n)
{
    unsigned long h = 2166136261u;
    size_t i;
    for (i = 0; i < n; i++)
        h = ((h ^ d[i]) * 16777619u) & 0xFFFFFFFFu;
    return h;
}

static void put_epochs(out_buf * o, const prof_impl_epochs * e)
{
    int i, k;
    put_str(o, e->name);
    put_u32(o, (unsigned long) e->s.epochs);
    put_f64(o, e->s.batch);
    put_str(o, e->s.unit);
    put_str(o, e->s.time_unit);
    put_u32(o, (unsigned long) e->s.time_unit_fixed);
    put_f64(o, e->s.complexity_n);
    put_f64(o, e->s.budget_s);
    put_u32(o, (unsigned long) e->s.threads);
    put_u32(o, (unsigned long) e->s.schedule);
    put_u32(o, (unsigned long) e->is_baseline);
    put_u32(o, (unsigned long) e->got);
    for (i = 0; i < e->got; i++)
    {
        put_f64(o, e->samples[i]);
        put_f64(o, e->cpu[i]);
        put_u64(o, (unsigned long long) e->iters[i]);
    }
    put_u32(o, (unsigned long) e->nev);
    for (k = 0; k < e->nev; k++)
        put_str(o, e->ev_names[k]);
    for (i = 0; i < e->got * e->nev; i++)
        put_f64(o, e->ev[i]);
    put_u32(o, (unsigned long) e->nuser);
    for (k = 0; k < e->nuser; k++)
    {
        put_str(o, e->user_cols[k].name);
        put_str(o, e->user_cols[k].unit);
        put_u32(o, (unsigned long) e->user_cols[k].flags);
    }
    for (i = 0; i < e->got * e->nuser; i++)
        put_f64(o, e->user[i]);
    put_u32(o, (unsigned long) e->user_dropped);
    put_f64(o, e->spent_ns);
    put_f64(o, e->overhead_ns);
    put_f64(o, e->net_ns_sum);
    put_u32(o, (unsigned long) e->low_epochs);
    put_u32(o, (unsigned long) e->preempted);
    put_u32(o, (unsigned long) e->cpu_timed);
    put_u32(o, (unsigned long) e->at_max_iters);
    put_u32(o, (unsigned long) e->budget_hit);
    put_f64(o, e->load);
}

int prof_impl_wire_encode(const prof_impl_wire_record * r,
        unsigned char ** buf, size_t * len)
{
    out_buf o = { NULL, 0, 0, 0 };
    unsigned char * p;
    size_t payload;
    put_u32(&o, MAGIC);
    put_u32(&o, (unsigned long) r->type);
    put_u32(&o, 0);             /* length and checksum, filled in below */
    put_u32(&o, 0);
    put_u32(&o, (unsigned long) r->suite);
    put_u32(&o, (unsigned long) r->index);
    if (r->type == PROF_IMPL_WIRE_BEGIN)
        put_str(&o, r->name);
    else
    {
        put_epochs(&o, &r->a);
        if (r->type == PROF_IMPL_WIRE_COMPARE)
            put_epochs(&o, &r->b);
    }
    if (o.failed)
    {
        free(o.d);
        return -1;
    }
    payload = o.n - HEADER;
    p = o.d;
    o.n = 8;                    /* rewrite the two words in place */
    put_u32(&o, (unsigned long) payload);
    put_u32(&o, fnv1a(p + HEADER, payload));
    *buf = p;
    *len = payload + HEADER;
    return 0;
}

/* ---- reading ------------------------------------------------------------- */

typedef struct
{
    const unsigned char * d;
    size_t n, pos;
    const char * bad;       /* the first problem found, or NULL */
} in_buf;

static unsigned long get_u32(in_buf * in)
{
    unsigned long v = 0;
    int i;
    if (in->bad || in->n - in->pos < 4)
    {
        if (!in->bad)
            in->bad = "the record ends early";
        return 0;
    }
    for (i = 0; i < 4; i++)
        v |= (unsigned long) in->d[in->pos + i] << (8 * i);
    in->pos += 4;
    return v;
}

static unsigned long long get_u64(in_buf * in)
{
    unsigned long long lo = get_u32(in);
    return lo | (unsigned long long) get_u32(in) << 32;
}

static double get_f64(in_buf * in)
{
    unsigned long long bits = get_u64(in);
    double v;
    memcpy(&v, &bits, sizeof v);
    return v;
}

/* A count in 0..max, else the record is bad. */
static int get_count(in_buf * in, unsigned long max, const char * what)
{
    unsigned long v = get_u32(in);
    if (v > max && !in->bad)
        in->bad = what;
    return in->bad ? 0 : (int) v;
}

/* A string (malloc'd, terminated); NULL if bad. */
static char * get_str(in_buf * in)
{
    size_t n = (size_t) get_count(in, MAX_STRING, "a string is too long");
    char * s;
    if (in->bad || in->n - in->pos < n)
    {
        if (!in->bad)
            in->bad = "the record ends early";
        return NULL;
    }
    if (memchr(in->d + in->pos, '\0', n) != NULL)
    {
        in->bad = "a string holds a NUL byte";
        return NULL;
    }
    s = (char *) malloc(n + 1);
    if (s == NULL)
    {
        in->bad = "out of memory";
        return NULL;
    }
    memcpy(s, in->d + in->pos, n);
    s[n] = '\0';
    in->pos += n;
    return s;
}

/* A time: not negative (NaN allowed where an event is unavailable). */
static double get_time(in_buf * in, int nan_ok)
{
    double v = get_f64(in);
    if (!in->bad && (isnan(v) ? !nan_ok : !(v >= 0.0 && v < INFINITY)))
        in->bad = "a time is negative, infinite or NaN";
    return v;
}

static int alloc_epochs(in_buf * in, prof_impl_epochs * e)
{
    size_t n = e->got > 0 ? (size_t) e->got : 1;
    e->samples = (double *) malloc(n * sizeof *e->samples);
    e->cpu = (double *) malloc(n * sizeof *e->cpu);
    e->iters = (ulong *) malloc(n * sizeof *e->iters);
    if (e->samples == NULL || e->cpu == NULL || e->iters == NULL)
        in->bad = "out of memory";
    return in->bad ? -1 : 0;
}

/* A per-epoch table of cols numbers each (NaN allowed: a count that is
   unavailable or not added to; negative ones if negative_ok; never an
   infinity) into a malloc'd array; NULL when empty. */
static double * get_table(in_buf * in, int rows, int cols, int negative_ok)
{
    double * v;
    int i;
    if (in->bad || rows == 0 || cols == 0)
        return NULL;
    if ((size_t) rows * (size_t) cols > (in->n - in->pos) / 8)
    {
        in->bad = "the record ends early";
        return NULL;
    }
    v = (double *) malloc((size_t) rows * (size_t) cols * sizeof *v);
    if (v == NULL)
        in->bad = "out of memory";
    for (i = 0; !in->bad && i < rows * cols; i++)
    {
        v[i] = get_f64(in);
        if (!isnan(v[i]) && !((negative_ok || v[i] >= 0.0)
                              && v[i] > -INFINITY && v[i] < INFINITY))
            in->bad = "a count is negative or infinite";
    }
    return v;
}

static void get_events(in_buf * in, prof_impl_epochs * e)
{
    int k;
    e->nev = get_count(in, PROF_COUNTERS_MAX, "too many events");
    for (k = 0; k < e->nev && !in->bad; k++)
    {
        char * name = get_str(in);
        e->ev_names[k] = name ? prof_impl_counters_canonical(name) : NULL;
        if (name != NULL && e->ev_names[k] == NULL)
            in->bad = "an unknown event name";
        free(name);
    }
    e->ev = get_table(in, e->got, e->nev, 0);
}

/* A string into dst (size bytes) if ok(string) holds; else the record is
   bad (why). */
static void get_checked(in_buf * in, char * dst, size_t size,
        int (*ok)(const char *, const char *), const char * why)
{
    char * s = get_str(in);
    if (s != NULL && !ok(s, NULL) && !in->bad)
        in->bad = why;
    if (s != NULL)
        prof_impl_copy(dst, size, s);
    free(s);
}

/* The user measures and counters: their columns, then the table. */
static void get_user(in_buf * in, prof_impl_epochs * e)
{
    int k;
    e->nuser = get_count(in, PROF_IMPL_USER_COLS, "too many user counters");
    for (k = 0; k < e->nuser && !in->bad; k++)
    {
        prof_impl_user_col * c = &e->user_cols[k];
        get_checked(in, c->name, sizeof c->name, prof_impl_user_name_ok,
                    "a bad user counter name");
        get_checked(in, c->unit, sizeof c->unit, prof_impl_user_unit_ok,
                    "a bad user counter unit");
        c->flags = get_count(in, PROF_USER_RATE | PROF_USER_MEASURE,
                             "user counter flags out of range");
    }
    e->user = get_table(in, e->got, e->nuser, 1);
    e->user_dropped = get_count(in, 1, "a flag is not 0 or 1");
}

static void get_epochs(in_buf * in, prof_impl_epochs * e, char ** name)
{
    char * unit;
    int i;
    memset(e, 0, sizeof *e);
    e->processes = 1;
    *name = get_str(in);
    e->name = *name;
    e->s.epochs = get_count(in, 100000, "the epochs asked for are out of range");
    e->s.batch = get_time(in, 0);
    unit = get_str(in);
    if (unit != NULL)
        prof_impl_copy(e->s.unit, sizeof e->s.unit, unit);
    free(unit);
    unit = get_str(in);
    if (unit != NULL && prof_impl_time_unit_ns(unit) == 0.0 && !in->bad)
        in->bad = "an unknown time unit";
    if (unit != NULL)
        prof_impl_copy(e->s.time_unit, sizeof e->s.time_unit, unit);
    free(unit);
    e->s.time_unit_fixed = get_count(in, 1, "a flag is not 0 or 1");
    e->s.complexity_n = get_time(in, 0);
    e->s.budget_s = get_time(in, 0);
    e->s.threads = get_count(in, PROF_THREADS_MAX, "threads out of range");
    e->s.schedule = get_count(in, PROF_SCHEDULE_FIXED, "an unknown schedule");
    if (e->s.threads < 1 && !in->bad)
        in->bad = "threads out of range";
    e->is_baseline = get_count(in, 1, "a flag is not 0 or 1");
    e->got = get_count(in, MAX_EPOCHS, "too many epochs");
    if (in->bad || (size_t) e->got > (in->n - in->pos) / 24
        || alloc_epochs(in, e) != 0)
    {
        if (!in->bad)
            in->bad = "the record ends early";
        return;
    }
    for (i = 0; i < e->got && !in->bad; i++)
    {
        e->samples[i] = get_time(in, 0);
        e->cpu[i] = get_time(in, 1);
        e->iters[i] = (ulong) get_u64(in);
        if (e->iters[i] < 1 && !in->bad)
            in->bad = "an epoch of 0 iterations";
    }
    get_events(in, e);
    get_user(in, e);
    e->spent_ns = get_time(in, 0);
    e->overhead_ns = get_time(in, 0);
    e->net_ns_sum = get_f64(in);
    e->low_epochs = get_count(in, (unsigned long) e->got, "low epochs out of range");
    e->preempted = get_count(in, (unsigned long) e->got,
                             "preempted epochs out of range");
    e->cpu_timed = get_count(in, (unsigned long) e->got - e->preempted,
                             "preempted epochs out of range");
    e->at_max_iters = get_count(in, 1, "a flag is not 0 or 1");
    e->budget_hit = get_count(in, PROF_IMPL_BUDGET_MEASURE
                              | PROF_IMPL_BUDGET_WARMUP,
                              "budget bits out of range");
    e->load = get_f64(in);
    if (!(isnan(e->load) || (e->load >= 0.0 && e->load < 1e9)) && !in->bad)
        in->bad = "a load average out of range";
}

long prof_impl_wire_decode(const unsigned char * d, size_t n,
        prof_impl_wire_record * r, char * msg, size_t size)
{
    in_buf in = { d, n, 0, NULL };
    unsigned long magic, type, payload, sum;
    memset(r, 0, sizeof *r);
    if (n < HEADER)
        return 0;
    magic = get_u32(&in);
    type = get_u32(&in);
    payload = get_u32(&in);
    sum = get_u32(&in);
    if (magic != MAGIC || type < PROF_IMPL_WIRE_BEGIN
        || type > PROF_IMPL_WIRE_COMPARE || payload > MAX_PAYLOAD)
    {
        prof_impl_copy(msg, size, magic != MAGIC ? "not a worker record"
                       : payload > MAX_PAYLOAD ? "a record is too long"
                       : "an unknown record type");
        return -1;
    }
    if (n - HEADER < payload)
        return 0;
    if (fnv1a(d + HEADER, payload) != sum)
    {
        prof_impl_copy(msg, size, "a record's checksum is wrong");
        return -1;
    }
    in.n = HEADER + payload;
    r->type = (int) type;
    r->suite = get_count(&in, 1000000, "a suite number is out of range");
    r->index = get_count(&in, 100000000, "a benchmark number is out of range");
    if (type == PROF_IMPL_WIRE_BEGIN)
        r->name = get_str(&in);
    else
    {
        get_epochs(&in, &r->a, &r->name);
        if (type == PROF_IMPL_WIRE_COMPARE)
            get_epochs(&in, &r->b, &r->name_b);
    }
    if (!in.bad && in.pos != in.n)
        in.bad = "a record has bytes left over";
    if (in.bad)
    {
        prof_impl_copy(msg, size, in.bad);
        prof_impl_wire_free(r);
        return -1;
    }
    return (long) in.n;
}

void prof_impl_wire_free(prof_impl_wire_record * r)
{
    prof_impl_epochs_free(&r->a);
    prof_impl_epochs_free(&r->b);
    free(r->name);
    free(r->name_b);
    memset(r, 0, sizeof *r);
}
