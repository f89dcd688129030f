/*
    Perfetto's native trace format, written by hand (no dependency): a
    protobuf Trace, one TracePacket per zone begin and end, with the field
    numbers of Perfetto's public .proto files (protos/perfetto/trace/):

      Trace            packet = 1
      TracePacket      timestamp = 8, trusted_packet_sequence_id = 10,
                       track_event = 11, interned_data = 12,
                       sequence_flags = 13, track_descriptor = 60
      TrackDescriptor  uuid = 1, name = 2, process = 3, thread = 4,
                       parent_uuid = 5, counter = 8 (a CounterDescriptor)
      ProcessDescriptor pid = 1, process_name = 6
      ThreadDescriptor pid = 1, tid = 2, thread_name = 5
      TrackEvent       category_iids = 3, type = 9, name_iid = 10,
                       track_uuid = 11, debug_annotations = 4, name = 23,
                       double_counter_value = 44 (type: SLICE_BEGIN 1,
                       SLICE_END 2, INSTANT 3, COUNTER 4)
      InternedData     event_categories = 1, event_names = 2,
                       function_names = 5, frames = 6, callstacks = 7,
                       mapping_paths = 17, mappings = 19
      EventCategory / EventName / InternedString   iid = 1, name = 2
      TracePacket      perf_sample = 66
      PerfSample       pid = 2, tid = 3, callstack_iid = 4, cpu_mode = 5
                       (CpuMode: 2 user)
      Frame            iid = 1, function_name_id = 2, mapping_id = 3,
                       rel_pc = 4
      Mapping          iid = 1, build_id = 2, start_offset = 3, start = 4,
                       end = 5, load_bias = 6, path_string_ids = 7,
                       exact_offset = 8
      InternedData     build_ids = 16 (InternedString: iid = 1, str = 2)
      Callstack        iid = 1, frame_ids = 2 (repeated, root first)

    One packet sequence; names and categories are interned (sent once, then
    referred to by number); each thread is a track, described before its
    first event, and described again at the end if it was renamed since
    (streamed, a thread's final name is known only then; Perfetto keeps
    the later one). The samples of a sampled trace come at the end: one
    packet interns the executable mappings the samples fell in (start,
    end, exact_offset = the file offset mapped, the file's build-id as raw
    bytes and the load bias of its first executable segment when it could
    be read, its path as Perfetto's components, "usr", "lib", "libc.so.6";
    a mapping "[unknown]" spanning only the addresses of the leaves in
    none), the function names, a frame per distinct address (its name, its
    mapping, rel_pc = the address in the ELF file's virtual addresses:
    file offset + load bias, what Perfetto's symbolizer hands to
    llvm-symbolizer; a return address less 1) and the named stacks,
    then a PerfSample packet per sample (a sample of weight w is w
    packets), so that the UI draws each thread's callstacks and a flame
    graph beside its zones. Timestamps are nanoseconds since the trace's start, each
    rounded once (so slices nest exactly). tests/test_trace_perfetto.c
    decodes the output with its own decoder against these numbers.
    SPDX-License-Identifier: MIT
*/
#include "trace_perfetto.h"
#include "trace_map.h"
#include "trace_pb.h"
#include "trace_samples.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

