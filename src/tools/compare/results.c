/*
    Result files: this library's JSON or Google Benchmark's
    (--benchmark_format=json) loaded one entry at a time, per-repetition
    samples grouped by benchmark (the runner's one entry a benchmark
    carries its epochs as an array), found by name through a hash index
    (compare.h).
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "compare.h"
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Result files larger than this are refused (a hostile or wrong file). */
#define MAX_FILE_BYTES ((size_t) 256 << 20)

/* ---- reading a result file ------------------------------------------------ */

/* A whole result file (at most MAX_FILE_BYTES); NULL with a message in
   err. */
static char * read_file(const char * path, size_t * len, char * err,
                        size_t errlen)
{
    FILE * f = fopen(path, "rb");
    char * buf;
    if (f == NULL)
    {
        snprintf(err, errlen, "cannot open: %s", strerror(errno));
        return NULL;
    }
    buf = prof_impl_read_all(f, len, MAX_FILE_BYTES);
    if (buf == NULL)
        snprintf(err, errlen, "%s%s", errno == ENOMEM ? "out of memory"
                 : errno == EFBIG ? "larger than the limit of 256 MiB"
                 : "read error: ", errno == ENOMEM || errno == EFBIG ? ""
                 : strerror(errno));
    fclose(f);
    return buf;
}

static const char * get_string(const prof_json * obj, const char * key)
{
    const prof_json * v = prof_impl_json_get(obj, key);
    return v != NULL && v->kind == PROF_JSON_STRING ? v->string : NULL;
}

/* Whether the string of key holds a NUL (\u0000): as a C string it would
   end there, and two names that differ after it would be one. */
static int holds_nul(const prof_json * obj, const char * key)
{
    const prof_json * v = prof_impl_json_get(obj, key);
    return v != NULL && v->kind == PROF_JSON_STRING
        && strlen(v->string) != v->length;
}

/* The number of key, or NaN if absent; -1 with a message if not a number. */
static int get_number(const prof_json * obj, const char * key, double * out,
                      char * err, size_t errlen, size_t index)
{
    const prof_json * v = prof_impl_json_get(obj, key);
    *out = NAN;
    if (v == NULL)
        return 0;
    if (v->kind != PROF_JSON_NUMBER)
    {
        snprintf(err, errlen, "benchmarks[%lu].%s is not a number",
                 (unsigned long) index, key);
        return -1;
    }
    *out = v->number;
    return 0;
}

/* The number of key where it is one, else NaN (null, absent: a figure
   the file does not know). */
static double number_or_nan(const prof_json * obj, const char * key)
{
    const prof_json * v = prof_impl_json_get(obj, key);
    return v != NULL && v->kind == PROF_JSON_NUMBER ? v->number : NAN;
}

/* ---- the index of series by name ------------------------------------------ */

static size_t hash_name(const char * s)
{
    size_t h = 2166136261u;          /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char) *s) * 16777619u;
    return h;
}

/* The slot of name in the index: where it is, or the empty slot where it
   would go. */
static size_t slot_of(const prof_result_file * rf, const char * name)
{
    size_t mask = rf->index_size - 1, k = hash_name(name) & mask;
    while (rf->index[k] != 0
           && strcmp(rf->series[rf->index[k] - 1].name, name) != 0)
        k = (k + 1) & mask;
    return k;
}

/* Keep the index at most half full: 0, or -1 out of memory. */
static int index_reserve(prof_result_file * rf, int count)
{
    size_t size = rf->index_size ? rf->index_size : 64;
    int * old = rf->index, i;
    if ((size_t) count * 2 <= rf->index_size)
        return 0;
    while ((size_t) count * 2 > size)
        size *= 2;
    rf->index = (int *) calloc(size, sizeof *rf->index);
    if (rf->index == NULL)
    {
        rf->index = old;
        return -1;
    }
    rf->index_size = size;
    for (i = 0; i < rf->count; i++)
        rf->index[slot_of(rf, rf->series[i].name)] = i + 1;
    free(old);
    return 0;
}

const prof_series * prof_impl_results_find(const prof_result_file * rf,
                                           const char * name)
{
    size_t k;
    if (rf->index_size == 0)
        return NULL;
    k = slot_of(rf, name);
    return rf->index[k] != 0 ? &rf->series[rf->index[k] - 1] : NULL;
}

/* ---- the loader ------------------------------------------------------------- */

/* An iteration entry's repetition_index (NaN: none) and its place in the
   file, for the duplicate check once all are read. */
typedef struct { double rep; size_t entry; } seen_rep;

/* What the loader keeps per series besides the series itself. */
typedef struct
{
    seen_rep * reps;
    size_t nreps, reps_cap, samples_cap;
} series_extra;

