/*
    pprof's profile format (github.com/google/pprof, proto/profile.proto),
    written by hand with trace_pb.c and gzipped with trace_gzip.c:

      Profile    sample_type = 1, sample = 2, mapping = 3, location = 4,
                 function = 5, string_table = 6, time_nanos = 9,
                 duration_nanos = 10, period_type = 11, period = 12
      ValueType  type = 1, unit = 2 (string indices)
      Sample     location_id = 1 (leaf first), value = 2, label = 3
      Label      key = 1, str = 2
      Mapping    id = 1, memory_start = 2, memory_limit = 3,
                 file_offset = 4, filename = 5, build_id = 6,
                 has_functions = 7
      Location   id = 1, mapping_id = 2, address = 3, line = 4
      Line       function_id = 1
      Function   id = 1, name = 2, system_name = 3

    sample_type is [samples/count, cpu/nanoseconds]: a sample of weight w
    has values [w, w * the period], the period that of the text report
    (pt_samples_period_ns). The functions are the model's (trace_samples.c:
    the names of the text report, ids = its function ids + 1); a location
    is one of the model's locations (trace_locs.h: a distinct mapping,
    address and function), the address the model named (a return address
    less 1), with one line, its function; a mapping is one of the model's
    mappings, the main executable's first, with the file's GNU build-id
    (as hex) where the file could be read (not under --no-symbols). A
    frame outside every mapping ([unknown]+0x..., [no stack]) has
    mapping_id 0. Samples are summed
    per named stack and innermost zone (trace_sample_zones.c), the zone
    as the label zone=NAME, so that pprof -tagfocus=zone=NAME keeps them.
    SPDX-License-Identifier: MIT
*/
#include "trace_pprof.h"
#include "trace_gzip.h"
#include "trace_map.h"
#include "trace_pb.h"
#include "trace_samples.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum
{
    PR_SAMPLE_TYPE = 1, PR_SAMPLE = 2, PR_MAPPING = 3, PR_LOCATION = 4,
    PR_FUNCTION = 5, PR_STRING = 6, PR_TIME = 9, PR_DURATION = 10,
    PR_PERIOD_TYPE = 11, PR_PERIOD = 12,
    VT_TYPE = 1, VT_UNIT = 2,
    SA_LOCATION = 1, SA_VALUE = 2, SA_LABEL = 3,
    LA_KEY = 1, LA_STR = 2,
    MA_ID = 1, MA_START = 2, MA_LIMIT = 3, MA_OFFSET = 4, MA_FILE = 5,
    MA_BUILD_ID = 6, MA_HAS_FUNCTIONS = 7,
    LO_ID = 1, LO_MAPPING = 2, LO_ADDRESS = 3, LO_LINE = 4,
    LI_FUNCTION = 1,
    FN_ID = 1, FN_NAME = 2, FN_SYSTEM_NAME = 3
};

typedef struct
{
    const pt_trace * t;
    pt_samples * s;
    pb_buf out, msg, inner;
    const char ** str;       /* the string table, str[0] = "" */
    size_t nstr, strcap;
    pt_map stridx;           /* hash (probed) -> index + 1 */
    char ** ids;             /* the build-ids' hex, owned */
    size_t nids, idscap;
    const pt_locs * l;       /* the model's locations and mappings */
    uint32_t * mapid;        /* l->maps index -> mapping id (0: none) */
    uint32_t nmap;
    double period_ns;
    int oom;
} pp_t;

static uint64_t hash_bytes(const char * s)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (; *s; s++)
        h = (h ^ (unsigned char) *s) * UINT64_C(1099511628211);
    return h;
}

/* The string table index of s (added on first use; s must live until
   the end). 0 ("") if out of memory. */