enum
{
    TRACE_PACKET = 1,
    PKT_TIMESTAMP = 8, PKT_SEQUENCE_ID = 10, PKT_TRACK_EVENT = 11,
    PKT_INTERNED_DATA = 12, PKT_SEQUENCE_FLAGS = 13, PKT_TRACK_DESCRIPTOR = 60,
    TD_UUID = 1, TD_NAME = 2, TD_PROCESS = 3, TD_THREAD = 4,
    PD_PID = 1, PD_PROCESS_NAME = 6,
    THD_PID = 1, THD_TID = 2, THD_THREAD_NAME = 5,
    TE_CATEGORY_IIDS = 3, TE_TYPE = 9, TE_NAME_IID = 10, TE_TRACK_UUID = 11,
    ID_EVENT_CATEGORIES = 1, ID_EVENT_NAMES = 2,
    IN_IID = 1, IN_NAME = 2,
    SEQ_INCREMENTAL_STATE_CLEARED = 1, SEQ_NEEDS_INCREMENTAL_STATE = 2,
    TYPE_SLICE_BEGIN = 1, TYPE_SLICE_END = 2, TYPE_INSTANT = 3,
    PKT_PERF_SAMPLE = 66, PS_PID = 2, PS_TID = 3, PS_CALLSTACK = 4,
    PS_CPU_MODE = 5, CPU_MODE_USER = 2,
    ID_FUNCTION_NAMES = 5, ID_FRAMES = 6, ID_CALLSTACKS = 7,
    ID_MAPPING_PATHS = 17, ID_MAPPINGS = 19, ID_BUILD_IDS = 16,
    FR_IID = 1, FR_NAME = 2, FR_MAPPING = 3, FR_REL_PC = 4,
    MAP_IID = 1, MAP_BUILD_ID = 2, MAP_START_OFFSET = 3, MAP_START = 4,
    MAP_END = 5, MAP_LOAD_BIAS = 6, MAP_PATH = 7, MAP_EXACT_OFFSET = 8,
    CS_IID = 1, CS_FRAMES = 2,
    SEQUENCE = 1, CAT_UNMATCHED = 4,
    /* annotations: debug annotations, counter tracks, named instants */
    TE_DEBUG_ANNOTATIONS = 4, TE_NAME = 23, TE_DOUBLE_COUNTER_VALUE = 44,
    DA_INT_VALUE = 4, DA_DOUBLE_VALUE = 5, DA_STRING_VALUE = 6, DA_NAME = 10,
    TD_PARENT_UUID = 5, TD_COUNTER = 8, TYPE_COUNTER = 4, /* and locks */
    CAT_ANNOTATION = 5, WIRE_FIXED64 = 1
};
/* The uuids of the tracks of their own (beside the process, 1, and the
   threads, 2 + index): a lock's on a thread, OWN_LOCKS | lock << 24 |
   thread; a named one's (a counter, frame marks), OWN_NAMED | counter << 46
   | the iid of its name. */
#define OWN_LOCKS (UINT64_C(1) << 48)
#define OWN_NAMED (UINT64_C(1) << 47)

/* A thread's track: described yet, and under which name. */
typedef struct
{
    int described;
    char name[sizeof ((pt_thread *) 0)->name];
} pf_track;

struct pt_perfetto
{
    FILE * out;
    pb_buf packet, event, inner, interned;
    pt_map names;            /* name pointer -> iid */
    pt_map own;              /* uuids of the tracks of their own described */
    uint64_t next_iid;
    pf_track * tracks;       /* per thread index */
    size_t ntracks;
    int started;
    int oom;                 /* a packet or a name was lost (sticky) */
};

/* An interned entry (EventCategory or EventName) into p->interned. */
static void intern_entry(pt_perfetto * p, unsigned field, uint64_t iid,
                         const char * name)
{
    pb_buf e = { NULL, 0, 0, 0 };
    pb_uint(&e, IN_IID, iid);
    pb_string(&e, IN_NAME, name);
    pb_nest(&p->interned, field, &e);
    free(e.d);
}

/* Close the packet being built: Trace.packet = 1, written out. */
static void put_packet(pt_perfetto * p)
{
    pb_buf head = { NULL, 0, 0, 0 };
    pb_varint(&head, (uint64_t) TRACE_PACKET << 3 | WIRE_BYTES);
    pb_varint(&head, p->packet.n);
    if (!head.oom && !p->packet.oom)
    {
        fwrite(head.d, 1, head.n, p->out);
        fwrite(p->packet.d, 1, p->packet.n, p->out);
    }
    else
        p->oom = 1;
    free(head.d);
    p->packet.n = 0;
}

pt_perfetto * pt_perfetto_new(FILE * out)
{
    pt_perfetto * p = (pt_perfetto *) calloc(1, sizeof *p);
    if (p != NULL)
    {
        p->out = out;
        p->next_iid = 1;
    }
    return p;
}

void pt_perfetto_free(pt_perfetto * p)
{
    if (p == NULL)
        return;
    free(p->packet.d);
    free(p->event.d);
    free(p->inner.d);
    free(p->interned.d);
    free(p->tracks);
    pt_map_free(&p->names, 0);
    pt_map_free(&p->own, 0);
    free(p);
}

/* Track uuids: small numbers (one or two bytes in every event), unique
   within the trace: the process 1, thread index i 2 + i. */
static uint64_t process_uuid(const pt_trace * t)
{
    (void) t;
    return 1;
}

static uint64_t thread_uuid(const pt_trace * t, uint32_t thread)
{
    (void) t;
    return 2 + (uint64_t) thread;
}

