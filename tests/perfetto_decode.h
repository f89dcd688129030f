/*
    A protobuf decoder of our own for the Perfetto traces prof-trace writes,
    written against the field numbers of Perfetto's public .proto files
    (protos/perfetto/trace/trace.proto, trace_packet.proto,
    track_event/track_event.proto, track_event/track_descriptor.proto,
    track_event/process_descriptor.proto, thread_descriptor.proto,
    interned_data/interned_data.proto), independent of the writer's code:

      Trace.packet = 1 (TracePacket)
      TracePacket.timestamp = 8, .trusted_packet_sequence_id = 10,
        .track_event = 11, .interned_data = 12, .sequence_flags = 13,
        .track_descriptor = 60
      TrackEvent.category_iids = 3, .type = 9 (SLICE_BEGIN 1, SLICE_END 2,
        INSTANT 3, COUNTER 4), .name_iid = 10, .track_uuid = 11,
        .debug_annotations = 4, .name = 23, .counter_value = 30,
        .double_counter_value = 44
      InternedData.event_categories = 1, .event_names = 2
        (EventCategory / EventName: iid = 1, name = 2), .function_names = 5,
        .mapping_paths = 17 (InternedString: iid = 1, str = 2), .frames = 6
        (Frame: iid = 1, function_name_id = 2, mapping_id = 3, rel_pc = 4),
        .callstacks = 7 (Callstack: iid = 1, frame_ids = 2, root first),
        .mappings = 19 (Mapping: iid = 1, build_id = 2, start_offset = 3,
        start = 4, end = 5, load_bias = 6, path_string_ids = 7,
        exact_offset = 8), .build_ids = 16 (InternedString)
      TracePacket.perf_sample = 66 (PerfSample: pid = 2, tid = 3,
        callstack_iid = 4)
      TrackDescriptor.uuid = 1, .name = 2, .process = 3, .thread = 4,
        .counter = 8 (a counter track: its events are COUNTER ones)
      ProcessDescriptor.pid = 1, .process_name = 6
      ThreadDescriptor.pid = 1, .tid = 2, .thread_name = 5

    pf_decode checks what a Perfetto importer relies on: well-formed wire
    format, one packet sequence whose first packet clears the incremental
    state, every interned name and category defined before use, every
    track described before its first event (described again: its later
    name replaces the first, as a renamed thread's), and per track slices that
    begin and end like a stack with times that never go back; of the
    samples, every callstack, frame, function name and mapping defined
    before use, and each sample's stack resolved to "tid;root;...;leaf"
    names, counted per distinct stack (d->stacks). Used by
    test_trace_perfetto and the fuzz target's round trip.
    SPDX-License-Identifier: MIT
*/
#ifndef PROF_TEST_PERFETTO_DECODE_H
#define PROF_TEST_PERFETTO_DECODE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

enum { PF_MAX_NAMES = 4096, PF_MAX_TRACKS = 256, PF_MAX_DEPTH = 512,
       PF_MAX_STACKS = 256, PF_MAX_FRAMES = 32, PF_MAX_MAPS = 64,
       PF_MAX_PARTS = 512 };

typedef struct { const unsigned char * p, * end; } pf_in;

typedef struct
{
    uint64_t uuid;
    char name[64];
    uint64_t tid;
    uint64_t last_ts;
    uint64_t stack[PF_MAX_DEPTH];  /* name iids of the open slices */
    uint64_t begin_ts[PF_MAX_DEPTH];
    size_t depth;
    int counter;                   /* a counter track */
} pf_track;

