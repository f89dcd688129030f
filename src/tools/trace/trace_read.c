/*
    Trace reader: see trace_read.h. The input is read through a window
    (trace_input.c; the whole file when it is in memory); chunks are parsed as they come, events
    are turned into zones with a stack per thread, and each zone goes to the
    handler when it begins and when it ends.
    SPDX-License-Identifier: MIT
*/
#include "trace_read.h"
#include "trace_input.h"
#include "trace_elf.h"
#include "trace_map.h"
#include "internal.h"
#include "trace_format.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* MAX_HEADER: a header_size this reader believes (64 in versions 1 and 2):
   more would make it read and hold that much before the first chunk. */
enum { MAX_SMALL_CHUNK = 64 << 20, MAX_HEADER = 4096 };

/* ---- state ----------------------------------------------------------------- */

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
} pt_tstate;

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
    pt_tstate * ts;
    size_t tcap, tscap;
    pt_symbols * syms;
    unsigned long wcount[W_KINDS];
    size_t zcap;        /* pt_read: capacity of t->zones */
    int oom;            /* out of memory once: zones or names were lost */
    pt_src src;
};

static void vwarn(pt_trace * t, int kind, const char * fmt, va_list ap)
{
    pt_state * s = t->st;
    unsigned max = s->o->max_warnings_per_kind ? s->o->max_warnings_per_kind : 10;
    t->warnings++;
    if (++s->wcount[kind] > max || s->o->warn == NULL)
        return;
    fputs("prof-trace: ", s->o->warn);
    vfprintf(s->o->warn, fmt, ap);
    fputc('\n', s->o->warn);
}

static void warn(pt_trace * t, int kind, const char * fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vwarn(t, kind, fmt, ap);
    va_end(ap);
}

static void symbols_warn(void * ctx, const char * message)
{
    warn((pt_trace *) ctx, W_STRING, "%s", message);
}

static int64_t rel_ticks(const pt_state * s, uint64_t ticks61)
{
    uint64_t d = (ticks61 - s->start61) & PROF_TF_TICK_MASK;
    /* a little before the start (another core's counter): clamp to 0 */
    return d >= (UINT64_C(1) << (PROF_TF_TICK_BITS - 1)) ? 0 : (int64_t) d;
}

static uint64_t rd64(const unsigned char * p) { uint64_t v; memcpy(&v, p, 8); return v; }
static uint32_t rd32(const unsigned char * p) { uint32_t v; memcpy(&v, p, 4); return v; }

/* ---- names ----------------------------------------------------------------- */

static const char * made_name(pt_state * s, uint64_t key, unsigned cls,
                              const char * fmt)
{
    void ** slot = pt_map_find(&s->made, key * 4 + cls, 1);
    if (slot == NULL)
    {
        s->oom = 1;
        return "?";
    }
    if (*slot == NULL)
    {
        char buf[64];
        snprintf(buf, sizeof buf, fmt, (unsigned long long) key);
        *slot = prof_impl_strdup(buf);
        if (*slot == NULL)
        {
            s->oom = 1;
            return "?";
        }
        s->made.n++;
    }
    return (const char *) *slot;
}

/* The label string of key, or NULL if the file has none. */
static const char * label_of(pt_state * s, uint64_t key)
{
    void ** v = pt_map_find(&s->strings, key, 0);
    return v != NULL ? (const char *) *v : NULL;
}

static const char * code_name(pt_trace * t, uint64_t key)
{
    pt_state * s = t->st;
    const char * name = NULL;
    void ** slot = pt_map_find(&s->names, key, 0);
    if (slot != NULL)
        return (const char *) *slot;
    if (s->o->resolve_symbols && s->syms != NULL)
        name = pt_symbols_name(s->syms, key);
    if (name == NULL)
        name = made_name(s, key, 2, "0x%llx");
    slot = pt_map_find(&s->names, key, 1);
    if (slot != NULL)
    {
        *slot = (void *) name;
        s->names.n++;
    }
    else
        s->oom = 1;
    return name;
}

