/*
    Trace reader: see trace_read.h. The input is read through a window
    (trace_input.c; the whole file when it is in memory); chunks are parsed
    here as they come, and their events handed to trace_zones.c, which
    turns them into zones with a stack per thread and hands each zone to
    the handler when it begins and when it ends.
    SPDX-License-Identifier: MIT
*/
#include "trace_zones.h"
#include "internal.h"
#include "trace_format.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* MAX_HEADER: a header_size this reader believes (64 in versions 1 and 2):
   more would make it read and hold that much before the first chunk. */
enum { MAX_SMALL_CHUNK = 64 << 20, MAX_HEADER = 4096 };

static void symbols_warn(void * ctx, const char * message)
{
    pt_warn((pt_trace *) ctx, W_STRING, "%s", message);
}

/* ---- chunks ------------------------------------------------------------------ */

/* Version 1 events: 16 bytes each. */
static void on_events1(pt_trace * t, uint32_t tid, const unsigned char * p, size_t n)
{
    size_t i, ti;
    pt_tstate * ts = pt_thread_of(t, tid, &ti);
    for (i = 0; ts != NULL && i + 16 <= n; i += 16)
    {
        uint64_t w = pt_rd64(p + i);
        pt_on_event(t, ts, ti, w >> 3, (unsigned) (w & 7), pt_rd64(p + i + 8));
    }
}

/* Version 2 events: 8-byte words after the chunk's base (see
   trace_format.h), decoded with the thread's ids. */
static void on_events2(pt_trace * t, uint32_t tid, const unsigned char * p, size_t n)
{
    size_t i, ti;
    pt_tstate * ts = pt_thread_of(t, tid, &ti);
    if (ts == NULL)
        return;
    for (i = 0; i + 8 <= n; i += 8)
    {
        uint64_t w = pt_rd64(p + i), id = (w >> 3) & ((UINT64_C(1) << PROF_TF_ID_BITS) - 1);
        unsigned type = (unsigned) (w & 7);
        if (ts->ext_left > 0)
        {
            pt_ext_word(t, ts, ti, w); /* an extension record's payload */
            continue;
        }
        if (type == PROF_TF_EV_SYNC)
        {
            ts->prev61 = (w >> 3) & PROF_TF_TICK_MASK;
            continue;
        }
        ts->prev61 = (ts->prev61 + (w >> 24)) & PROF_TF_TICK_MASK;
        if (type == PROF_TF_EV_EXT && t->version >= 3)
        {
            pt_ext_begin(t, ts, ti, w);
            continue;
        }
        if (id >= ts->nids && type <= 5)
        {
            pt_warn(t, W_STRING, "thread %u: label number %llu is not defined (its "
                    "chunk is lost): event ignored", tid, (unsigned long long) id);
            continue;
        }
        pt_on_event(t, ts, ti, ts->prev61, type, type <= 5 ? ts->ids[id] : 0);
    }
}

static void on_labels(pt_trace * t, uint32_t tid, const unsigned char * p, size_t n)
{
    size_t ti, i;
    pt_tstate * ts = pt_thread_of(t, tid, &ti);
    uint32_t first, count;
    if (ts == NULL || n < 8)
        return;
    first = pt_rd32(p);
    count = pt_rd32(p + 4);
    if (first > ts->nids || count > (n - 8) / 8
        || first + (uint64_t) count > (UINT64_C(1) << PROF_TF_ID_BITS))
    {
        pt_warn(t, W_CORRUPT, "thread %u: bad label numbers %u..%u (%u defined): "
                "ignored", tid, first, first + count, (unsigned) ts->nids);
        return;
    }
    if (prof_impl_grow(&ts->ids, &ts->idcap, first + (size_t) count, 8) != 0)
    {
        t->st->oom = 1;
        return;
    }
    for (i = 0; i < count; i++)
        ts->ids[first + i] = pt_rd64(p + 8 + 8 * i);
    ts->nids = first + (size_t) count;
}

