/*
    The trace reader's extension records (src/trace/trace_format.h,
    version 3): each record's payload collected as its words come (a
    record may span two reading windows, never two chunks), then checked
    and handed on: zone values and texts set on the thread's innermost
    open zone, every known kind to pt_handler.annot; unknown kinds are
    skipped with their payload, and said. Nothing in the file is trusted:
    a short payload, a text longer than its words or than 4 KiB, an
    undefined name id is said and the record ignored.
    SPDX-License-Identifier: MIT
*/
#include "trace_zones.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

/* Payload words kept of a record: the longest known layout (a name, two
   words, a text's length and 4 KiB); a reader ignores words past what it
   knows of a kind. */
enum { PT_EXT_KEEP = 4 + PROF_TF_MAX_STRING / 8 };

/* Each known kind's layout: the fewest words, whether word 0 is a name id,
   whether word 0 is a text's length (the bytes after it). */
static const struct { unsigned char min, named, text; } layout[PT_ANNOT_KINDS] = {
    { 0, 0, 0 },
    { 2, 0, 0 }, /* ZONE_VALUE: tag, bits */
    { 1, 0, 1 }, /* ZONE_TEXT */
    { 1, 0, 1 }, /* MESSAGE */
    { 2, 1, 0 }, /* PLOT: name, bits */
    { 1, 1, 0 }, /* FRAME */
    { 1, 1, 0 }, /* LOCK_WAIT */
    { 1, 1, 0 }, /* LOCK_ACQUIRED */
    { 1, 1, 0 }, /* LOCK_RELEASED */
    { 2, 0, 0 }, /* ALLOC: address, size */
    { 1, 0, 0 }  /* FREE: address */
};

static const char * const kind_names[PT_ANNOT_KINDS] = {
    "?", "zone value", "zone text", "message", "plot", "frame mark",
    "lock wait", "lock acquired", "lock released", "alloc", "free"
};

/* One owned copy of each zone text (s, zero-terminated), kept until
   pt_free: NULL if out of memory. */
static const char * intern_text(pt_state * s, const char * text, size_t len)
{
    uint64_t h = UINT64_C(14695981039346656037);
    size_t i;
    for (i = 0; i < len; i++)
        h = (h ^ (unsigned char) text[i]) * UINT64_C(1099511628211);
    for (;; h++) /* another text of the same hash: the next key */
    {
        void ** slot = pt_map_find(&s->texts, h, 1);
        if (slot == NULL)
            return NULL;
        if (*slot == NULL)
        {
            if ((*slot = prof_impl_strdup(text)) == NULL)
                return NULL;
            s->texts.n++;
            return (const char *) *slot;
        }
        if (strcmp((const char *) *slot, text) == 0)
            return (const char *) *slot;
    }
}

/* The record's text into a (in s->text): 0, or -1 if it does not fit its
   words. */
static int read_text(pt_state * s, const pt_tstate * ts, pt_annot * a)
{
    uint64_t len = ts->ext_words[0];
    if (len > PROF_TF_MAX_STRING || (len + 7) / 8 > ts->ext_have - 1)
        return -1;
    memcpy(s->text, ts->ext_words + 1, (size_t) len);
    s->text[len] = '\0';
    a->text = s->text;
    a->len = (uint32_t) strlen(s->text);
    return 0;
}

/* A zone value's tag and bits into a: 0, or -1 for an unknown tag. */
static int read_value(const pt_tstate * ts, pt_annot * a)
{
    uint64_t bits = ts->ext_words[1];
    if (ts->ext_words[0] == PROF_TF_VALUE_INT)
    {
        a->ivalue = (int64_t) bits;
        a->value = (double) a->ivalue;
        a->vflags = PT_VALUE_SET;
    }
    else if (ts->ext_words[0] == PROF_TF_VALUE_DOUBLE)
    {
        memcpy(&a->value, &bits, sizeof a->value);
        a->vflags = PT_VALUE_SET | PT_VALUE_DOUBLE;
    }
    else
        return -1;
    return 0;
}

/* A zone value or text onto the innermost open zone. */
static void on_zone(pt_trace * t, pt_tstate * ts, pt_annot * a)
{
    pt_zone * z;
    if (ts->depth == 0)
    {
        t->annots_unowned++;
        pt_warn(t, W_MATCH, "thread %u: %s with no zone open: in the raw "
                "lines only", t->threads[a->thread].tid, kind_names[a->kind]);
        return;
    }
    z = &ts->stack[ts->depth - 1].z;
    a->on_zone = 1;
    a->zone_seq = z->seq;
    if (a->kind == PROF_TF_EXT_ZONE_VALUE)
    {
        z->vflags = a->vflags;
        z->ivalue = a->ivalue;
        z->value = a->value;
    }
    else if ((z->text = intern_text(t->st, a->text, a->len)) == NULL)
        t->st->oom = 1;
}