static const char * zone_name(pt_trace * t, uint64_t key, unsigned cls)
{
    const char * name;
    if (cls == 2)
        return code_name(t, key);
    if (key == 0)
        return "(null)";
    name = label_of(t->st, key);
    if (name != NULL)
        return name;
    warn(t, W_STRING, "no string for the label at 0x%llx (its chunk is "
         "lost); named by its address", (unsigned long long) key);
    return made_name(t->st, key, cls, "label@0x%llx");
}

/* ---- zones ------------------------------------------------------------------ */

static pt_tstate * thread_of(pt_trace * t, uint32_t tid, size_t * index)
{
    pt_state * s = t->st;
    void ** slot = pt_map_find(&s->tids, tid, 1);
    size_t i;
    if (slot == NULL)
    {
        s->oom = 1;
        return NULL;
    }
    if (*slot == NULL)
    {
        if (prof_impl_grow(&t->threads, &s->tcap, t->nthreads + 1, sizeof *t->threads) != 0
            || prof_impl_grow(&s->ts, &s->tscap, t->nthreads + 1, sizeof *s->ts) != 0)
        {
            s->oom = 1;
            return NULL;
        }
        i = t->nthreads++;
        memset(&t->threads[i], 0, sizeof t->threads[i]);
        memset(&s->ts[i], 0, sizeof s->ts[i]);
        t->threads[i].tid = tid;
        *slot = (void *) (size_t) (i + 1);
        s->tids.n++;
    }
    i = (size_t) *slot - 1;
    *index = i;
    return &s->ts[i];
}

static const char kinds[3] = { PT_KIND_ZONE, PT_KIND_FUNC, PT_KIND_INSTRUMENT };

static void zone_init(pt_trace * t, pt_zone * z, size_t thread, unsigned cls,
                      uint64_t key, int64_t begin, size_t depth)
{
    z->thread = (uint32_t) thread;
    z->kind = kinds[cls];
    z->flags = 0;
    z->depth = (uint16_t) (depth > 65535 ? 65535 : depth);
    z->name = zone_name(t, key, cls);
    z->begin = z->end = begin;
    z->child = 0;
    z->seq = t->nzones++;
}

static int zone_begin(pt_trace * t, pt_tstate * ts, size_t thread, unsigned cls,
                      uint64_t key, int64_t now)
{
    pt_state * s = t->st;
    pt_open * o;
    if (prof_impl_grow(&ts->stack, &ts->cap, ts->depth + 1, sizeof *ts->stack) != 0)
    {
        s->oom = 1;
        return -1;
    }
    o = &ts->stack[ts->depth++];
    o->key = key;
    o->cls = (uint8_t) cls;
    zone_init(t, &o->z, thread, cls, key, now, ts->depth - 1);
    if (s->h.begin != NULL)
        s->h.begin(s->h.ctx, t, &o->z);
    return 0;
}

/* Close the innermost open zone of thread ts at time `end`. */
static void zone_pop(pt_trace * t, pt_tstate * ts, int64_t end, uint8_t flag)
{
    pt_state * s = t->st;
    pt_zone * z = &ts->stack[--ts->depth].z;
    z->end = end < z->begin ? z->begin : end;
    z->flags |= flag;
    if (ts->depth > 0)
        ts->stack[ts->depth - 1].z.child += z->end - z->begin;
    if (s->h.zone != NULL)
        s->h.zone(s->h.ctx, t, z);
}

static int same_zone(pt_state * s, const pt_open * o, unsigned cls, uint64_t key)
{
    const char * a, * b;
    if (o->cls != cls)
        return 0;
    if (o->key == key)
        return 1;
    if (cls == 2)
        return 0;
    /* the same text at two addresses (two translation units) */
    a = label_of(s, o->key);
    b = label_of(s, key);
    return a != NULL && b != NULL && strcmp(a, b) == 0;
}

/* An end: closes the innermost open zone of that name (a few levels down;
   the zones above it are flagged), or makes a zone with no begin. */