typedef struct
{
    char error[256];
    size_t packets, begins, ends, instants, unmatched;
    size_t counters, annotations;  /* counter values, debug annotations */
    double last_counter;           /* the last counter value */
    char names[PF_MAX_NAMES][48];  /* by iid (1..) */
    unsigned char named[PF_MAX_NAMES]; /* iid defined */
    int cats[8];                   /* categories defined, by iid */
    pf_track tracks[PF_MAX_TRACKS];
    size_t ntracks;
    int cleared;                   /* incremental state cleared */
    /* the last slice ended (for the tests) */
    uint64_t last_begin, last_end, last_name;
    /* samples: function names and frames by iid, callstacks by iid (frame
       iids root first), the resolved stacks and their counts */
    char fnames[PF_MAX_NAMES][48];
    uint64_t frame_fn[PF_MAX_NAMES];    /* 0: not defined */
    int mappings[PF_MAX_MAPS];
    char parts[PF_MAX_PARTS][48];       /* mapping_paths by iid */
    char map_path[PF_MAX_MAPS][160];    /* "/" + parts joined by "/" */
    uint64_t frame_map[PF_MAX_NAMES];   /* each frame's mapping */
    uint64_t frame_pc[PF_MAX_NAMES];    /* and rel_pc */
    struct { uint64_t start, end, exact, bias, bid; } map[PF_MAX_MAPS];
    unsigned char bids[PF_MAX_MAPS][64]; /* build_ids by iid, raw */
    size_t bid_len[PF_MAX_MAPS];        /* 0: not defined */
    uint64_t cs[PF_MAX_STACKS][PF_MAX_FRAMES];
    size_t cs_n[PF_MAX_STACKS];         /* 0: not defined */
    struct { char text[400]; size_t count; } stacks[PF_MAX_STACKS];
    size_t nstacks, samples;
} pf_trace;

static inline int pf_varint(pf_in * in, uint64_t * v)
{
    int shift = 0;
    *v = 0;
    while (in->p < in->end && shift < 64)
    {
        unsigned char b = *in->p++;
        *v |= (uint64_t) (b & 0x7f) << shift;
        if (!(b & 0x80))
            return 0;
        shift += 7;
    }
    return -1;
}

/* The next field: its number, wire type and value (varint) or bytes. */
static inline int pf_field(pf_in * in, unsigned * field, unsigned * wire,
                           uint64_t * v, pf_in * sub)
{
    uint64_t key;
    *v = 0; /* set on every path (gcc's -Wmaybe-uninitialized, inlined) */
    sub->p = sub->end = NULL;
    if (pf_varint(in, &key) != 0 || (key >> 3) == 0)
        return -1;
    *field = (unsigned) (key >> 3);
    *wire = (unsigned) (key & 7);
    if (*wire == 0)
        return pf_varint(in, v);
    if (*wire == 2)
    {
        if (pf_varint(in, v) != 0 || *v > (uint64_t) (in->end - in->p))
            return -1;
        sub->p = in->p;
        sub->end = in->p + *v;
        in->p += *v;
        return 0;
    }
    if (*wire == 1 || *wire == 5)
    {
        size_t n = *wire == 1 ? 8 : 4, i;
        if ((size_t) (in->end - in->p) < n)
            return -1;
        for (i = 0; i < n; i++) /* little-endian */
            *v |= (uint64_t) in->p[i] << (8 * i);
        in->p += n;
        return 0;
    }
    return -1;
}

#define PF_FAIL(d, ...) (snprintf((d)->error, sizeof (d)->error, __VA_ARGS__), -1)

static inline void pf_copy(char * to, size_t size, const pf_in * s)
{
    size_t n = (size_t) (s->end - s->p);
    if (n >= size)
        n = size - 1;
    memcpy(to, s->p, n);
    to[n] = '\0';
}