typedef struct
{
    prof_result_file * rf;
    series_extra * extra;        /* parallel to rf->series */
    size_t series_cap, extra_cap, fits_cap;
    char * err;
    size_t errlen;
} loader;

/* The fields of one entry that the loader uses. */
typedef struct
{
    const char * name, * run_name, * run_type, * unit, * aggregate;
    double real_time, per_unit;
    int is_aggregate;
} entry;

static int oom(loader * L)
{
    snprintf(L->err, L->errlen, "out of memory");
    return -1;
}

/* The series called name, made if new; NULL when out of memory. */
static prof_series * series_named(loader * L, const char * name)
{
    prof_result_file * rf = L->rf;
    prof_series * s;
    size_t k, n = (size_t) rf->count + 1;

    if (index_reserve(rf, rf->count + 1) != 0)
        return NULL;
    k = slot_of(rf, name);
    if (rf->index[k] != 0)
        return &rf->series[rf->index[k] - 1];
    if (prof_impl_grow(&rf->series, &L->series_cap, n, sizeof *rf->series)
        || prof_impl_grow(&L->extra, &L->extra_cap, n, sizeof *L->extra))
        return NULL;
    s = &rf->series[rf->count];
    memset(s, 0, sizeof *s);
    memset(&L->extra[rf->count], 0, sizeof *L->extra);
    if ((s->name = prof_impl_strdup(name)) == NULL)
        return NULL;
    s->aggregate_median_ns = NAN;
    s->load_avg = NAN;
    s->next_low_ns = s->next_high_ns = NAN;
    rf->index[k] = ++rf->count;
    return s;
}

/* A family's fitted curve: a "BigO" aggregate b (family: its run_name),
   or the "complexity" object of a runner's entry (family: its own). */
static int add_fit(loader * L, const prof_json * b, const char * family,
                   double per_unit)
{
    prof_result_file * rf = L->rf;
    const prof_json * c = prof_impl_json_get(b, "real_coefficient");
    const char * big_o = get_string(b, "big_o");
    prof_fit_line * f;

    if (big_o == NULL || c == NULL || c->kind != PROF_JSON_NUMBER
        || per_unit == 0.0 || family == NULL)
        return 0;                      /* nothing to draw: not an error */
    if (prof_impl_grow(&rf->fits, &L->fits_cap, (size_t) rf->nfits + 1,
                       sizeof *rf->fits) != 0)
        return oom(L);
    f = &rf->fits[rf->nfits];
    if ((f->family = prof_impl_strdup(family)) == NULL)
        return oom(L);
    snprintf(f->big_o, sizeof f->big_o, "%s", big_o);
    f->coefficient_ns = c->number * per_unit;
    rf->nfits++;
    return 0;
}

/* Read and check the fields of entry i: 0, 1 for an entry to skip (an
   error the benchmark reported), or -1 with a message. */
static int read_entry(loader * L, const prof_json * b, size_t i, entry * e)
{
    const prof_json * error = prof_impl_json_get(b, "error_occurred");
    if (b->kind != PROF_JSON_OBJECT)
    {
        snprintf(L->err, L->errlen, "benchmarks[%lu] is not an object",
                 (unsigned long) i);
        return -1;
    }
    e->name = get_string(b, "name");
    e->run_name = get_string(b, "run_name");
    e->run_type = get_string(b, "run_type");
    e->unit = get_string(b, "time_unit");
    e->aggregate = get_string(b, "aggregate_name");
    e->is_aggregate = e->run_type != NULL
                   && strcmp(e->run_type, "aggregate") == 0;
    e->per_unit = e->unit != NULL ? prof_impl_time_unit_ns(e->unit) : 1.0;
    if (e->name == NULL)
    {
        snprintf(L->err, L->errlen, "benchmarks[%lu] has no \"name\" string",
                 (unsigned long) i);
        return -1;
    }
    if (holds_nul(b, "name") || holds_nul(b, "run_name"))
    {
        snprintf(L->err, L->errlen, "benchmarks[%lu]: a name holds a NUL "
                 "character (\\u0000)", (unsigned long) i);
        return -1;
    }
    if (e->run_name == NULL)
        e->run_name = e->name;
    if (get_number(b, "real_time", &e->real_time, L->err, L->errlen, i) != 0)
        return -1;
    if (e->real_time < 0.0)    /* a time never is: the file is wrong */
    {
        snprintf(L->err, L->errlen, "benchmarks[%lu].real_time is negative",
                 (unsigned long) i);
        return -1;
    }
    if (error != NULL && error->kind == PROF_JSON_BOOL && error->number != 0)
    {
        prof_impl_warn("benchmark \"%s\" reported an error; skipped", e->name);
        return 1;
    }
    return 0;
}