static void zone_end(pt_trace * t, pt_tstate * ts, size_t ti, unsigned cls,
                     uint64_t key, int64_t now)
{
    pt_state * s = t->st;
    size_t i, lim = ts->depth > 256 ? ts->depth - 256 : 0;
    pt_zone z;
    for (i = ts->depth; i > lim; i--)
        if (same_zone(s, &ts->stack[i - 1], cls, key))
            break;
    if (i > lim)
    {
        while (ts->depth > i)
        {
            warn(t, W_MATCH, "thread %u: '%s' has no end; closed at the end of "
                 "'%s' (marked *)", t->threads[ti].tid,
                 ts->stack[ts->depth - 1].z.name, zone_name(t, key, cls));
            zone_pop(t, ts, now, PT_NO_END);
        }
        zone_pop(t, ts, now, 0);
        return;
    }
    warn(t, W_MATCH, "thread %u: end of '%s' without a begin%s%s%s (marked *)",
         t->threads[ti].tid, zone_name(t, key, cls),
         ts->depth ? " (innermost open: '" : "",
         ts->depth ? ts->stack[ts->depth - 1].z.name : "", ts->depth ? "')" : "");
    zone_init(t, &z, ti, cls, key, now, ts->depth);
    z.flags = PT_NO_BEGIN;
    if (s->h.zone != NULL)
        s->h.zone(s->h.ctx, t, &z);
}

/* One event of thread ti (state ts) at ticks61 (modulo 2^61). */
static void on_event(pt_trace * t, pt_tstate * ts, size_t ti, uint64_t ticks61,
                     unsigned type, uint64_t key)
{
    int64_t now = rel_ticks(t->st, ticks61);
    if (type > 5)
    {
        warn(t, W_EVENT, "thread %u: event of unknown type %u ignored",
             t->threads[ti].tid, type);
        return;
    }
    t->events++;
    t->threads[ti].events++;
    if (now < ts->last)
    {
        warn(t, W_ORDER, "thread %u: time goes back by %lld ticks",
             t->threads[ti].tid, (long long) (ts->last - now));
        now = ts->last; /* keep the zones well formed */
    }
    ts->last = now;
    if (now > t->span)
        t->span = now;
    if (type % 2 == 0)
        (void) zone_begin(t, ts, ti, type / 2, key, now);
    else
        zone_end(t, ts, ti, type / 2, key, now);
}

/* ---- chunks ------------------------------------------------------------------ */

/* Version 1 events: 16 bytes each. */
static void on_events1(pt_trace * t, uint32_t tid, const unsigned char * p, size_t n)
{
    size_t i, ti;
    pt_tstate * ts = thread_of(t, tid, &ti);
    for (i = 0; ts != NULL && i + 16 <= n; i += 16)
    {
        uint64_t w = rd64(p + i);
        on_event(t, ts, ti, w >> 3, (unsigned) (w & 7), rd64(p + i + 8));
    }
}

/* Version 2 events: 8-byte words after the chunk's base (see
   trace_format.h), decoded with the thread's ids. */
static void on_events2(pt_trace * t, uint32_t tid, const unsigned char * p, size_t n)
{
    size_t i, ti;
    pt_tstate * ts = thread_of(t, tid, &ti);
    if (ts == NULL)
        return;
    for (i = 0; i + 8 <= n; i += 8)
    {
        uint64_t w = rd64(p + i), id = (w >> 3) & ((UINT64_C(1) << PROF_TF_ID_BITS) - 1);
        unsigned type = (unsigned) (w & 7);
        if (type == PROF_TF_EV_SYNC)
        {
            ts->prev61 = (w >> 3) & PROF_TF_TICK_MASK;
            continue;
        }
        ts->prev61 = (ts->prev61 + (w >> 24)) & PROF_TF_TICK_MASK;
        if (id >= ts->nids && type <= 5)
        {
            warn(t, W_STRING, "thread %u: label number %llu is not defined (its "
                 "chunk is lost): event ignored", tid, (unsigned long long) id);
            continue;
        }
        on_event(t, ts, ti, ts->prev61, type, type <= 5 ? ts->ids[id] : 0);
    }
}