/* An EventName or EventCategory (iid = 1, name = 2). */
static inline int pf_interned_entry(pf_trace * d, pf_in in, int category)
{
    unsigned f, w;
    uint64_t v, iid = 0;
    pf_in s, name = { NULL, NULL };
    while (in.p < in.end)
    {
        if (pf_field(&in, &f, &w, &v, &s) != 0)
            return PF_FAIL(d, "bad interned entry");
        if (f == 1 && w == 0)
            iid = v;
        else if (f == 2 && w == 2)
            name = s;
    }
    if (iid == 0 || name.p == NULL)
        return PF_FAIL(d, "interned entry without iid or name");
    if (category)
    {
        if (iid >= 8)
            return PF_FAIL(d, "category iid %llu", (unsigned long long) iid);
        d->cats[iid] = 1;
    }
    else if (iid < PF_MAX_NAMES)
    {
        pf_copy(d->names[iid], sizeof d->names[iid], &name);
        d->named[iid] = 1;
    }
    return 0;
}

/* A Frame, Callstack or Mapping (kind 6, 7, 19), a function name (5) or
   a mapping path's part (17). */
static inline int pf_stack_entry(pf_trace * d, pf_in in, unsigned kind)
{
    unsigned f, w;
    uint64_t v = 0, iid = 0, a = 0, b = 0, c = 0, fr[PF_MAX_FRAMES];
    uint64_t m[9] = { 0 };    /* a Mapping's varint fields by number */
    size_t n = 0;
    pf_in s = { NULL, NULL }, name = { NULL, NULL };
    while (in.p < in.end)
    {
        if (pf_field(&in, &f, &w, &v, &s) != 0)
            return PF_FAIL(d, "bad interned %u", kind);
        if (f == 1 && w == 0)
            iid = v;
        else if ((kind == 5 || kind == 17 || kind == 16) && f == 2 && w == 2)
            name = s;
        else if (kind == 19 && f >= 2 && f <= 8 && f != 7 && w == 0)
            m[f] = v;
        else if (kind == 19 && f == 7 && w == 0 && n < PF_MAX_FRAMES)
            fr[n++] = v;
        else if (kind == 6 && f == 2 && w == 0)
            a = v;
        else if (kind == 6 && f == 3 && w == 0)
            b = v;
        else if (kind == 6 && f == 4 && w == 0)
            c = v;
        else if (kind == 7 && f == 2 && w == 0 && n < PF_MAX_FRAMES)
            fr[n++] = v;
    }
    if (iid == 0 || iid >= (kind == 7 ? PF_MAX_STACKS
                            : kind == 19 || kind == 16 ? PF_MAX_MAPS
                            : kind == 17 ? PF_MAX_PARTS : PF_MAX_NAMES))
        return PF_FAIL(d, "interned %u: iid %llu", kind, (unsigned long long) iid);
    if (kind == 5 && name.p != NULL)
        pf_copy(d->fnames[iid], sizeof d->fnames[iid], &name);
    else if (kind == 17 && name.p != NULL)
        pf_copy(d->parts[iid], sizeof d->parts[iid], &name);
    else if (kind == 16)
    {
        size_t len = name.p != NULL ? (size_t) (name.end - name.p) : 0;
        if (len == 0 || len > sizeof d->bids[0])
            return PF_FAIL(d, "build_id %llu: %zu bytes", (unsigned long long) iid, len);
        memcpy(d->bids[iid], name.p, len);
        d->bid_len[iid] = len;
    }
    else if (kind == 19)
    {
        size_t k, len = 0;
        char path[sizeof d->map_path[0]];
        path[0] = '\0';
        for (k = 0; k < n; k++)
        {
            if (fr[k] == 0 || fr[k] >= PF_MAX_PARTS || d->parts[fr[k]][0] == '\0')
                return PF_FAIL(d, "mapping %llu: path part %llu undefined",
                               (unsigned long long) iid, (unsigned long long) fr[k]);
            if (len < sizeof path)
                len += (size_t) snprintf(path + len, sizeof path - len, "/%s",
                                         d->parts[fr[k]]);
        }
        memcpy(d->map_path[iid], path, sizeof path);
        d->mappings[iid] = 1;
        if (m[2] != 0 && (m[2] >= PF_MAX_MAPS || d->bid_len[m[2]] == 0))
            return PF_FAIL(d, "mapping %llu: build_id %llu undefined",
                           (unsigned long long) iid, (unsigned long long) m[2]);
        if (m[5] <= m[4])
            return PF_FAIL(d, "mapping %llu: end %llx not after start %llx",
                           (unsigned long long) iid, (unsigned long long) m[5],
                           (unsigned long long) m[4]);
        d->map[iid].start = m[4];
        d->map[iid].end = m[5];
        d->map[iid].exact = m[8];
        d->map[iid].bias = m[6];
        d->map[iid].bid = m[2];
    }
    else if (kind == 6)
    {
        if (a == 0 || a >= PF_MAX_NAMES || d->fnames[a][0] == '\0'
            || b == 0 || b >= PF_MAX_MAPS || !d->mappings[b])
            return PF_FAIL(d, "frame %llu: name %llu or mapping %llu undefined",
                           (unsigned long long) iid, (unsigned long long) a,
                           (unsigned long long) b);
        d->frame_fn[iid] = a;
        d->frame_map[iid] = b;
        d->frame_pc[iid] = c;
    }
    else if (kind == 7)
    {
        size_t k;
        for (k = 0; k < n; k++)
            if (fr[k] == 0 || fr[k] >= PF_MAX_NAMES || d->frame_fn[fr[k]] == 0)
                return PF_FAIL(d, "callstack %llu: frame %llu undefined",
                               (unsigned long long) iid, (unsigned long long) fr[k]);
        memcpy(d->cs[iid], fr, n * sizeof *fr);
        d->cs_n[iid] = n;
    }
    return 0;
}