static uint64_t str_of(pp_t * p, const char * s)
{
    uint64_t key = hash_bytes(s);
    if (s[0] == '\0')
        return 0;
    for (;; key++)
    {
        void ** slot = pt_map_find(&p->stridx, key, 1);
        if (slot == NULL)
            return p->oom = 1, 0;
        if (*slot != NULL && strcmp(p->str[(size_t) *slot - 1], s) != 0)
            continue;   /* another string of the same hash: the next key */
        if (*slot != NULL)
            return (uint64_t) (size_t) *slot - 1;
        if (prof_impl_grow(&p->str, &p->strcap, p->nstr + 1, sizeof *p->str) != 0)
            return p->oom = 1, 0;
        p->str[p->nstr++] = s;
        *slot = (void *) p->nstr;
        p->stridx.n++;
        return p->nstr - 1;
    }
}

static void value_type(pp_t * p, unsigned field, const char * type,
                       const char * unit)
{
    pb_uint(&p->inner, VT_TYPE, str_of(p, type));
    pb_uint(&p->inner, VT_UNIT, str_of(p, unit));
    pb_nest(&p->out, field, &p->inner);
}

/* A build-id's bytes as a hex string of the table, 0 if none. */
static uint64_t build_id(pp_t * p, const pt_file_info * f)
{
    char * hex;
    size_t i;
    if (f->build_id_len == 0)
        return 0;
    if (prof_impl_grow(&p->ids, &p->idscap, p->nids + 1, sizeof *p->ids) != 0
        || (hex = (char *) malloc(2 * f->build_id_len + 1)) == NULL)
        return p->oom = 1, 0;
    for (i = 0; i < f->build_id_len; i++)
        sprintf(hex + 2 * i, "%02x", f->build_id[i]);
    p->ids[p->nids++] = hex;
    return str_of(p, hex);
}

/* The next mapping: the model's mapping m. */
static void put_mapping(pp_t * p, uint32_t m)
{
    const pt_loc_map * lm = &p->l->maps[m];
    uint64_t start, end, id = build_id(p, &lm->file);
    pt_locs_span(p->l, m, &start, &end);
    p->mapid[m] = ++p->nmap;
    pb_uint(&p->msg, MA_ID, p->nmap);
    pb_uint(&p->msg, MA_START, start);
    pb_uint(&p->msg, MA_LIMIT, end);
    pb_uint(&p->msg, MA_OFFSET, lm->offset);
    pb_uint(&p->msg, MA_FILE, str_of(p, pt_samples_module(p->s, lm->mod)));
    if (id != 0)
        pb_uint(&p->msg, MA_BUILD_ID, id);
    pb_uint(&p->msg, MA_HAS_FUNCTIONS, 1);  /* every location has its line */
    pb_nest(&p->out, PR_MAPPING, &p->msg);
}

/* The model's mappings but [unknown] (its frames get mapping_id 0): the
   main executable's first (pprof takes mapping 1 for the program), then
   in the model's order. */
static void put_mappings(pp_t * p)
{
    uint32_t m;
    int pass;
    for (pass = 0; pass < 2; pass++)
        for (m = 1; m < p->l->nmaps; m++)
            if (p->mapid[m] == 0 && p->l->maps[m].mod != 0
                && (pass == 1 || strcmp(pt_samples_module(p->s, p->l->maps[m].mod),
                                        p->t->process) == 0))
                put_mapping(p, m);
}

static void put_functions(pp_t * p)
{
    size_t i, n = pt_samples_functions(p->s);
    for (i = 0; i < n; i++)
    {
        uint64_t name = str_of(p, pt_samples_function(p->s, (uint32_t) i));
        pb_uint(&p->msg, FN_ID, i + 1);
        pb_uint(&p->msg, FN_NAME, name);
        pb_uint(&p->msg, FN_SYSTEM_NAME, name);
        pb_nest(&p->out, PR_FUNCTION, &p->msg);
    }
}

/* The model's locations: location i + 1 is its location i. */
static void put_locations(pp_t * p)
{
    pb_buf line = { NULL, 0, 0, 0 };
    size_t i;
    for (i = 0; i < p->l->n; i++)
    {
        const pt_loc * lo = &p->l->v[i];
        pb_uint(&p->inner, LO_ID, i + 1);
        if (p->mapid[lo->map] != 0)
            pb_uint(&p->inner, LO_MAPPING, p->mapid[lo->map]);
        if (lo->addr != PT_LOC_NONE)
            pb_uint(&p->inner, LO_ADDRESS, lo->addr);
        pb_uint(&line, LI_FUNCTION, (uint64_t) lo->fn + 1);
        pb_nest(&p->inner, LO_LINE, &line);
        pb_nest(&p->out, PR_LOCATION, &p->inner);
    }
    p->oom |= line.oom;
    free(line.d);
}

