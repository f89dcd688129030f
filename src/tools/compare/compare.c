/*
    Comparing result files: load this library's JSON or Google Benchmark's
    (--benchmark_format=json), group per-repetition samples by benchmark,
    and decide whether a change is real (Mann-Whitney U plus a threshold).
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "compare.h"
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Result files larger than this are refused (a hostile or wrong file). */
#define MAX_FILE_BYTES ((size_t) 256 << 20)

/* Records of the pooled samples of a rank test, ordered by value. */
typedef struct { double v; int from_x; } obs;

static int cmp_obs(const void * a, const void * b)
{
    double x = ((const obs *) a)->v, y = ((const obs *) b)->v;
    return (x > y) - (x < y);
}

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
    rf->index[k] = ++rf->count;
    return s;
}

/* A "BigO" aggregate: the family's fitted curve. */
static int add_fit(loader * L, const prof_json * b, const entry * e)
{
    prof_result_file * rf = L->rf;
    const prof_json * c = prof_impl_json_get(b, "real_coefficient");
    const char * big_o = get_string(b, "big_o");
    prof_fit_line * f;

    if (big_o == NULL || c == NULL || c->kind != PROF_JSON_NUMBER
        || e->per_unit == 0.0)
        return 0;                      /* nothing to draw: not an error */
    if (prof_impl_grow(&rf->fits, &L->fits_cap, (size_t) rf->nfits + 1,
                       sizeof *rf->fits) != 0)
        return oom(L);
    f = &rf->fits[rf->nfits];
    if ((f->family = prof_impl_strdup(e->run_name)) == NULL)
        return oom(L);
    snprintf(f->big_o, sizeof f->big_o, "%s", big_o);
    f->coefficient_ns = c->number * e->per_unit;
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

/* One entry of the "benchmarks" array (prof_json_each_fn). */
static int on_entry(const prof_json * b, size_t i, void * ctx)
{
    loader * L = (loader *) ctx;
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
        return add_fit(L, b, &e);
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
    if (!e.is_aggregate)
        return add_iteration(L, s, b, &e, i);
    if (!isnan(e.real_time))
        s->aggregate_median_ns = e.real_time * e.per_unit;
    /* the runner's: measured under a load over the cores */
    n = number_or_nan(b, "flags");
    s->loaded = n >= 0.0 && n < 2147483648.0
             && ((long) n & PROF_RESULT_LOADED) != 0;
    s->load_avg = number_or_nan(b, "load_avg_1m");
    return 0;
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

/* ---- Mann-Whitney U ------------------------------------------------------ */

/* The sum of the ranks of x among x and y pooled (ties get their average
   rank), with the tie correction term sum(t^3 - t) over groups of t equal
   values in *tie_term; NaN when out of memory. */
static double rank_sum_x(const double * x, int n, const double * y, int m,
                         double * tie_term)
{
    obs * all = (obs *) malloc((size_t) (n + m) * sizeof *all);
    double sum = 0.0;
    int i, j, k, N = n + m;

    *tie_term = 0.0;
    if (all == NULL)
        return NAN;
    for (i = 0; i < n; i++) all[i].v = x[i], all[i].from_x = 1;
    for (i = 0; i < m; i++) all[n + i].v = y[i], all[n + i].from_x = 0;
    qsort(all, (size_t) N, sizeof *all, cmp_obs);
    for (i = 0; i < N; i = j)
    {
        double t;
        for (j = i + 1; j < N && all[j].v == all[i].v; j++)
            ;
        t = j - i;
        *tie_term += t * t * t - t;
        for (k = i; k < j; k++)
            if (all[k].from_x)
                sum += 0.5 * (i + 1 + j);       /* ranks i+1 .. j */
    }
    free(all);
    return sum;
}

/* Exact two-sided p of U: count(U = k) over all C(n+m, n) arrangements,
   by the recurrence c(n, m, k) = c(n-1, m, k-m) + c(n, m-1, k). */
static double exact_p(int n, int m, double u)
{
    int kmax = n * m, a, b, k;
    double * c = (double *) calloc((size_t) (n + 1) * (m + 1) * (kmax + 1),
                                   sizeof *c);
    double total = 0.0, tail = 0.0, umin = u < kmax - u ? u : kmax - u;
#define C(a_, b_, k_) c[(((size_t) (a_) * (m + 1)) + (b_)) * (kmax + 1) + (k_)]
    if (c == NULL)
        return NAN;
    for (a = 0; a <= n; a++)
        for (b = 0; b <= m; b++)
            for (k = 0; k <= kmax; k++)
                C(a, b, k) = a == 0 || b == 0 ? (double) (k == 0)
                           : (k >= b ? C(a - 1, b, k - b) : 0.0) + C(a, b - 1, k);
    for (k = 0; k <= kmax; k++)
    {
        total += C(n, m, k);
        if (k <= umin)
            tail += C(n, m, k);
    }
#undef C
    free(c);
    return fmin(1.0, 2.0 * tail / total);
}

/* Two-sided p of U by the normal approximation with tie and continuity
   corrections. */
static double normal_p(int n, int m, double u, double tie_term)
{
    double N = n + m, mu = 0.5 * n * m, z;
    double var = n * (double) m / 12.0
               * ((N + 1.0) - tie_term / (N * (N - 1.0)));
    if (var <= 0.0)
        return 1.0;                    /* every value equal */
    z = fmax(0.0, (fabs(u - mu) - 0.5) / sqrt(var));
    return fmin(1.0, erfc(z / sqrt(2.0)));
}

/* Two-sided p-value of the Mann-Whitney U test that x and y come from the
   same distribution. Exact (all rank arrangements counted) when there are
   no ties and n*m is small; otherwise the normal approximation. NaN when
   a side is empty. */
double prof_impl_mann_whitney_p(const double * x, int n, const double * y,
                                int m)
{
    double tie_term, u;
    if (n <= 0 || m <= 0)
        return NAN;
    u = rank_sum_x(x, n, y, m, &tie_term) - 0.5 * n * (n + 1.0);
    if (isnan(u))
        return NAN;
    if (tie_term == 0.0 && (double) n * m <= 400.0)
        return exact_p(n, m, u);
    return normal_p(n, m, u, tie_term);
}

/* ---- verdicts ------------------------------------------------------------ */

void prof_impl_format_ns(char * buf, size_t len, double ns)
{
    if (isnan(ns))
        snprintf(buf, len, "n/a");
    else if (ns < 1e3)
        snprintf(buf, len, "%.4g ns", ns);
    else if (ns < 1e6)
        snprintf(buf, len, "%.4g us", ns * 1e-3);
    else if (ns < 1e9)
        snprintf(buf, len, "%.4g ms", ns * 1e-6);
    else
        snprintf(buf, len, "%.4g s", ns * 1e-9);
}

/* The verdict rule of both comparisons: unsure when even the test's
   smallest possible p-value does not reach alpha; slower or faster when the
   test rejects and the change is at least the noise floor; else same. */
static int verdict(double p, double change, double smallest_p, double alpha,
                   double noise)
{
    if (isnan(p) || !(smallest_p < alpha))
        return PROF_VERDICT_UNSURE;
    if (p < alpha && fabs(change) >= noise)
        return change > 0 ? PROF_VERDICT_SLOWER : PROF_VERDICT_FASTER;
    return PROF_VERDICT_SAME;
}

void prof_impl_compare(const prof_series * old, const prof_series * new_,
                       double alpha, double noise, prof_verdict * out)
{
    double smallest_p;
    int n = old->count, m = new_->count, k;

    out->change = prof_impl_change(old->median_ns, new_->median_ns);
    out->p = prof_impl_mann_whitney_p(old->samples_ns, n, new_->samples_ns, m);
    prof_impl_change_interval(old, new_, 0.95, &out->ci_low, &out->ci_high);
    /* The smallest p-value the exact test can give is 2 / C(n+m, n): with
       fewer samples no difference can ever be significant. */
    smallest_p = 2.0;
    for (k = 1; k <= n && n + m > 0; k++)
        smallest_p = smallest_p * k / (m + k);
    out->verdict = n < 2 || m < 2 ? PROF_VERDICT_UNSURE
                 : verdict(out->p, out->change, smallest_p, alpha, noise);
}

const char * prof_impl_verdict_name(int verdict)
{
    switch (verdict)
    {
    case PROF_VERDICT_SLOWER: return "slower";
    case PROF_VERDICT_FASTER: return "faster";
    case PROF_VERDICT_SAME: return "same";
    default: return "too few samples";
    }
}

/* ---- interval of the change ---------------------------------------------- */

double prof_impl_change(double old_ns, double new_ns)
{
    return old_ns == new_ns ? 0.0 : new_ns / old_ns - 1.0;
}

/* The core's small deterministic generator (prof_impl_uniform): the same
   files always give the same interval. */
typedef struct { unsigned long long s; } rng;

/* Uniform in (0, 1), never 0 or 1: the core's [0, 1) moved up half a
   step of 2^-53 (exact: the same numbers as before it was shared). */
static double uniform(rng * r)
{
    return prof_impl_uniform(&r->s) + 0.5 / 9007199254740992.0;
}

/* Standard normal (Box-Muller, one of the pair). */
static double normal(rng * r)
{
    double u = uniform(r), v = uniform(r);
    return sqrt(-2.0 * log(u)) * cos(6.283185307179586 * v);
}

/* Gamma(a, 1) for a >= 1 (Marsaglia and Tsang, 2000). */
static double gamma_draw(rng * r, double a)
{
    double d = a - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
    for (;;)
    {
        double x = normal(r), v = 1.0 + c * x, u;
        if (v <= 0.0)
            continue;
        v = v * v * v;
        u = uniform(r);
        if (log(u) < 0.5 * x * x + d - d * v + d * log(v))
            return d * v;
    }
}

/* The median of n values drawn with replacement from sorted[0..n-1], in
   constant time: drawing an index is drawing a uniform u and taking
   floor(u * n), so the k-th smallest of the n draws is the value at the
   k-th smallest of n uniforms, which is Beta(k, n + 1 - k); the next one
   up is the least of the n - k uniforms above it. Exact in distribution,
   whatever n. */
static double resampled_median(rng * r, const double * sorted, int n)
{
    int k = (n + 1) / 2;
    double g = gamma_draw(r, k), u = g / (g + gamma_draw(r, n + 1 - k));
    double lo = sorted[(int) fmin(n - 1, floor(u * n))];
    if (n % 2 == 1)
        return lo;
    u += (1.0 - u) * (1.0 - pow(uniform(r), 1.0 / (n - k)));
    return 0.5 * (lo + sorted[(int) fmin(n - 1, floor(u * n))]);
}

static double * sorted_copy(const prof_series * s)
{
    double * v = (double *) malloc((size_t) s->count * sizeof *v);
    if (v != NULL)
    {
        memcpy(v, s->samples_ns, (size_t) s->count * sizeof *v);
        prof_impl_sort(v, s->count);
    }
    return v;
}

/* A percentile-bootstrap interval (level, e.g. 0.95) of median(new) /
   median(old) - 1: both sides resampled with replacement 2000 times from a
   fixed seed. Each resample's median is drawn in constant time
   (resampled_median), so the cost does not grow with the sample count.
   NaN when a side has fewer than 2 samples. */
void prof_impl_change_interval(const prof_series * old,
                               const prof_series * new_, double level,
                               double * lo, double * hi)
{
    enum { RESAMPLES = 2000 };
    rng r = { 0x9E3779B97F4A7C15ULL };
    double * ratios, * a, * b;
    int i;

    *lo = *hi = NAN;
    if (old->count < 2 || new_->count < 2)
        return;
    ratios = (double *) malloc(RESAMPLES * sizeof *ratios);
    a = sorted_copy(old);
    b = sorted_copy(new_);
    if (ratios != NULL && a != NULL && b != NULL)
    {
        for (i = 0; i < RESAMPLES; i++)
            ratios[i] = prof_impl_change(resampled_median(&r, a, old->count),
                                         resampled_median(&r, b, new_->count));
        prof_impl_sort(ratios, RESAMPLES);
        *lo = ratios[(int) floor((1.0 - level) / 2 * (RESAMPLES - 1))];
        *hi = ratios[(int) ceil((1.0 + level) / 2 * (RESAMPLES - 1))];
    }
    free(ratios);
    free(a);
    free(b);
}

/* ---- several runs a side, paired by position ----------------------------- */

void prof_impl_compare_paired(const prof_series * old,
                              const prof_series * new_, double alpha,
                              double noise, prof_verdict * out)
{
    int n = old->count < new_->count ? old->count : new_->count, i, up = 0,
        down = 0;
    double * d = (double *) malloc((size_t) (n > 0 ? n : 1) * sizeof *d);
    double achieved;

    out->change = out->p = out->ci_low = out->ci_high = NAN;
    out->verdict = PROF_VERDICT_UNSURE;
    if (d == NULL || n < 1)
    {
        free(d);
        return;
    }
    for (i = 0; i < n; i++)
    {
        d[i] = log1p(prof_impl_change(old->samples_ns[i], new_->samples_ns[i]));
        up += d[i] > 0.0;
        down += d[i] < 0.0;
    }
    /* Sign test: under "no change" each pair is as likely to go up as down,
       whatever the size of the noise; ties (equal figures) carry no sign. */
    out->p = up + down == 0 ? 1.0
           : fmin(1.0, 2.0 * prof_impl_binom_cdf_half(up + down,
                                                        up < down ? up : down));
    out->change = exp(prof_impl_median(d, n)) - 1.0;   /* d is now sorted */
    if (prof_impl_median_interval(d, n, 0.95, &out->ci_low, &out->ci_high,
                                  &achieved) == 0)
    {
        out->ci_low = exp(out->ci_low) - 1.0;
        out->ci_high = exp(out->ci_high) - 1.0;
    }
    free(d);
    /* The smallest p the sign test can give with n pairs is 2 / 2^n. */
    out->verdict = verdict(out->p, out->change, 2.0 / pow(2.0, n), alpha,
                           noise);
}

/* ---- the gate ------------------------------------------------------------- */

void prof_impl_gate_default(prof_gate * g)
{
    g->alpha = 0.05;
    g->noise = 0.02;
    g->threshold = -1.0;
}

int prof_impl_gate_option(prof_gate * g, const char * program,
                          const char * name, const char * value)
{
    static const prof_impl_range alpha = { 0.0, 1.0, 1, 0, "a number in (0, 1)" };
    static const prof_impl_range pct = { 0.0, 1e6, 0, 0,
                                         "a number of percent >= 0" };
    double * out = strcmp(name, "--noise") == 0 ? &g->noise : &g->threshold;
    if (strcmp(name, "--alpha") == 0)
        return prof_impl_option_number(program, name, value, &alpha, &g->alpha);
    if (prof_impl_option_number(program, name, value, &pct, out) != 0)
        return -1;
    *out /= 100.0;
    return 0;
}

int prof_impl_gate_regression(const prof_gate * g, const prof_verdict * v)
{
    return v->verdict == PROF_VERDICT_SLOWER && g->threshold >= 0.0
        && v->change > g->threshold;
}

int prof_impl_gate_pairs_needed(double alpha)
{
    int k = 1;
    while (!(2.0 / pow(2.0, k) < alpha) && k < 60)
        k++;
    return k;
}

int prof_impl_gate_samples_needed(double alpha)
{
    /* the exact U test's smallest p with k samples a side is 2 / C(2k, k) */
    double smallest = 1.0;
    int i, k = 1;
    while (smallest >= alpha && k < 1000)
    {
        k++;
        smallest = 2.0;
        for (i = 1; i <= k; i++)
            smallest = smallest * i / (k + i);
    }
    return k;
}

int prof_impl_gate_conclude(FILE * out, const prof_gate * g, int regressions,
                            int unsure, const char * what,
                            const char * too_few)
{
    if (g->threshold < 0.0)
        return PROF_EXIT_PASS;
    if (regressions > 0)
    {
        fprintf(out, "\n%d %s significantly slower by more than %.3g%% "
                "(alpha %.3g)\n", regressions, what, 100.0 * g->threshold, g->alpha);
        return PROF_EXIT_REGRESSION;
    }
    if (unsure > 0)
    {
        fprintf(out, "\nthe gate cannot decide: %d %s have too few %s "
                "(exit %d)\n", unsure, what, too_few, PROF_EXIT_UNDECIDED);
        return PROF_EXIT_UNDECIDED;
    }
    return PROF_EXIT_PASS;
}