/* A PerfSample: its stack resolved and counted. */
static inline int pf_sample(pf_trace * d, pf_in in)
{
    unsigned f, w;
    uint64_t v = 0, tid = 0, cs = 0;
    char text[400];
    size_t k, len;
    pf_in s = { NULL, NULL };
    while (in.p < in.end)
    {
        if (pf_field(&in, &f, &w, &v, &s) != 0)
            return PF_FAIL(d, "bad perf sample");
        if (f == 3 && w == 0)
            tid = v;
        else if (f == 4 && w == 0)
            cs = v;
    }
    if (cs == 0 || cs >= PF_MAX_STACKS || d->cs_n[cs] == 0)
        return PF_FAIL(d, "sample of callstack %llu, undefined", (unsigned long long) cs);
    len = (size_t) snprintf(text, sizeof text, "%llu", (unsigned long long) tid);
    for (k = 0; k < d->cs_n[cs] && len < sizeof text; k++)
        len += (size_t) snprintf(text + len, sizeof text - len, ";%s",
                                 d->fnames[d->frame_fn[d->cs[cs][k]]]);
    d->samples++;
    for (k = 0; k < d->nstacks; k++)
        if (strcmp(d->stacks[k].text, text) == 0)
        {
            d->stacks[k].count++;
            return 0;
        }
    if (d->nstacks == PF_MAX_STACKS)
        return PF_FAIL(d, "too many stacks");
    memcpy(d->stacks[d->nstacks].text, text, sizeof text);
    d->stacks[d->nstacks++].count = 1;
    return 0;
}

static inline int pf_interned(pf_trace * d, pf_in in)
{
    unsigned f, w;
    uint64_t v;
    pf_in s;
    while (in.p < in.end)
    {
        if (pf_field(&in, &f, &w, &v, &s) != 0)
            return PF_FAIL(d, "bad interned data");
        if ((f == 1 || f == 2) && w == 2 && pf_interned_entry(d, s, f == 1) != 0)
            return -1;
        if ((f == 5 || f == 6 || f == 7 || f == 16 || f == 17 || f == 19) && w == 2
            && pf_stack_entry(d, s, f) != 0)
            return -1;
    }
    return 0;
}