static void on_labels(pt_trace * t, uint32_t tid, const unsigned char * p, size_t n)
{
    size_t ti, i;
    pt_tstate * ts = thread_of(t, tid, &ti);
    uint32_t first, count;
    if (ts == NULL || n < 8)
        return;
    first = rd32(p);
    count = rd32(p + 4);
    if (first > ts->nids || count > (n - 8) / 8
        || first + (uint64_t) count > (UINT64_C(1) << PROF_TF_ID_BITS))
    {
        warn(t, W_CORRUPT, "thread %u: bad label numbers %u..%u (%u defined): "
             "ignored", tid, first, first + count, (unsigned) ts->nids);
        return;
    }
    if (prof_impl_grow(&ts->ids, &ts->idcap, first + (size_t) count, 8) != 0)
    {
        t->st->oom = 1;
        return;
    }
    for (i = 0; i < count; i++)
        ts->ids[first + i] = rd64(p + 8 + 8 * i);
    ts->nids = first + (size_t) count;
}

static void on_strings(pt_trace * t, const unsigned char * p, size_t n, uint64_t at)
{
    pt_state * s = t->st;
    size_t i = 0;
    while (i + 16 <= n)
    {
        uint64_t key = rd64(p + i);
        uint32_t len = rd32(p + i + 8);
        size_t need = 16 + ((size_t) len + 7) / 8 * 8;
        void ** slot;
        char * str;
        if (len > PROF_TF_MAX_STRING || need > n - i)
        {
            warn(t, W_CORRUPT, "bad string entry at offset %llu: rest of the "
                 "chunk ignored", (unsigned long long) (at + i));
            return;
        }
        slot = pt_map_find(&s->strings, key, 1);
        if (slot != NULL && *slot == NULL && (str = (char *) malloc(len + 1)) != NULL)
        {
            memcpy(str, p + i + 16, len);
            str[len] = '\0';
            *slot = str;
            s->strings.n++;
        }
        else if (slot == NULL || *slot == NULL)
            s->oom = 1;
        i += need;
    }
}

static void on_thread_name(pt_trace * t, uint32_t tid, const unsigned char * p,
                           size_t n)
{
    size_t ti, len;
    if (thread_of(t, tid, &ti) == NULL)
        return;
    len = n < sizeof t->threads[ti].name - 1 ? n : sizeof t->threads[ti].name - 1;
    memcpy(t->threads[ti].name, p, len);
    t->threads[ti].name[len] = '\0';
}

static void on_lost(pt_trace * t, uint32_t tid, const unsigned char * p, size_t n)
{
    size_t ti;
    uint64_t k;
    if (n < 8 || thread_of(t, tid, &ti) == NULL)
        return;
    k = rd64(p);
    t->threads[ti].lost += k;
    t->lost += k;
    warn(t, W_TRUNC, "thread %u: the recorder could not write %llu events (see "
         "its profiler: message)", tid, (unsigned long long) k);
}

static void on_end(pt_trace * t, const unsigned char * p, size_t n)
{
    int64_t end;
    uint64_t lost;
    if (n < 24)
        return;
    end = rel_ticks(t->st, rd64(p) & PROF_TF_TICK_MASK);
    lost = rd64(p + 8);
    t->has_end = 1;
    t->end_signal = (int) (rd64(p + 16) & 0xff); /* a later end overrides */
    if (end > t->span)
        t->span = end;
    if (lost > t->lost)
        t->lost = lost;
}

/* A whole chunk other than events. */
static void on_chunk(pt_trace * t, const prof_tf_chunk * c,
                     const unsigned char * p, uint64_t at)
{
    switch (c->type)
    {
    case PROF_TF_STRINGS:
        on_strings(t, p, c->size, at + sizeof *c);
        break;
    case PROF_TF_THREAD:
        on_thread_name(t, c->tid, p, c->size);
        break;
    case PROF_TF_MAPS:
        if (t->st->syms != NULL)
            pt_symbols_maps(t->st->syms, p, c->size, t->process, sizeof t->process);
        break;
    case PROF_TF_LOST:
        on_lost(t, c->tid, p, c->size);
        break;
    case PROF_TF_END:
        on_end(t, p, c->size);
        break;
    case PROF_TF_LABELS:
        on_labels(t, c->tid, p, c->size);
        break;
    default:
        break;
    }
}

static int valid_chunk(const prof_tf_chunk * c)
{
    return c->magic == PROF_TF_CHUNK_MAGIC && c->type >= PROF_TF_EVENTS
           && c->type <= PROF_TF_LABELS && c->size % 8 == 0
           && c->size <= PROF_TF_MAX_CHUNK;
}