/* A TrackDescriptor packet: the process (thread < 0) or a thread. */
static void describe(pt_perfetto * p, const pt_trace * t, long thread)
{
    pb_buf d = { NULL, 0, 0, 0 };
    if (thread < 0)
    {
        pb_uint(&d, TD_UUID, process_uuid(t));
        pb_uint(&p->inner, PD_PID, t->pid);
        pb_string(&p->inner, PD_PROCESS_NAME, t->process[0] ? t->process
                  : "traced program");
        pb_nest(&d, TD_PROCESS, &p->inner);
    }
    else
    {
        const pt_thread * th = &t->threads[thread];
        char def[32];
        snprintf(def, sizeof def, "thread %u", th->tid);
        pb_uint(&d, TD_UUID, thread_uuid(t, (uint32_t) thread));
        pb_string(&d, TD_NAME, th->name[0] ? th->name : def);
        pb_uint(&p->inner, THD_PID, t->pid);
        pb_uint(&p->inner, THD_TID, th->tid);
        pb_string(&p->inner, THD_THREAD_NAME, th->name[0] ? th->name : def);
        pb_nest(&d, TD_THREAD, &p->inner);
        /* the name it has now, to describe it again if renamed later */
        memcpy(p->tracks[thread].name, th->name, sizeof th->name);
        p->tracks[thread].described = 1;
    }
    pb_nest(&p->packet, PKT_TRACK_DESCRIPTOR, &d);
    put_packet(p);
    free(d.d);
}

/* The first packet of the sequence: the state is new; the categories. */
static void start(pt_perfetto * p, const pt_trace * t)
{
    static const char * const cats[] = { "zone", "function", "instrumented",
                                         "unmatched", "annotation" };
    unsigned i;
    for (i = 0; i < 5; i++)
        intern_entry(p, ID_EVENT_CATEGORIES, i + 1, cats[i]);
    pb_uint(&p->packet, PKT_SEQUENCE_ID, SEQUENCE);
    pb_uint(&p->packet, PKT_SEQUENCE_FLAGS, SEQ_INCREMENTAL_STATE_CLEARED);
    pb_nest(&p->packet, PKT_INTERNED_DATA, &p->interned);
    put_packet(p);
    describe(p, t, -1);
    p->started = 1;
}

/* The iid of z's name, interned in this packet on first use. */
static uint64_t name_iid(pt_perfetto * p, const char * name)
{
    void ** slot = pt_map_find(&p->names, (uint64_t) (size_t) name, 1);
    if (slot == NULL)
    {
        p->oom = 1;
        return 0;
    }
    if (*slot == NULL)
    {
        *slot = (void *) (size_t) p->next_iid;
        p->names.n++;
        intern_entry(p, ID_EVENT_NAMES, p->next_iid++, name);
    }
    return (uint64_t) (size_t) *slot;
}

/* The packet of the track event built in p->event, at ns, with the names
   it interned. */