static inline pf_track * pf_find(pf_trace * d, uint64_t uuid)
{
    size_t i;
    for (i = 0; i < d->ntracks; i++)
        if (d->tracks[i].uuid == uuid)
            return &d->tracks[i];
    return NULL;
}

/* ThreadDescriptor (pid 1, tid 2, thread_name 5) into t. */
static inline int pf_thread(pf_trace * d, pf_in in, pf_track * t)
{
    unsigned f, w;
    uint64_t v;
    pf_in s;
    while (in.p < in.end)
    {
        if (pf_field(&in, &f, &w, &v, &s) != 0)
            return PF_FAIL(d, "bad thread descriptor");
        if (f == 2 && w == 0)
            t->tid = v;
        else if (f == 5 && w == 2)
            pf_copy(t->name, sizeof t->name, &s);
    }
    return 0;
}

static inline int pf_descriptor(pf_trace * d, pf_in in)
{
    unsigned f, w;
    uint64_t v;
    pf_in s;
    pf_track t;
    memset(&t, 0, sizeof t);
    while (in.p < in.end)
    {
        if (pf_field(&in, &f, &w, &v, &s) != 0)
            return PF_FAIL(d, "bad track descriptor");
        if (f == 1 && w == 0)
            t.uuid = v;
        else if (f == 8 && w == 2)
            t.counter = 1;
        else if (f == 4 && w == 2 && pf_thread(d, s, &t) != 0)
            return -1;
    }
    if (t.uuid == 0)
        return PF_FAIL(d, "track descriptor without uuid");
    if (pf_find(d, t.uuid) != NULL)
    {
        /* described again: a thread's later name replaces the first, as
           in Perfetto's trace processor (a thread renamed) */
        if (t.name[0] != '\0')
            memcpy(pf_find(d, t.uuid)->name, t.name, sizeof t.name);
        return 0;
    }
    if (d->ntracks == PF_MAX_TRACKS)
        return PF_FAIL(d, "too many tracks");
    d->tracks[d->ntracks++] = t;
    return 0;
}

/* A TrackEvent at time ts. */
static inline int pf_event(pf_trace * d, pf_in in, uint64_t ts)
{
    unsigned f, w;
    uint64_t v, type = 0, name = 0, uuid = 0;
    int named = 0, value = 0;
    double x = 0;
    pf_in s;
    pf_track * t;
    while (in.p < in.end)
    {
        if (pf_field(&in, &f, &w, &v, &s) != 0)
            return PF_FAIL(d, "bad track event");
        if (f == 9 && w == 0)
            type = v;
        else if (f == 10 && w == 0)
            name = v;
        else if (f == 11 && w == 0)
            uuid = v;
        else if (f == 23 && w == 2)
            named = 1;
        else if ((f == 44 && w == 1) || (f == 30 && w == 0))
        {
            value = 1;
            if (w == 1)
                memcpy(&x, &v, sizeof x);
            else
                x = (double) (int64_t) v;
        }
        else if (f == 4 && w == 2)
            d->annotations++;
        else if (f == 3 && w == 0)
        {
            if (v >= 8 || !d->cats[v])
                return PF_FAIL(d, "category iid %llu not interned", (unsigned long long) v);
            d->unmatched += v == 4;
        }
    }
    if ((t = pf_find(d, uuid)) == NULL)
        return PF_FAIL(d, "event on track %llu, not described before", (unsigned long long) uuid);
    if (ts < t->last_ts)
        return PF_FAIL(d, "track %llu: time goes back to %llu", (unsigned long long) uuid,
                       (unsigned long long) ts);
    t->last_ts = ts;
    if ((type == 4) != t->counter || (type == 4 && !value))
        return PF_FAIL(d, "track %llu: event type %llu on a %scounter track",
                       (unsigned long long) uuid, (unsigned long long) type,
                       t->counter ? "" : "non-");
    if (type == 4)
    {
        d->counters++;
        d->last_counter = x;
        return 0;
    }
    if (type != 2 && !named && (name == 0 || name >= PF_MAX_NAMES || !d->named[name]))
        return PF_FAIL(d, "name iid %llu not interned", (unsigned long long) name);
    if (type == 1)
    {
        if (t->depth == PF_MAX_DEPTH)
            return PF_FAIL(d, "too deep");
        t->begin_ts[t->depth] = ts;
        t->stack[t->depth++] = name;
        d->begins++;
    }
    else if (type == 2)
    {
        if (t->depth == 0)
            return PF_FAIL(d, "track %llu: slice end with no slice open", (unsigned long long) uuid);
        t->depth--;
        d->last_begin = t->begin_ts[t->depth];
        d->last_end = ts;
        d->last_name = t->stack[t->depth];
        d->ends++;
    }
    else if (type == 3)
        d->instants++;
    else
        return PF_FAIL(d, "event type %llu", (unsigned long long) type);
    return 0;
}