/* ---- the chunk loop ------------------------------------------------------------ */

/* 1 if the chunk header c at the read position runs past the input's end. */
static int past_end(const pt_src * s, const prof_tf_chunk * c)
{
    return s->total != UINT64_MAX
           && c->size > s->total - pt_src_offset(s) - sizeof *c;
}

/* From the chunk header at the read position (unreadable, or running past
   the end), look for the next plausible one, 8 bytes on. Returns 1 and
   stops there, or 0 at the end of the input. */
static int resync(pt_src * s)
{
    s->pos += 8;
    for (;;)
    {
        prof_tf_chunk c;
        if (pt_src_need(s, sizeof c) < sizeof c)
            return 0;
        memcpy(&c, s->p + s->pos, sizeof c);
        if (valid_chunk(&c) && !past_end(s, &c))
            return 1;
        s->pos += 8;
    }
}

/* An events chunk's payload (read position at its start): in window-sized
   pieces; a payload cut by the end of the input keeps its whole events,
   said so. */
static void read_events(pt_trace * t, pt_src * s, const prof_tf_chunk * c)
{
    size_t esize = c->type == PROF_TF_EVENTS ? 16 : 8, base = 0;
    uint64_t left = c->size, kept = 0;
    size_t ti;
    int cut = 0;
    pt_tstate * ts = thread_of(t, c->tid, &ti);
    if (c->type == PROF_TF_EVENTS2 && left >= 8)
    {
        if (pt_src_need(s, 8) < 8)
            cut = 1;
        else
        {
            if (ts != NULL)
                ts->prev61 = rd64(s->p + s->pos) & PROF_TF_TICK_MASK;
            s->pos += 8;
            left -= 8;
            base = 8;
        }
    }
    while (!cut && left >= esize)
    {
        size_t n = pt_src_need(s, left < s->window ? (size_t) left : s->window);
        n = ((uint64_t) n > left ? (size_t) left : n) / esize * esize;
        if (n == 0)
        {
            cut = 1;
            break;
        }
        if (esize == 16)
            on_events1(t, c->tid, s->p + s->pos, n);
        else
            on_events2(t, c->tid, s->p + s->pos, n);
        s->pos += n;
        left -= n;
        kept += n / esize;
    }
    if (cut)
        warn(t, W_TRUNC, "the file is cut: last record has %llu of %u bytes; "
             "its %llu whole events kept", (unsigned long long) (base + kept
             * esize + pt_src_need(s, 1)), c->size, (unsigned long long) kept);
    else if (left > 0)
        warn(t, W_CORRUPT, "events chunk of %u bytes is not a whole number of "
             "%zu-byte events: the last %llu bytes ignored", c->size, esize,
             (unsigned long long) left);
    pt_src_skip(s, left);
}

/* The chunk whose header c is at the read position. 0 to go on, -1 at the
   end of the input. */
static int read_chunk(pt_trace * t, pt_src * s, const prof_tf_chunk * c)
{
    uint64_t at = pt_src_offset(s);
    if (past_end(s, c))
    {
        if (resync(s))
        {
            warn(t, W_CORRUPT, "record at offset %llu runs past the end of the "
                 "file: %llu bytes skipped", (unsigned long long) at,
                 (unsigned long long) (pt_src_offset(s) - at));
            return 0;
        }
        if (pt_src_seek(s, at, sizeof *c) != 0)
            return -1;
        /* the file is cut inside its last record: keep what is whole */
        if (c->type != PROF_TF_EVENTS && c->type != PROF_TF_EVENTS2)
        {
            warn(t, W_TRUNC, "the file is cut: last record (type %u) has %llu "
                 "of %u bytes: ignored", c->type, (unsigned long long)
                 (s->total - at - sizeof *c), c->size);
            return -1;
        }
    }
    s->pos += sizeof *c;
    if (c->type == PROF_TF_EVENTS || c->type == PROF_TF_EVENTS2)
        read_events(t, s, c);
    else if (c->size > MAX_SMALL_CHUNK || pt_src_need(s, c->size) < c->size)
    {
        warn(t, W_TRUNC, "the file is cut: last record (type %u) has %zu of %u "
             "bytes: ignored", c->type, pt_src_need(s, c->size), c->size);
        pt_src_skip(s, c->size);
    }
    else
    {
        on_chunk(t, c, s->p + s->pos, at);
        s->pos += c->size;
    }
    return 0;
}