static void on_strings(pt_trace * t, const unsigned char * p, size_t n, uint64_t at)
{
    pt_state * s = t->st;
    size_t i = 0;
    while (i + 16 <= n)
    {
        uint64_t key = pt_rd64(p + i);
        uint32_t len = pt_rd32(p + i + 8);
        size_t need = 16 + ((size_t) len + 7) / 8 * 8;
        void ** slot;
        char * str;
        if (len > PROF_TF_MAX_STRING || need > n - i)
        {
            pt_warn(t, W_CORRUPT, "bad string entry at offset %llu: rest of the "
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
    if (pt_thread_of(t, tid, &ti) == NULL)
        return;
    len = n < sizeof t->threads[ti].name - 1 ? n : sizeof t->threads[ti].name - 1;
    memcpy(t->threads[ti].name, p, len);
    t->threads[ti].name[len] = '\0';
}

static void on_lost(pt_trace * t, uint32_t tid, const unsigned char * p, size_t n)
{
    size_t ti;
    uint64_t k;
    if (n < 8 || pt_thread_of(t, tid, &ti) == NULL)
        return;
    k = pt_rd64(p);
    t->threads[ti].lost += k;
    t->lost += k;
    pt_warn(t, W_TRUNC, "thread %u: the recorder could not write %llu events (see "
            "its profiler: message)", tid, (unsigned long long) k);
}

static void on_end(pt_trace * t, const unsigned char * p, size_t n)
{
    int64_t end;
    uint64_t lost;
    if (n < 24)
        return;
    end = pt_rel_ticks(t->st, pt_rd64(p) & PROF_TF_TICK_MASK);
    lost = pt_rd64(p + 8);
    t->has_end = 1;
    t->end_signal = (int) (pt_rd64(p + 16) & 0xff); /* a later end overrides */
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
        pt_vmas_add(t, t->pid, 0, p, c->size);
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
        pt_sampling_chunk(t, c, p);
        break;
    }
}

static int valid_chunk(const prof_tf_chunk * c)
{
    return c->magic == PROF_TF_CHUNK_MAGIC && c->type >= PROF_TF_EVENTS
           && c->type <= PROF_TF_LAST_CHUNK && c->size % 8 == 0
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
    pt_tstate * ts = pt_thread_of(t, c->tid, &ti);
    if (ts != NULL)
        pt_ext_cut(t, ts, ti); /* no record spans two chunks */
    if (c->type == PROF_TF_EVENTS2 && left >= 8)
    {
        if (pt_src_need(s, 8) < 8)
            cut = 1;
        else
        {
            if (ts != NULL)
                ts->prev61 = pt_rd64(s->p + s->pos) & PROF_TF_TICK_MASK;
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
        pt_warn(t, W_TRUNC, "the file is cut: last record has %llu of %u bytes; "
                "its %llu whole events kept", (unsigned long long) (base + kept
                * esize + pt_src_need(s, 1)), c->size, (unsigned long long) kept);
    else if (left > 0)
        pt_warn(t, W_CORRUPT, "events chunk of %u bytes is not a whole number of "
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
            pt_warn(t, W_CORRUPT, "record at offset %llu runs past the end of the "
                    "file: %llu bytes skipped", (unsigned long long) at,
                    (unsigned long long) (pt_src_offset(s) - at));
            return 0;
        }
        if (pt_src_seek(s, at, sizeof *c) != 0)
            return -1;
        /* the file is cut inside its last record: keep what is whole */
        if (c->type != PROF_TF_EVENTS && c->type != PROF_TF_EVENTS2)
        {
            pt_warn(t, W_TRUNC, "the file is cut: last record (type %u) has %llu "
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
        pt_warn(t, W_TRUNC, "the file is cut: last record (type %u) has %zu of %u "
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
                pt_warn(t, W_TRUNC, "the file is cut: %zu bytes after the last "
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
        pt_warn(t, W_CORRUPT, "unreadable record at offset %llu: %llu bytes "
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
        pt_warn(t, W_CORRUPT, "not a trace file: %zu bytes, shorter than the "
                "header", have);
        return -1;
    }
    memcpy(&h, s->p + s->pos, sizeof h);
    if (memcmp(h.magic, PROF_TF_MAGIC, 8) != 0)
    {
        pt_warn(t, W_CORRUPT, "not a trace file (no %.8s header)", PROF_TF_MAGIC);
        return -1;
    }
    if (h.bom != PROF_TF_BOM || h.version < 1 || h.version > PROF_TF_VERSION
        || h.header_size < sizeof h || h.header_size % 8 != 0
        || h.header_size > MAX_HEADER || pt_src_need(s, h.header_size) < h.header_size)
    {
        pt_warn(t, W_CORRUPT, "trace file of another byte order or version "
                "(bom %08x, version %u, header %u bytes; this prof-trace reads "
                "versions 1 to %u): not read", h.bom, h.version, h.header_size,
                PROF_TF_VERSION);
        return -1;
    }
    t->version = h.version;
    t->tick_rate = h.tick_rate;
    if (!(h.tick_rate >= 1e3 && h.tick_rate <= 1e12))
    {
        pt_warn(t, W_CORRUPT, "implausible tick rate %g/s in the header: "
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
    size_t i;
    for (i = 0; i < t->nthreads; i++)
        pt_ext_cut(t, &t->st->ts[i], i); /* a record the end cut */
    if (!t->has_end)
        pt_warn(t, W_TRUNC, "no end record: the program did not finish normally "
                "(killed, or an exec from code built without tracing) or the "
                "file is cut; what was written is shown");
    else if (t->end_signal != 0)
        pt_warn(t, W_TRUNC, "the program was ended by signal %d; events recorded "
                "until then are shown", t->end_signal);
    pt_close_open_zones(t);
    pt_samples_finish(t);
    pt_symbols_finish(t->st->syms);
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
    pt_warning_totals(t);
    return out_of_memory(t);
}

void pt_handler_init(pt_handler * h, void * ctx)
{
    memset(h, 0, sizeof *h);
    h->ctx = ctx;
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
        pt_warn(t, W_TRUNC, "reading %s failed after %llu bytes: %s", path,
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
    pt_handler_init(&h, t);
    h.begin = collect;
    h.zone = collect;
    if (start_trace(t, o, &h) != 0)
        return -3;
    pt_src_memory(&t->st->src, d, n);
    return read_all(t);
}

int64_t pt_whole_ns(const pt_trace * t, int64_t ticks)
{
    double ns = (double) ticks * (1e9 / t->tick_rate);
    if (ns >= 9e18)
        return INT64_C(9000000000000000000); /* saturated, still monotonic */
    return ns < 0.5 ? 0 : (int64_t) (ns + 0.5);
}

void pt_free(pt_trace * t)
{
    pt_state * s = t->st;
    if (s != NULL)
    {
        pt_state_release(t);
        pt_src_close(&s->src);
        free(s);
    }
    pt_samples_release(t);
    free(t->zones);
    free(t->threads);
    memset(t, 0, sizeof *t);
}