static void put_event(pt_perfetto * p, int64_t ns)
{
    pb_uint(&p->packet, PKT_TIMESTAMP, (uint64_t) ns);
    pb_uint(&p->packet, PKT_SEQUENCE_ID, SEQUENCE);
    pb_uint(&p->packet, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
    pb_nest(&p->packet, PKT_TRACK_EVENT, &p->event);
    if (p->interned.n > 0)
        pb_nest(&p->packet, PKT_INTERNED_DATA, &p->interned);
    put_packet(p);
}

/* ---- annotations ----------------------------------------------------------- */

static void pb_double(pb_buf * b, unsigned field, double v)
{
    unsigned char le[8];
    uint64_t bits;
    int i;
    memcpy(&bits, &v, 8);
    for (i = 0; i < 8; i++)
        le[i] = (unsigned char) (bits >> (8 * i));
    pb_varint(b, (uint64_t) field << 3 | WIRE_FIXED64);
    pb_raw(b, le, 8);
}

/* Zone z's value and text as debug annotations of its end event (the
   trace processor adds them to the slice's args). */
static void zone_args(pt_perfetto * p, const pt_zone * z)
{
    if (z->vflags & PT_VALUE_SET)
    {
        pb_string(&p->inner, DA_NAME, "value");
        if (z->vflags & PT_VALUE_DOUBLE)
            pb_double(&p->inner, DA_DOUBLE_VALUE, z->value);
        else
            pb_uint(&p->inner, DA_INT_VALUE, (uint64_t) z->ivalue);
        pb_nest(&p->event, TE_DEBUG_ANNOTATIONS, &p->inner);
    }
    if (z->text != NULL)
    {
        pb_string(&p->inner, DA_NAME, "text");
        pb_string(&p->inner, DA_STRING_VALUE, z->text);
        pb_nest(&p->event, TE_DEBUG_ANNOTATIONS, &p->inner);
    }
}

/* The sequence started and thread's track described: 0, or -1 if out of
   memory. */
static int thread_track(pt_perfetto * p, const pt_trace * t, uint32_t thread)
{
    if (!p->started)
        start(p, t);
    if (thread >= p->ntracks)
    {
        size_t old = p->ntracks;
        if (prof_impl_grow(&p->tracks, &p->ntracks, (size_t) thread + 1,
                           sizeof *p->tracks) != 0)
        {
            p->oom = 1;
            return -1;
        }
        memset(p->tracks + old, 0, (p->ntracks - old) * sizeof *p->tracks);
    }
    if (!p->tracks[thread].described)
        describe(p, t, thread);
    return 0;
}

void pt_perfetto_event(pt_perfetto * p, const pt_trace * t, const pt_zone * z,
                       char what)
{
    int64_t ns = pt_whole_ns(t, what == 'E' ? z->end : z->begin);
    unsigned cat = z->kind == PT_KIND_ZONE ? 1 : z->kind == PT_KIND_FUNC ? 2 : 3;
    if (thread_track(p, t, z->thread) != 0)
        return;
    pb_uint(&p->event, TE_TYPE, what == 'B' ? TYPE_SLICE_BEGIN
            : what == 'E' ? TYPE_SLICE_END : TYPE_INSTANT);
    pb_uint(&p->event, TE_TRACK_UUID, thread_uuid(t, z->thread));
    pb_uint(&p->event, TE_CATEGORY_IIDS, cat);
    if (z->flags && what != 'B') /* known at the end (not when streaming) */
        pb_uint(&p->event, TE_CATEGORY_IIDS, CAT_UNMATCHED);
    if (what != 'E')
        pb_uint(&p->event, TE_NAME_IID, name_iid(p, z->name));
    else
        zone_args(p, z);
    put_event(p, ns);
}

/* ---- tracks of their own: locks, counters (plots, live bytes), frames ---- */

/* A TrackDescriptor packet of a track of its own, once: uuid, named name,
   under parent's track, a counter track if counter. */
static void describe_own(pt_perfetto * p, uint64_t uuid, uint64_t parent,
                         const char * name, int counter)
{
    void ** slot = pt_map_find(&p->own, uuid, 1);
    pb_buf d = { NULL, 0, 0, 0 };
    if (slot == NULL || *slot != NULL)
    {
        p->oom |= slot == NULL;
        return;
    }
    *slot = (void *) 1;
    p->own.n++;
    pb_uint(&d, TD_UUID, uuid);
    pb_uint(&d, TD_PARENT_UUID, parent);
    pb_string(&d, TD_NAME, name);
    if (counter)
        pb_bytes(&d, TD_COUNTER, NULL, 0); /* an empty CounterDescriptor */
    pb_nest(&p->packet, PKT_TRACK_DESCRIPTOR, &d);
    put_packet(p);
    free(d.d);
}

/* The track named name under the process (a counter track if counter,
   else frame marks'), described on first use: its uuid. */
static uint64_t named_track(pt_perfetto * p, const pt_trace * t,
                            const char * name, int counter)
{
    uint64_t uuid = OWN_NAMED | (uint64_t) (counter != 0) << 46
                    | name_iid(p, name);
    describe_own(p, uuid, process_uuid(t), name, counter);
    return uuid;
}

/* A value v of the counter track named name, into p->event. */
static void counter_event(pt_perfetto * p, const pt_trace * t,
                          const char * name, double v)
{
    pb_uint(&p->event, TE_TYPE, TYPE_COUNTER);
    pb_uint(&p->event, TE_TRACK_UUID, named_track(p, t, name, 1));
    pb_double(&p->event, TE_DOUBLE_COUNTER_VALUE, v);
}

void pt_perfetto_counter(pt_perfetto * p, const pt_trace * t, const char * name,
                         int64_t ticks, double v)
{
    if (!p->started)
        start(p, t);
    counter_event(p, t, name, v);
    put_event(p, pt_whole_ns(t, ticks));
}

void pt_perfetto_annot(pt_perfetto * p, const pt_trace * t, const pt_annot * a)
{
    if (a->kind != PROF_TF_EXT_MESSAGE && a->kind != PROF_TF_EXT_PLOT
        && a->kind != PROF_TF_EXT_FRAME)
        return; /* zone values and texts: on their zone's end */
    if (!p->started)
        start(p, t);
    if (a->kind == PROF_TF_EXT_MESSAGE && thread_track(p, t, a->thread) != 0)
        return;
    if (a->kind == PROF_TF_EXT_PLOT)
        counter_event(p, t, a->name, a->value);
    else
    {
        int msg = a->kind == PROF_TF_EXT_MESSAGE; /* else a frame mark */
        pb_uint(&p->event, TE_TYPE, TYPE_INSTANT);
        pb_uint(&p->event, TE_TRACK_UUID, msg ? thread_uuid(t, a->thread)
                : named_track(p, t, a->name, 0));
        if (msg)
            pb_string(&p->event, TE_NAME, a->text);
        else
            pb_uint(&p->event, TE_NAME_IID, name_iid(p, a->name));
    }
    pb_uint(&p->event, TE_CATEGORY_IIDS, CAT_ANNOTATION);
    put_event(p, pt_whole_ns(t, a->ticks));
}

/* A TrackEvent packet at ns on track, of type (name: a slice begin's). */
static void own_event(pt_perfetto * p, uint64_t track, unsigned type,
                      const char * name, int64_t ns)
{
    pb_uint(&p->event, TE_TYPE, type);
    pb_uint(&p->event, TE_TRACK_UUID, track);
    if (name != NULL)
        pb_uint(&p->event, TE_NAME_IID, name_iid(p, name));
    put_event(p, ns);
}

void pt_perfetto_lock_slice(pt_perfetto * p, const pt_trace * t,
                            const pt_lock_slice * s)
{
    uint64_t uuid = OWN_LOCKS | (uint64_t) s->lock_index << 24 | s->thread;
    char name[96];
    if (thread_track(p, t, s->thread) != 0)
        return;
    snprintf(name, sizeof name, "lock %s 0x%llx", s->name ? s->name : "lock",
             (unsigned long long) s->lock);
    describe_own(p, uuid, thread_uuid(t, s->thread), name, 0);
    own_event(p, uuid, TYPE_SLICE_BEGIN, s->what == 'w' ? "wait" : "hold",
              pt_whole_ns(t, s->begin));
    own_event(p, uuid, TYPE_SLICE_END, NULL, pt_whole_ns(t, s->end));
}

/* path's components, each a mapping_paths string of its own (numbered
   from *sid), as the path_string_ids of the mapping in e. */
static void intern_path(pt_perfetto * p, pb_buf * e, const char * path,
                        uint64_t * sid)
{
    for (;;)
    {
        char part[256];
        size_t len;
        path += strspn(path, "/");
        if ((len = strcspn(path, "/")) == 0)
            break;
        snprintf(part, sizeof part, "%.*s", (int) (len < 255 ? len : 255), path);
        intern_entry(p, ID_MAPPING_PATHS, *sid, part);
        pb_uint(e, MAP_PATH, (*sid)++);
        path += len;
    }
}

/* The samples' mappings: mapping m + 1 is the locations' mapping m
   (0: "[unknown]", the addresses in none), with its file's build-id. */
static void intern_mappings(pt_perfetto * p, const pt_samples * s)
{
    pb_buf e = { NULL, 0, 0, 0 };
    const pt_locs * l = pt_samples_locs(s);
    uint64_t sid = 1, bid = 1, start, end;
    size_t m;
    for (m = 0; m < l->nmaps; m++)
    {
        const pt_loc_map * lm = &l->maps[m];
        pb_uint(&e, MAP_IID, m + 1);
        if (lm->file.build_id_len > 0)
        {
            pb_uint(&p->inner, IN_IID, bid);
            pb_bytes(&p->inner, IN_NAME, lm->file.build_id, lm->file.build_id_len);
            pb_nest(&p->interned, ID_BUILD_IDS, &p->inner);
            pb_uint(&e, MAP_BUILD_ID, bid++);
        }
        pt_locs_span(l, (uint32_t) m, &start, &end);
        pb_uint(&e, MAP_START, start);
        pb_uint(&e, MAP_END, end);
        pb_uint(&e, MAP_START_OFFSET, 0);
        pb_uint(&e, MAP_EXACT_OFFSET, lm->offset);
        if (lm->file.has_bias)
            pb_uint(&e, MAP_LOAD_BIAS, lm->file.load_bias);
        intern_path(p, &e, m == 0 || lm->mod == 0 ? "[unknown]"
                    : pt_samples_module(s, lm->mod), &sid);
        pb_nest(&p->interned, ID_MAPPINGS, &e);
    }
    free(e.d);
}

/* The samples' mappings, function names, frames (a location each) and
   named stacks, in one packet's interned data. */
static void intern_stacks(pt_perfetto * p, const pt_samples * s)
{
    pb_buf e = { NULL, 0, 0, 0 };
    const pt_locs * l = pt_samples_locs(s);
    size_t i, n = pt_samples_functions(s), ns = pt_samples_stacks(s);
    uint32_t f, nf;
    intern_mappings(p, s);
    for (i = 0; i < n; i++)
        intern_entry(p, ID_FUNCTION_NAMES, i + 1,
                     pt_samples_function(s, (uint32_t) i));
    for (i = 0; i < l->n; i++)
    {
        pb_uint(&e, FR_IID, i + 1);
        pb_uint(&e, FR_NAME, l->v[i].fn + 1ull);
        pb_uint(&e, FR_MAPPING, l->v[i].map + 1ull);
        pb_uint(&e, FR_REL_PC, pt_locs_rel_pc(l, (uint32_t) i));
        pb_nest(&p->interned, ID_FRAMES, &e);
    }
    for (i = 0; i < ns; i++)
    {
        const uint32_t * lo = pt_samples_stack_locs(s, (uint32_t) i);
        (void) pt_samples_stack(s, (uint32_t) i, &nf);
        pb_uint(&e, CS_IID, i + 1);
        for (f = nf; f-- > 0;)
            pb_uint(&e, CS_FRAMES, lo[f] + 1ull);
        pb_nest(&p->interned, ID_CALLSTACKS, &e);
    }
    free(e.d);
    pb_uint(&p->packet, PKT_SEQUENCE_ID, SEQUENCE);
    pb_uint(&p->packet, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
    pb_nest(&p->packet, PKT_INTERNED_DATA, &p->interned);
    put_packet(p);
}

typedef struct { pt_perfetto * p; const pt_trace * t; } pf_samples;

static void put_sample(void * ctx, uint32_t thread, int64_t ticks, uint32_t rs,
                       uint32_t weight)
{
    pf_samples * c = (pf_samples *) ctx;
    pt_perfetto * p = c->p;
    const pt_thread * th = &c->t->threads[thread];
    uint32_t w;
    if (thread >= c->t->nthreads)
        return;
    for (w = 0; w < weight; w++)
    {
        pb_uint(&p->event, PS_PID, th->pid ? th->pid : c->t->pid);
        pb_uint(&p->event, PS_TID, th->tid);
        pb_uint(&p->event, PS_CALLSTACK, rs + 1ull);
        pb_uint(&p->event, PS_CPU_MODE, CPU_MODE_USER);
        pb_uint(&p->packet, PKT_TIMESTAMP, (uint64_t) pt_whole_ns(c->t, ticks));
        pb_uint(&p->packet, PKT_SEQUENCE_ID, SEQUENCE);
        pb_uint(&p->packet, PKT_SEQUENCE_FLAGS, SEQ_NEEDS_INCREMENTAL_STATE);
        pb_nest(&p->packet, PKT_PERF_SAMPLE, &p->event);
        put_packet(p);
    }
}

int pt_perfetto_finish(pt_perfetto * p, const pt_trace * t,
                       pt_samples * s)
{
    pf_samples c;
    size_t i;
    if (!p->started)
        start(p, t); /* a valid trace, with the process, even if empty */
    /* threads renamed after their first event: their final names, as the
       JSON's thread_name events have them */
    for (i = 0; i < p->ntracks && i < t->nthreads; i++)
        if (p->tracks[i].described
            && strcmp(p->tracks[i].name, t->threads[i].name) != 0)
            describe(p, t, (long) i);
    if (pt_samples_count(s) > 0)
    {
        c.p = p;
        c.t = t;
        intern_stacks(p, s);
        p->oom |= pt_samples_each(s, &c, put_sample) != 0;
    }
    return p->oom ? -1 : 0;
}