/* An iteration entry: one sample, and its repetition_index noted. */
static int add_iteration(loader * L, prof_series * s, const prof_json * b,
                         const entry * e, size_t i)
{
    series_extra * x = &L->extra[s - L->rf->series];
    const prof_json * rep = prof_impl_json_get(b, "repetition_index");

    if (isnan(e->real_time))
    {
        snprintf(L->err, L->errlen, "benchmarks[%lu] (\"%s\") has no "
                 "\"real_time\"", (unsigned long) i, e->name);
        return -1;
    }
    if (prof_impl_grow(&s->samples_ns, &x->samples_cap, (size_t) s->count + 1,
                       sizeof *s->samples_ns) != 0
        || prof_impl_grow(&x->reps, &x->reps_cap, x->nreps + 1,
                          sizeof *x->reps) != 0)
        return oom(L);
    s->samples_ns[s->count++] = e->real_time * e->per_unit;
    x->reps[x->nreps].rep = rep != NULL && rep->kind == PROF_JSON_NUMBER
                          ? rep->number : NAN;
    x->reps[x->nreps++].entry = i;
    return 0;
}

/* The runner's one entry of a benchmark: its epochs, the array
   "epochs_real_time" (in its time unit), are the samples; the entry is
   noted as a repetition without an index, so that a second entry of the
   name is a duplicate. 0, or -1 with a message. */
static int add_epochs(loader * L, prof_series * s, const prof_json * a,
                      const entry * e, size_t i)
{
    series_extra * x = &L->extra[s - L->rf->series];
    size_t k;

    if (prof_impl_grow(&s->samples_ns, &x->samples_cap,
                       (size_t) s->count + a->count, sizeof *s->samples_ns)
        != 0
        || prof_impl_grow(&x->reps, &x->reps_cap, x->nreps + 1,
                          sizeof *x->reps) != 0)
        return oom(L);
    for (k = 0; k < a->count; k++)
    {
        const prof_json * v = a->items[k];
        if (v->kind != PROF_JSON_NUMBER || !(v->number >= 0.0))
        {
            snprintf(L->err, L->errlen, "benchmarks[%lu].epochs_real_time"
                     "[%lu] is not a time", (unsigned long) i,
                     (unsigned long) k);
            return -1;
        }
        s->samples_ns[s->count++] = v->number * e->per_unit;
    }
    x->reps[x->nreps].rep = NAN;
    x->reps[x->nreps++].entry = i;
    return 0;
}

/* The runner's figures of a benchmark, from the entry that carries them
   (the one entry, or the median aggregate with --json-epochs; per_unit:
   ns per its time unit). */
static void runner_fields(prof_series * s, const prof_json * b,
                          double per_unit)
{
    double n = number_or_nan(b, "flags");
    /* the runner's: measured under a load over the cores */
    s->loaded = n >= 0.0 && n < 2147483648.0
             && ((long) n & PROF_RESULT_LOADED) != 0;
    s->load_avg = number_or_nan(b, "load_avg_1m");
    s->next_low_ns = number_or_nan(b, "next_low") * per_unit;
    s->next_high_ns = number_or_nan(b, "next_high") * per_unit;
}

/* One entry of the "benchmarks" array (prof_json_each_fn). */
static int on_entry(const prof_json * b, size_t i, void * ctx)
{
    loader * L = (loader *) ctx;
    const prof_json * epochs, * fit;
    prof_series * s;
    entry e;
    double n;
    int rc = read_entry(L, b, i, &e);

    if (rc != 0)
        return rc < 0 ? -1 : 0;
    /* Aggregates other than the median are derived data; the median is
       kept as the figure when no samples are present. */
    if (e.is_aggregate && e.aggregate != NULL
        && strcmp(e.aggregate, "BigO") == 0)
        return add_fit(L, b, e.run_name, e.per_unit);
    if (e.is_aggregate
        && !(e.aggregate != NULL && strcmp(e.aggregate, "median") == 0))
        return 0;
    if (e.per_unit == 0.0)
    {
        snprintf(L->err, L->errlen, "benchmarks[%lu] (\"%s\"): unknown "
                 "time_unit \"%s\"", (unsigned long) i, e.name, e.unit);
        return -1;
    }
    if ((s = series_named(L, e.run_name)) == NULL)
        return oom(L);
    if (get_number(b, "complexity_n", &n, L->err, L->errlen, i) != 0)
        return -1;
    if (n > 0.0)
        s->complexity_n = n;
    epochs = prof_impl_json_get(b, "epochs_real_time");
    if (!e.is_aggregate && (epochs == NULL || epochs->kind != PROF_JSON_ARRAY
                            || epochs->count == 0))
        return add_iteration(L, s, b, &e, i);
    if (!isnan(e.real_time))
        s->aggregate_median_ns = e.real_time * e.per_unit;
    runner_fields(s, b, e.per_unit);
    if (e.is_aggregate)
        return 0;
    fit = prof_impl_json_get(b, "complexity");
    if (fit != NULL && fit->kind == PROF_JSON_OBJECT
        && add_fit(L, fit, get_string(fit, "family"), e.per_unit) != 0)
        return -1;
    return add_epochs(L, s, epochs, &e, i);
}