/* The samples of named stack rs in zone (NULL: none), weight w. */
static void put_sample(void * ctx, const char * zone, char kind, uint32_t rs,
                       uint64_t w)
{
    pp_t * p = (pp_t *) ctx;
    uint32_t n, k;
    const uint32_t * lo = pt_samples_stack_locs(p->s, rs);
    (void) kind;
    (void) pt_samples_stack(p->s, rs, &n);
    for (k = 0; k < n; k++)
        pb_uint(&p->msg, SA_LOCATION, lo[k] + 1ull);
    pb_uint(&p->msg, SA_VALUE, w);
    pb_uint(&p->msg, SA_VALUE, (uint64_t) llround((double) w * p->period_ns));
    if (zone != NULL)
    {
        pb_uint(&p->inner, LA_KEY, str_of(p, "zone"));
        pb_uint(&p->inner, LA_STR, str_of(p, zone));
        pb_nest(&p->msg, SA_LABEL, &p->inner);
    }
    pb_nest(&p->out, PR_SAMPLE, &p->msg);
}

static void put_profile(pp_t * p)
{
    const pt_trace * t = p->t;
    size_t i;
    p->period_ns = pt_samples_period_ns(t);
    if (prof_impl_grow(&p->str, &p->strcap, 1, sizeof *p->str) != 0)
    {
        p->oom = 1;
        return;
    }
    p->str[p->nstr++] = "";     /* string_table[0], as pprof requires */
    value_type(p, PR_SAMPLE_TYPE, "samples", "count");
    value_type(p, PR_SAMPLE_TYPE, "cpu", "nanoseconds");
    value_type(p, PR_PERIOD_TYPE, "cpu", "nanoseconds");
    pb_uint(&p->out, PR_PERIOD, (uint64_t) llround(p->period_ns));
    pb_uint(&p->out, PR_TIME, t->start_unix_ns);
    pb_uint(&p->out, PR_DURATION, (uint64_t) pt_whole_ns(t, t->span));
    put_mappings(p);
    put_functions(p);
    put_locations(p);
    if (pt_samples_by_zone(p->s, p, put_sample) != 0)
        p->oom = 1;
    pb_string(&p->out, PR_STRING, "");      /* string_table[0] */
    for (i = 1; i < p->nstr; i++)
        pb_string(&p->out, PR_STRING, p->str[i]);
}

int pt_pprof_write(FILE * out, const pt_trace * t, pt_samples * s)
{
    pp_t p;
    unsigned char * z = NULL;
    size_t size = 0, i;
    memset(&p, 0, sizeof p);
    p.t = t;
    p.s = s;
    if (pt_samples_count(s) == 0)
        prof_impl_warn("prof-trace: the trace holds no samples: the profile "
                       "is empty (sample with prof-trace record or "
                       "PROF_SAMPLE_HZ)");
    p.l = pt_samples_locs(s);
    if ((p.mapid = (uint32_t *) calloc(p.l->nmaps + 1, sizeof *p.mapid)) == NULL)
        p.oom = 1;
    else
        put_profile(&p);
    p.oom |= p.out.oom || p.msg.oom || p.inner.oom;
    if (!p.oom && (z = pt_gzip(p.out.d, p.out.n, &size)) == NULL)
        p.oom = 1;
    if (!p.oom)
        fwrite(z, 1, size, out);
    free(z);
    free(p.out.d), free(p.msg.d), free(p.inner.d);
    free(p.str);
    pt_map_free(&p.stridx, 0);
    for (i = 0; i < p.nids; i++)
        free(p.ids[i]);
    free(p.ids);
    free(p.mapid);
    return p.oom ? -1 : 0;
}