static inline int pf_packet(pf_trace * d, pf_in in)
{
    unsigned f, w;
    uint64_t v, ts = 0, seq = 0, flags = 0;
    pf_in s, ev = { NULL, NULL }, ps = { NULL, NULL }, in2 = in;
    /* interned data, flags and the sequence first: an event may use names
       interned in its own packet */
    while (in2.p < in2.end)
    {
        if (pf_field(&in2, &f, &w, &v, &s) != 0)
            return PF_FAIL(d, "bad packet %zu", d->packets);
        if (f == 8 && w == 0)
            ts = v;
        else if (f == 10 && w == 0)
            seq = v;
        else if (f == 13 && w == 0)
            flags = v;
        else if (f == 11 && w == 2)
            ev = s;
        else if (f == 66 && w == 2)
            ps = s;
        else if (f == 60 && w == 2 && pf_descriptor(d, s) != 0)
            return -1;
    }
    if (flags & 1)
        d->cleared = 1;
    while (in.p < in.end)
    {
        if (pf_field(&in, &f, &w, &v, &s) != 0)
            return -1;
        if (f == 12 && w == 2)
        {
            if (!d->cleared || seq == 0)
                return PF_FAIL(d, "interned data before the state was cleared");
            if (pf_interned(d, s) != 0)
                return -1;
        }
    }
    if (ps.p != NULL)
    {
        if (seq != 1 || !(flags & 2))
            return PF_FAIL(d, "sample without sequence or flags");
        return pf_sample(d, ps);
    }
    if (ev.p != NULL)
    {
        if (seq != 1 || !(flags & 2))
            return PF_FAIL(d, "event without sequence %llu or flags %llu",
                           (unsigned long long) seq, (unsigned long long) flags);
        return pf_event(d, ev, ts);
    }
    return 0;
}

/* Decode and check a whole trace; 0, or -1 with d->error. */
static inline int pf_decode(const unsigned char * p, size_t n, pf_trace * d)
{
    pf_in in;
    memset(d, 0, sizeof *d);
    in.p = p;
    in.end = p + n;
    while (in.p < in.end)
    {
        unsigned f, w;
        uint64_t v;
        pf_in s;
        if (pf_field(&in, &f, &w, &v, &s) != 0 || f != 1 || w != 2)
            return PF_FAIL(d, "not a Trace.packet at packet %zu", d->packets);
        if (pf_packet(d, s) != 0)
            return -1;
        d->packets++;
    }
    return 0;
}

/* The path of the mapping of the first frame named fname, "" if none. */
static inline const char * pf_module_of(const pf_trace * d, const char * fname)
{
    size_t i;
    for (i = 1; i < PF_MAX_NAMES; i++)
        if (d->frame_fn[i] != 0 && strcmp(d->fnames[d->frame_fn[i]], fname) == 0)
            return d->map_path[d->frame_map[i]];
    return "";
}

#endif