/* Decode the payload into a; 0, or -1 after a warning. */
static int decode(pt_trace * t, pt_tstate * ts, pt_annot * a)
{
    unsigned k = a->kind;
    uint32_t tid = t->threads[a->thread].tid;
    size_t i, first = layout[k].named;
    if (ts->ext_have < layout[k].min)
    {
        pt_warn(t, W_CORRUPT, "thread %u: %s record of %zu words, fewer than "
                "its %u: ignored", tid, kind_names[k], ts->ext_have,
                layout[k].min);
        return -1;
    }
    if (layout[k].named)
    {
        uint64_t id = ts->ext_words[0];
        if (id >= ts->nids)
        {
            pt_warn(t, W_STRING, "thread %u: %s of label number %llu, not "
                    "defined: ignored", tid, kind_names[k], (unsigned long long) id);
            return -1;
        }
        a->name = pt_label_name(t, ts->ids[id]);
    }
    if (layout[k].text && read_text(t->st, ts, a) != 0)
    {
        pt_warn(t, W_CORRUPT, "thread %u: %s record whose text does not fit "
                "it: ignored", tid, kind_names[k]);
        return -1;
    }
    if (k == PROF_TF_EXT_ZONE_VALUE && read_value(ts, a) != 0)
    {
        pt_warn(t, W_CORRUPT, "thread %u: zone value of unknown type %llu: "
                "ignored", tid, (unsigned long long) ts->ext_words[0]);
        return -1;
    }
    if (k == PROF_TF_EXT_PLOT)
        memcpy(&a->value, &ts->ext_words[1], sizeof a->value);
    for (i = 0; i < 2 && first + i < ts->ext_have && !layout[k].text; i++)
        a->u[i] = ts->ext_words[first + i];
    return 0;
}

/* The whole record of ts: checked, onto its zone, to the handler. */
static void ext_end(pt_trace * t, pt_tstate * ts, size_t ti)
{
    pt_state * s = t->st;
    pt_annot a;
    memset(&a, 0, sizeof a);
    a.thread = (uint32_t) ti;
    a.kind = ts->ext_kind;
    a.ticks = ts->ext_ticks;
    ts->ext_kind = 0;
    if (a.kind == 0 || decode(t, ts, &a) != 0)
        return;
    t->annots[a.kind]++;
    if (a.kind == PROF_TF_EXT_ZONE_VALUE || a.kind == PROF_TF_EXT_ZONE_TEXT)
        on_zone(t, ts, &a);
    if (s->h.annot != NULL)
        s->h.annot(s->h.ctx, t, &a);
}

void pt_ext_begin(pt_trace * t, pt_tstate * ts, size_t ti, uint64_t w)
{
    unsigned kind = (unsigned) (w >> 3) & ((1u << PROF_TF_EXT_KIND_BITS) - 1);
    int64_t now = pt_rel_ticks(t->st, ts->prev61);
    ts->ext_left = (uint32_t) (w >> 8) & ((1u << PROF_TF_EXT_WORDS_BITS) - 1);
    ts->ext_have = 0;
    ts->ext_kind = 0;
    if (kind == 0 || kind >= PT_ANNOT_KINDS)
    {
        t->annots[0]++;
        pt_warn(t, W_EVENT, "thread %u: in-stream record of kind %u, which this "
                "prof-trace does not know: skipped", t->threads[ti].tid, kind);
        return;
    }
    if (now < ts->last)
        now = ts->last; /* as for events (said there): time never goes back */
    ts->last = now;
    if (now > t->span)
        t->span = now;
    if (prof_impl_grow(&ts->ext_words, &ts->ext_cap, PT_EXT_KEEP, 8) != 0)
    {
        t->st->oom = 1;
        return;
    }
    ts->ext_kind = kind;
    ts->ext_ticks = now;
    if (ts->ext_left == 0)
        ext_end(t, ts, ti);
}

void pt_ext_word(pt_trace * t, pt_tstate * ts, size_t ti, uint64_t w)
{
    ts->ext_left--;
    if (ts->ext_kind != 0 && ts->ext_have < PT_EXT_KEEP)
        ts->ext_words[ts->ext_have++] = w;
    if (ts->ext_left == 0 && ts->ext_kind != 0)
        ext_end(t, ts, ti);
}

void pt_ext_cut(pt_trace * t, pt_tstate * ts, size_t ti)
{
    if (ts->ext_left > 0 && ts->ext_kind != 0)
        pt_warn(t, W_CORRUPT, "thread %u: %s record cut (%u of its words "
                "missing): ignored", t->threads[ti].tid,
                kind_names[ts->ext_kind], ts->ext_left);
    ts->ext_left = 0;
    ts->ext_kind = 0;
}