static int cmp_seen(const void * a, const void * b)
{
    const seen_rep * x = (const seen_rep *) a, * y = (const seen_rep *) b;
    if (x->rep != y->rep)
        return x->rep > y->rep ? 1 : -1;
    return (x->entry > y->entry) - (x->entry < y->entry);
}

/* A name may repeat only as repetitions: iteration entries that all have
   a repetition_index, each a different one. 0, or -1 with a message
   naming the entry that repeats the name. */
static int check_repetitions(loader * L, int k)
{
    series_extra * x = &L->extra[k];
    size_t j, bad = 0;
    if (x->nreps < 2)
        return 0;
    for (j = 0; j < x->nreps && bad == 0; j++)   /* in the order of the file */
        if (isnan(x->reps[j].rep))
            bad = x->reps[1].entry;
    if (bad == 0)
    {
        qsort(x->reps, x->nreps, sizeof *x->reps, cmp_seen);
        for (j = 0; j + 1 < x->nreps; j++)
            if (x->reps[j].rep == x->reps[j + 1].rep
                && (bad == 0 || x->reps[j + 1].entry < bad))
                bad = x->reps[j + 1].entry;
    }
    if (bad == 0)
        return 0;
    snprintf(L->err, L->errlen, "benchmarks[%lu]: duplicate benchmark name "
             "\"%s\"", (unsigned long) bad, L->rf->series[k].name);
    return -1;
}

/* Once all entries are read: duplicates refused, medians computed. */
static int finish(loader * L)
{
    prof_result_file * rf = L->rf;
    double * tmp = NULL;
    size_t cap = 0;
    int k;
    for (k = 0; k < rf->count; k++)
    {
        prof_series * s = &rf->series[k];
        if (check_repetitions(L, k) != 0)
            break;
        s->median_ns = s->aggregate_median_ns;
        if (s->count == 0)
            continue;
        if (prof_impl_grow(&tmp, &cap, (size_t) s->count, sizeof *tmp) != 0)
        {
            oom(L);
            break;
        }
        memcpy(tmp, s->samples_ns, (size_t) s->count * sizeof *tmp);
        s->median_ns = prof_impl_median(tmp, s->count);
    }
    free(tmp);
    return k == rf->count ? 0 : -1;
}

int prof_impl_results_load(const char * path, prof_result_file * rf,
                           char * err, size_t errlen)
{
    size_t len = 0;
    char * text;
    int rc;

    memset(rf, 0, sizeof *rf);
    text = read_file(path, &len, err, errlen);
    if (text == NULL)
        return -1;
    rc = prof_impl_results_parse(text, len, rf, err, errlen);
    free(text);
    return rc;
}

int prof_impl_results_parse(const char * text, size_t len,
                            prof_result_file * rf, char * err, size_t errlen)
{
    loader L;
    size_t k;
    int rc;

    memset(rf, 0, sizeof *rf);
    memset(&L, 0, sizeof L);
    L.rf = rf;
    L.err = err;
    L.errlen = errlen;
    rc = prof_impl_json_each(text, len, "benchmarks", on_entry, &L, err,
                             errlen);
    if (rc > 0)
        snprintf(err, errlen, "no \"benchmarks\" array at the top level: not "
                 "a result file");
    if (rc == 0)
        rc = finish(&L);
    for (k = 0; k < (size_t) rf->count; k++)
        free(L.extra[k].reps);
    free(L.extra);
    if (rc != 0)
        prof_impl_results_free(rf);
    return rc != 0 ? -1 : 0;
}

void prof_impl_results_free(prof_result_file * rf)
{
    int i;
    for (i = 0; i < rf->count; i++)
    {
        free(rf->series[i].name);
        free(rf->series[i].samples_ns);
    }
    free(rf->series);
    for (i = 0; i < rf->nfits; i++)
        free(rf->fits[i].family);
    free(rf->fits);
    free(rf->index);
    memset(rf, 0, sizeof *rf);
}
