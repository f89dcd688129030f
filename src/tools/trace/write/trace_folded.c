/*
    prof-trace --folded: collapsed stacks, the input of flamegraph.pl and
    of speedscope's and inferno's importers: one line per call path,
    "thread;outer;inner SELF_NS". The paths are a tree of nodes, one per
    (parent, kind and name), built as zones begin; each zone's self time
    (its time less its direct children's) is added to its node as it ends,
    and the lines are written at the end. Memory grows with the distinct
    paths, not with the zones; the time is linear in the zones.
    SPDX-License-Identifier: MIT
*/
#include "trace_folded.h"
#include "trace_map.h"
#include "internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
    uint32_t parent;        /* PT_FOLDED_NONE for a thread's root */
    uint32_t thread;        /* the root's thread index */
    const char * name;      /* NULL for a root */
    int64_t self;           /* ticks */
} node_t;

struct pt_folded
{
    node_t * v;
    size_t n, cap;
    pt_map child;           /* parent << 32 | name index -> node + 1 */
    pt_map names;           /* name pointer << 8 | kind -> name index + 1 */
    size_t nnames;
    uint32_t * roots;       /* thread index -> root node + 1 */
    size_t nroots, rootcap;
};

pt_folded * pt_folded_new(void)
{
    return (pt_folded *) calloc(1, sizeof(pt_folded));
}

static uint32_t add_node(pt_folded * f, uint32_t parent, uint32_t thread,
                         const char * name)
{
    node_t * n;
    if (f->n >= UINT32_MAX - 1
        || prof_impl_grow(&f->v, &f->cap, f->n + 1, sizeof *f->v) != 0)
        return PT_FOLDED_NONE;
    n = &f->v[f->n];
    n->parent = parent;
    n->thread = thread;
    n->name = name;
    n->self = 0;
    return (uint32_t) f->n++;
}

uint32_t pt_folded_root(pt_folded * f, uint32_t thread)
{
    if (thread >= f->nroots)
    {
        if (prof_impl_grow(&f->roots, &f->rootcap, (size_t) thread + 1,
                           sizeof *f->roots) != 0)
            return PT_FOLDED_NONE;
        memset(f->roots + f->nroots, 0,
               ((size_t) thread + 1 - f->nroots) * sizeof *f->roots);
        f->nroots = (size_t) thread + 1;
    }
    if (f->roots[thread] == 0)
    {
        uint32_t r = add_node(f, PT_FOLDED_NONE, thread, NULL);
        if (r == PT_FOLDED_NONE)
            return r;
        f->roots[thread] = r + 1;
    }
    return f->roots[thread] - 1;
}

uint32_t pt_folded_enter(pt_folded * f, uint32_t parent, const char * name,
                         char kind)
{
    uint64_t nk = (uint64_t) (size_t) name << 8 | (unsigned char) kind;
    void ** ns, ** slot;
    uint32_t id;
    if (parent == PT_FOLDED_NONE
        || (ns = pt_map_find(&f->names, nk, 1)) == NULL)
        return PT_FOLDED_NONE;
    if (*ns == NULL)
    {
        *ns = (void *) (size_t) ++f->nnames;
        f->names.n++;
    }
    slot = pt_map_find(&f->child, (uint64_t) parent << 32
                       | (uint64_t) ((size_t) *ns - 1), 1);
    if (slot == NULL)
        return PT_FOLDED_NONE;
    if (*slot != NULL)
        return (uint32_t) ((size_t) *slot - 1);
    id = add_node(f, parent, f->v[parent].thread, name);
    if (id == PT_FOLDED_NONE)
        return id;
    *slot = (void *) ((size_t) id + 1);
    f->child.n++;
    return id;
}

void pt_folded_add(pt_folded * f, uint32_t node, int64_t self_ticks)
{
    if (node < f->n && self_ticks > 0)
        f->v[node].self = pt_add_ticks(f->v[node].self, self_ticks);
}

/* A frame's name as the format takes it: ';' separates frames and a line
   ends the record, so both become other characters. */
void pt_folded_frame(FILE * out, const char * s)
{
    for (; *s; s++)
        fputc(*s == ';' ? ':' : (unsigned char) *s < 32 ? ' ' : *s, out);
}

void pt_folded_thread(FILE * out, const pt_thread * th)
{
    if (th->name[0] != '\0')
        pt_folded_frame(out, th->name);
    else
        fprintf(out, "thread %u", th->tid);
}

/* node's path from its thread down, each frame after a ';' but the first */
static void put_path(FILE * out, const pt_folded * f, const pt_trace * t,
                     uint32_t node, uint32_t * path, size_t cap)
{
    size_t depth = 0, i;
    for (; f->v[node].parent != PT_FOLDED_NONE && depth < cap; depth++)
    {
        path[depth] = node;
        node = f->v[node].parent;
    }
    pt_folded_thread(out, &t->threads[f->v[node].thread]);
    for (i = depth; i-- > 0;)
    {
        fputc(';', out);
        pt_folded_frame(out, f->v[path[i]].name);
    }
}

int pt_folded_write(const pt_folded * f, FILE * out, const pt_trace * t)
{
    uint32_t * path = (uint32_t *) malloc((f->n + 1) * sizeof *path);
    size_t i;
    if (path == NULL)
        return -1;
    for (i = 0; i < f->n; i++)
    {
        int64_t ns = pt_whole_ns(t, f->v[i].self);
        if (ns <= 0 || f->v[i].thread >= t->nthreads)
            continue;   /* a thread's own line: the zones the filters dropped */
        put_path(out, f, t, (uint32_t) i, path, f->n);
        fprintf(out, " %lld\n", (long long) ns);
    }
    free(path);
    return 0;
}

void pt_folded_free(pt_folded * f)
{
    if (f == NULL)
        return;
    pt_map_free(&f->child, 0);
    pt_map_free(&f->names, 0);
    free(f->v);
    free(f->roots);
    free(f);
}