static void read_chunks(pt_trace * t, pt_src * s)
{
    for (;;)
    {
        prof_tf_chunk c;
        size_t have = pt_src_need(s, sizeof c);
        uint64_t at = pt_src_offset(s);
        if (have < sizeof c)
        {
            if (have > 0)
                warn(t, W_TRUNC, "the file is cut: %zu bytes after the last "
                     "record ignored", have);
            break;
        }
        memcpy(&c, s->p + s->pos, sizeof c);
        if (valid_chunk(&c))
        {
            if (read_chunk(t, s, &c) != 0)
                break;
            continue;
        }
        if (!resync(s))
            pt_src_skip(s, pt_src_need(s, 1)); /* to the end */
        warn(t, W_CORRUPT, "unreadable record at offset %llu: %llu bytes "
             "skipped", (unsigned long long) at,
             (unsigned long long) (pt_src_offset(s) - at));
        if (pt_src_need(s, 1) == 0)
            break;
    }
    t->bytes = pt_src_offset(s);
}

/* ---- reading ------------------------------------------------------------------- */

/* The file header: 0, or -1 (after a warning) if this is not a trace file
   that can be read. */
static int read_header(pt_trace * t, pt_src * s)
{
    prof_tf_header h;
    size_t have = pt_src_need(s, sizeof h);
    if (have < sizeof h)
    {
        warn(t, W_CORRUPT, "not a trace file: %zu bytes, shorter than the "
             "header", have);
        return -1;
    }
    memcpy(&h, s->p + s->pos, sizeof h);
    if (memcmp(h.magic, PROF_TF_MAGIC, 8) != 0)
    {
        warn(t, W_CORRUPT, "not a trace file (no %.8s header)", PROF_TF_MAGIC);
        return -1;
    }
    if (h.bom != PROF_TF_BOM || h.version < 1 || h.version > PROF_TF_VERSION
        || h.header_size < sizeof h || h.header_size % 8 != 0
        || h.header_size > MAX_HEADER || pt_src_need(s, h.header_size) < h.header_size)
    {
        warn(t, W_CORRUPT, "trace file of another byte order or version "
             "(bom %08x, version %u, header %u bytes; this prof-trace reads "
             "versions 1 to %u): not read", h.bom, h.version, h.header_size,
             PROF_TF_VERSION);
        return -1;
    }
    t->version = h.version;
    t->tick_rate = h.tick_rate;
    if (!(h.tick_rate >= 1e3 && h.tick_rate <= 1e12))
    {
        warn(t, W_CORRUPT, "implausible tick rate %g/s in the header: "
             "using 1e9 (times may be wrong)", h.tick_rate);
        t->tick_rate = 1e9;
    }
    t->pid = h.pid;
    t->start_unix_ns = h.start_unix_ns;
    t->st->start61 = h.start_ticks & PROF_TF_TICK_MASK;
    s->pos += h.header_size;
    return 0;
}

/* After the last chunk: how the trace ended, the zones still open. */
static void finish_trace(pt_trace * t)
{
    pt_state * s = t->st;
    size_t i;
    if (!t->has_end)
        warn(t, W_TRUNC, "no end record: the program did not finish normally "
             "(killed, or an exec from code built without tracing) or the "
             "file is cut; what was written is shown");
    else if (t->end_signal != 0)
        warn(t, W_TRUNC, "the program was ended by signal %d; events recorded "
             "until then are shown", t->end_signal);
    for (i = 0; i < t->nthreads; i++)
    {
        pt_tstate * ts = &s->ts[i];
        while (ts->depth > 0)
        {
            warn(t, W_MATCH, "thread %u: '%s' still open at the end of the "
                 "trace (marked *)", t->threads[i].tid,
                 ts->stack[ts->depth - 1].z.name);
            zone_pop(t, ts, t->span, PT_NO_END);
        }
    }
}

/* "... and N more" for each kind of warning past the limit, and the loss. */
static void warning_totals(const pt_trace * t)
{
    const pt_state * s = t->st;
    unsigned max = s->o->max_warnings_per_kind ? s->o->max_warnings_per_kind : 10;
    size_t i;
    if (s->o->warn == NULL)
        return;
    for (i = 0; i < W_KINDS; i++)
        if (s->wcount[i] > max)
            fprintf(s->o->warn, "prof-trace: ... and %lu more warnings like "
                    "these\n", s->wcount[i] - max);
    if (t->lost > 0)
        fprintf(s->o->warn, "prof-trace: %llu events were lost by the "
                "recorder: zones around them may be marked unmatched\n",
                (unsigned long long) t->lost);
}

/* Set up t to read with o and h. -3 if out of memory (after a message). */
static int start_trace(pt_trace * t, const pt_options * o, const pt_handler * h)
{
    static const pt_options defaults = { NULL, 0, 0, NULL, 0 };
    memset(t, 0, sizeof *t);
    t->st = (pt_state *) calloc(1, sizeof *t->st);
    if (t->st == NULL)
    {
        if (o != NULL && o->warn != NULL)
            fprintf(o->warn, "prof-trace: out of memory\n");
        return -3;
    }
    t->st->o = o != NULL ? o : &defaults;
    if (h != NULL)
        t->st->h = *h;
    t->st->syms = pt_symbols_new(t->st->o->binaries, symbols_warn, t);
    t->st->oom = t->st->syms == NULL;
    return 0;
}

/* Out of memory at any point (sticky): what was read is not the trace,
   and nothing is to be made of it as if it were. -3 after a message. */
static int out_of_memory(pt_trace * t)
{
    pt_state * s = t->st;
    if (!s->oom && !s->src.oom)
        return 0;
    if (s->o->warn != NULL)
        fprintf(s->o->warn, "prof-trace: out of memory while reading the "
                "trace: zones or names were lost\n");
    return -3;
}

static int read_all(pt_trace * t)
{
    if (read_header(t, &t->st->src) != 0)
        return out_of_memory(t) ? -3 : -1;
    read_chunks(t, &t->st->src);
    finish_trace(t);
    warning_totals(t);
    return out_of_memory(t);
}

int pt_stream(const char * path, const pt_options * o, const pt_handler * h,
              pt_trace * t)
{
    pt_src * s;
    int rc = start_trace(t, o, h);
    if (rc != 0)
        return rc;
    s = &t->st->src;
    rc = pt_src_open(s, path, t->st->o->window);
    if (rc == -3)
        return out_of_memory(t);
    if (rc != 0 || (rc = read_all(t)) != 0)
        return rc;
    if (ferror(s->f))
    {
        warn(t, W_TRUNC, "reading %s failed after %llu bytes: %s", path,
             (unsigned long long) t->bytes, strerror(errno));
        return -1;
    }
    return 0;
}

/* pt_read's handler: every zone into t->zones, at its seq. */
static void collect(void * ctx, const pt_trace * ct, const pt_zone * z)
{
    pt_trace * t = (pt_trace *) ctx;
    (void) ct;
    if (prof_impl_grow(&t->zones, &t->st->zcap, (size_t) z->seq + 1, sizeof *z) == 0)
        t->zones[z->seq] = *z;
    else
        t->st->oom = 1;
}

int pt_read(const unsigned char * d, size_t n, const pt_options * o, pt_trace * t)
{
    pt_handler h;
    h.ctx = t;
    h.begin = collect;
    h.zone = collect;
    if (start_trace(t, o, &h) != 0)
        return -3;
    pt_src_memory(&t->st->src, d, n);
    return read_all(t);
}

void pt_free(pt_trace * t)
{
    pt_state * s = t->st;
    size_t i;
    if (s != NULL)
    {
        for (i = 0; i < t->nthreads; i++)
        {
            free(s->ts[i].stack);
            free(s->ts[i].ids);
        }
        free(s->ts);
        pt_map_free(&s->strings, 1);
        pt_map_free(&s->names, 0);
        pt_map_free(&s->made, 1);
        pt_map_free(&s->tids, 0);
        pt_symbols_free(s->syms);
        pt_src_close(&s->src);
        free(s);
    }
    free(t->zones);
    free(t->threads);
    memset(t, 0, sizeof *t);
}
