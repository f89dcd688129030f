/*
    Comparing result files: load this library's JSON or Google Benchmark's
    (--benchmark_format=json), group per-repetition samples by benchmark,
    and decide whether a change is real (Mann-Whitney U plus a threshold).
    SPDX-License-Identifier: MIT
*/
#include "../internal.h"
#include "compare.h"
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Result files larger than this are refused (a hostile or wrong file). */
#define MAX_FILE_BYTES ((size_t) 256 << 20)

/* Records of the pooled samples of a rank test, ordered by value. */
typedef struct { double v; int from_x; } obs;

static int cmp_obs(const void * a, const void * b)
{
    double x = ((const obs *) a)->v, y = ((const obs *) b)->v;
    return (x > y) - (x < y);
}

/* Read a whole file; NULL with a message in err. */
static char * read_file(const char * path, size_t * len, char * err,
                        size_t errlen)
{
    FILE * f = fopen(path, "rb");
    char * buf = NULL;
    size_t cap = 0, n = 0;

    if (f == NULL)
    {
        snprintf(err, errlen, "cannot open: %s", strerror(errno));
        return NULL;
    }
    for (;;)
    {
        size_t got;
        if (n == cap)
        {
            char * nb;
            if (cap >= MAX_FILE_BYTES)
            {
                snprintf(err, errlen, "larger than %lu MiB",
                         (unsigned long) (MAX_FILE_BYTES >> 20));
                free(buf);
                fclose(f);
                return NULL;
            }
            cap = cap ? 2 * cap : 1 << 16;
            nb = (char *) realloc(buf, cap);
            if (nb == NULL)
            {
                snprintf(err, errlen, "out of memory");
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f))
    {
        snprintf(err, errlen, "read error: %s", strerror(errno));
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* Nanoseconds per unit of a time_unit string, or 0 if unknown. */
static double unit_ns(const char * unit)
{
    if (strcmp(unit, "ns") == 0) return 1.0;
    if (strcmp(unit, "us") == 0) return 1e3;
    if (strcmp(unit, "ms") == 0) return 1e6;
    if (strcmp(unit, "s") == 0) return 1e9;
    return 0.0;
}

static const char * get_string(const prof_json * obj, const char * key)
{
    const prof_json * v = prof_impl_json_get(obj, key);
    return v != NULL && v->kind == PROF_JSON_STRING ? v->string : NULL;
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

static prof_series * find_series(prof_result_file * rf, const char * name)
{
    int i;
    for (i = 0; i < rf->count; i++)
        if (strcmp(rf->series[i].name, name) == 0)
            return &rf->series[i];
    return NULL;
}

static int add_sample(prof_series * s, double v)
{
    if (s->count == s->capacity)
    {
        int ncap = s->capacity ? 2 * s->capacity : 8;
        double * n = (double *) realloc(s->samples_ns, (size_t) ncap * sizeof *n);
        if (n == NULL)
            return -1;
        s->samples_ns = n;
        s->capacity = ncap;
    }
    s->samples_ns[s->count++] = v;
    return 0;
}

static prof_series * new_series(prof_result_file * rf, const char * name)
{
    prof_series * s;
    if (rf->count == rf->capacity)
    {
        int ncap = rf->capacity ? 2 * rf->capacity : 16;
        prof_series * n = (prof_series *) realloc(rf->series,
                                                  (size_t) ncap * sizeof *n);
        if (n == NULL)
            return NULL;
        rf->series = n;
        rf->capacity = ncap;
    }
    s = &rf->series[rf->count];
    memset(s, 0, sizeof *s);
    s->name = (char *) malloc(strlen(name) + 1);
    if (s->name == NULL)
        return NULL;
    strcpy(s->name, name);
    s->aggregate_median_ns = NAN;
    rf->count++;
    return s;
}

/* A name may repeat only as Google Benchmark's repetitions: entries with
   distinct repetition_index values and no "samples" array. */
static int check_duplicate(prof_series * s, const prof_json * b,
                           int has_array, size_t index, char * err,
                           size_t errlen)
{
    const prof_json * rep = prof_impl_json_get(b, "repetition_index");
    int k;

    if (s->entries == 0)
        s->from_array = has_array;
    else if (has_array || s->from_array || rep == NULL
             || rep->kind != PROF_JSON_NUMBER)
        goto duplicate;
    if (rep != NULL && rep->kind == PROF_JSON_NUMBER)
    {
        double * n;
        for (k = 0; k < s->repetition_count; k++)
            if (s->repetitions[k] == rep->number)
                goto duplicate;
        n = (double *) realloc(s->repetitions,
                               (size_t) (s->repetition_count + 1) * sizeof *n);
        if (n == NULL)
        {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        s->repetitions = n;
        s->repetitions[s->repetition_count++] = rep->number;
    }
    return 0;
duplicate:
    snprintf(err, errlen, "benchmarks[%lu]: duplicate benchmark name \"%s\"",
             (unsigned long) index, s->name);
    return -1;
}

/* A "BigO" aggregate: the family's fitted curve. */
static int add_fit(prof_result_file * rf, const prof_json * b,
                   const char * family, const char * unit, char * err,
                   size_t errlen)
{
    const char * big_o = get_string(b, "big_o");
    const prof_json * c = prof_impl_json_get(b, "real_coefficient");
    double per_unit = unit != NULL ? unit_ns(unit) : 1.0;
    prof_fit_line * n, * f;

    if (big_o == NULL || c == NULL || c->kind != PROF_JSON_NUMBER
        || per_unit == 0.0)
        return 0;                      /* nothing to draw: not an error */
    n = (prof_fit_line *) realloc(rf->fits, (size_t) (rf->nfits + 1) * sizeof *n);
    if (n == NULL)
        goto oom;
    rf->fits = n;
    f = &rf->fits[rf->nfits];
    f->family = (char *) malloc(strlen(family) + 1);
    if (f->family == NULL)
        goto oom;
    strcpy(f->family, family);
    snprintf(f->big_o, sizeof f->big_o, "%s", big_o);
    f->coefficient_ns = c->number * per_unit;
    rf->nfits++;
    return 0;
oom:
    snprintf(err, errlen, "out of memory");
    return -1;
}

static int load_entries(const prof_json * benchmarks, prof_result_file * rf,
                        char * err, size_t errlen)
{
    size_t i;
    for (i = 0; i < benchmarks->count; i++)
    {
        const prof_json * b = benchmarks->items[i], * samples;
        const char * name, * run_name, * run_type, * unit, * agg;
        double real_time, per_unit;
        prof_series * s;

        if (b->kind != PROF_JSON_OBJECT)
        {
            snprintf(err, errlen, "benchmarks[%lu] is not an object",
                     (unsigned long) i);
            return -1;
        }
        name = get_string(b, "name");
        run_name = get_string(b, "run_name");
        run_type = get_string(b, "run_type");
        unit = get_string(b, "time_unit");
        agg = get_string(b, "aggregate_name");
        if (name == NULL)
        {
            snprintf(err, errlen, "benchmarks[%lu] has no \"name\" string",
                     (unsigned long) i);
            return -1;
        }
        if (run_name == NULL)
            run_name = name;
        if (get_number(b, "real_time", &real_time, err, errlen, i) != 0)
            return -1;
        if (real_time < 0.0)    /* a time never is: the file is wrong */
        {
            snprintf(err, errlen, "benchmarks[%lu].real_time is negative",
                     (unsigned long) i);
            return -1;
        }
        {
            const prof_json * e = prof_impl_json_get(b, "error_occurred");
            if (e != NULL && e->kind == PROF_JSON_BOOL && e->number != 0)
            {
                prof_impl_warn("benchmark \"%s\" reported an error; skipped",
                               name);
                continue;
            }
        }
        /* Aggregates other than the median are derived data; the median is
           kept as the figure when no samples are present. */
        if (run_type != NULL && strcmp(run_type, "aggregate") == 0
            && agg != NULL && strcmp(agg, "BigO") == 0)
        {
            if (add_fit(rf, b, run_name, unit, err, errlen) != 0)
                return -1;
            continue;
        }
        if (run_type != NULL && strcmp(run_type, "aggregate") == 0
            && !(agg != NULL && strcmp(agg, "median") == 0))
            continue;
        per_unit = unit != NULL ? unit_ns(unit) : 1.0;
        if (per_unit == 0.0)
        {
            snprintf(err, errlen, "benchmarks[%lu] (\"%s\"): unknown "
                     "time_unit \"%s\"", (unsigned long) i, name, unit);
            return -1;
        }
        s = find_series(rf, run_name);
        if (s == NULL && (s = new_series(rf, run_name)) == NULL)
        {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        {
            double n;
            if (get_number(b, "complexity_n", &n, err, errlen, i) != 0)
                return -1;
            if (n > 0.0)
                s->complexity_n = n;
        }
        if (run_type != NULL && strcmp(run_type, "aggregate") == 0)
        {
            if (!isnan(real_time))
                s->aggregate_median_ns = real_time * per_unit;
            continue;
        }
        samples = prof_impl_json_get(b, "samples");
        if (check_duplicate(s, b, samples != NULL, i, err, errlen) != 0)
            return -1;
        s->entries++;
        if (samples != NULL)
        {
            size_t k;
            if (samples->kind != PROF_JSON_ARRAY)
            {
                snprintf(err, errlen, "benchmarks[%lu].samples is not an "
                         "array", (unsigned long) i);
                return -1;
            }
            for (k = 0; k < samples->count; k++)
            {
                if (samples->items[k]->kind != PROF_JSON_NUMBER)
                {
                    snprintf(err, errlen, "benchmarks[%lu].samples[%lu] is "
                             "not a number", (unsigned long) i,
                             (unsigned long) k);
                    return -1;
                }
                if (samples->items[k]->number < 0.0)
                {
                    snprintf(err, errlen, "benchmarks[%lu].samples[%lu] is "
                             "negative", (unsigned long) i, (unsigned long) k);
                    return -1;
                }
                if (add_sample(s, samples->items[k]->number * per_unit) != 0)
                {
                    snprintf(err, errlen, "out of memory");
                    return -1;
                }
            }
        }
        else if (!isnan(real_time))
        {
            if (add_sample(s, real_time * per_unit) != 0)
            {
                snprintf(err, errlen, "out of memory");
                return -1;
            }
        }
        else
        {
            snprintf(err, errlen, "benchmarks[%lu] (\"%s\") has neither "
                     "\"real_time\" nor \"samples\"", (unsigned long) i, name);
            return -1;
        }
    }
    return 0;
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
    char jerr[160];
    prof_json * root;
    const prof_json * benchmarks;
    int i, rc = -1;

    memset(rf, 0, sizeof *rf);
    root = prof_impl_json_parse(text, len, jerr, sizeof jerr);
    if (root == NULL)
    {
        snprintf(err, errlen, "%s", jerr);
        return -1;
    }
    benchmarks = prof_impl_json_get(root, "benchmarks");
    if (root->kind != PROF_JSON_OBJECT || benchmarks == NULL
        || benchmarks->kind != PROF_JSON_ARRAY)
        snprintf(err, errlen, "no \"benchmarks\" array at the top level: not "
                 "a result file");
    else if (load_entries(benchmarks, rf, err, errlen) == 0)
        rc = 0;
    prof_impl_json_free(root);
    if (rc != 0)
    {
        prof_impl_results_free(rf);
        return -1;
    }
    for (i = 0; i < rf->count; i++)
    {
        prof_series * s = &rf->series[i];
        if (s->count > 0)
        {
            double * tmp = (double *) malloc((size_t) s->count * sizeof *tmp);
            if (tmp == NULL)
            {
                snprintf(err, errlen, "out of memory");
                prof_impl_results_free(rf);
                return -1;
            }
            memcpy(tmp, s->samples_ns, (size_t) s->count * sizeof *tmp);
            s->median_ns = prof_impl_median(tmp, s->count);
            free(tmp);
        }
        else
            s->median_ns = s->aggregate_median_ns;
    }
    return 0;
}

void prof_impl_results_free(prof_result_file * rf)
{
    int i;
    for (i = 0; i < rf->count; i++)
    {
        free(rf->series[i].name);
        free(rf->series[i].samples_ns);
        free(rf->series[i].repetitions);
    }
    free(rf->series);
    for (i = 0; i < rf->nfits; i++)
        free(rf->fits[i].family);
    free(rf->fits);
    memset(rf, 0, sizeof *rf);
}

/* ---- Mann-Whitney U ------------------------------------------------------ */

/* Two-sided p-value of the Mann-Whitney U test that x and y come from the
   same distribution. Exact (all rank arrangements counted) when there are
   no ties and n*m is small; otherwise the normal approximation with tie
   correction and continuity correction. NaN when a side is empty. */
double prof_impl_mann_whitney_p(const double * x, int n, const double * y,
                                int m)
{
    obs * all;
    double u, rank_sum_x = 0.0, tie_term = 0.0, p;
    int i, j, N = n + m, ties = 0;

    if (n <= 0 || m <= 0)
        return NAN;
    all = (obs *) malloc((size_t) N * sizeof *all);
    if (all == NULL)
        return NAN;
    for (i = 0; i < n; i++) all[i].v = x[i], all[i].from_x = 1;
    for (i = 0; i < m; i++) all[n + i].v = y[i], all[n + i].from_x = 0;
    qsort(all, (size_t) N, sizeof *all, cmp_obs);
    for (i = 0; i < N; i = j)
    {
        double avg_rank;
        int k;
        for (j = i + 1; j < N && all[j].v == all[i].v; j++)
            ;
        avg_rank = 0.5 * (i + 1 + j);           /* ranks i+1 .. j */
        if (j - i > 1)
        {
            double t = j - i;
            tie_term += t * t * t - t;
            ties = 1;
        }
        for (k = i; k < j; k++)
            if (all[k].from_x)
                rank_sum_x += avg_rank;
    }
    free(all);
    u = rank_sum_x - 0.5 * n * (n + 1.0);

    if (!ties && (double) n * m <= 400.0)
    {
        /* Exact: count(U = k) over all C(N, n) arrangements, by the
           recurrence c(n, m, k) = c(n-1, m, k-m) + c(n, m-1, k). */
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
                {
                    double v;
                    if (a == 0 || b == 0)
                        v = k == 0;
                    else
                        v = (k >= b ? C(a - 1, b, k - b) : 0.0) + C(a, b - 1, k);
                    C(a, b, k) = v;
                }
        for (k = 0; k <= kmax; k++)
        {
            total += C(n, m, k);
            if (k <= umin)
                tail += C(n, m, k);
        }
#undef C
        free(c);
        p = 2.0 * tail / total;
        return p > 1.0 ? 1.0 : p;
    }
    {
        double mu = 0.5 * n * m;
        double var = n * (double) m / 12.0
                   * ((N + 1.0) - tie_term / ((double) N * (N - 1.0)));
        double z;
        if (var <= 0.0)
            return 1.0;                    /* every value equal */
        z = (fabs(u - mu) - 0.5) / sqrt(var);
        if (z < 0.0)
            z = 0.0;
        p = erfc(z / sqrt(2.0));
        return p > 1.0 ? 1.0 : p;
    }
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

    out->change = new_->median_ns / old->median_ns - 1.0;
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

/* A sorted copy of v, reduced to SKETCH evenly spaced quantiles when longer,
   so that the bootstrap's cost stays bounded for huge sample sets. */
enum { SKETCH = 4096 };
static double * quantile_sketch(const double * v, int n, int * out_n)
{
    double * all = (double *) malloc((size_t) n * sizeof *all), * q;
    int i;
    *out_n = n;
    if (all == NULL)
        return NULL;
    memcpy(all, v, (size_t) n * sizeof *all);
    prof_impl_sort(all, n);
    if (n <= SKETCH)
        return all;
    q = (double *) malloc(SKETCH * sizeof *q);
    if (q != NULL)
        for (i = 0; i < SKETCH; i++)
            q[i] = all[(int) ((i + 0.5) * n / SKETCH)];
    free(all);
    *out_n = SKETCH;
    return q;
}

/* A percentile-bootstrap interval (level, e.g. 0.95) of median(new) /
   median(old) - 1: both sides resampled with replacement 2000 times from a
   fixed seed, so the same files always give the same interval. NaN when a
   side has fewer than 2 samples. */
void prof_impl_change_interval(const prof_series * old,
                               const prof_series * new_, double level,
                               double * lo, double * hi)
{
    enum { RESAMPLES = 2000 };
    unsigned long long state = 0x9E3779B97F4A7C15ULL;
    double * ratios, * a, * b, * xa = NULL, * xb = NULL;
    int r, i, n, m;

    *lo = *hi = NAN;
    if (old->count < 2 || new_->count < 2)
        return;
    ratios = (double *) malloc(RESAMPLES * sizeof *ratios);
    xa = quantile_sketch(old->samples_ns, old->count, &n);
    xb = quantile_sketch(new_->samples_ns, new_->count, &m);
    a = (double *) malloc((size_t) n * sizeof *a);
    b = (double *) malloc((size_t) m * sizeof *b);
    if (ratios == NULL || xa == NULL || xb == NULL || a == NULL || b == NULL)
        goto done;
    for (r = 0; r < RESAMPLES; r++)
    {
        for (i = 0; i < n; i++)
        {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17;
            a[i] = xa[state % (unsigned) n];
        }
        for (i = 0; i < m; i++)
        {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17;
            b[i] = xb[state % (unsigned) m];
        }
        ratios[r] = prof_impl_median(b, m) / prof_impl_median(a, n) - 1.0;
    }
    prof_impl_sort(ratios, RESAMPLES);
    *lo = ratios[(int) floor((1.0 - level) / 2 * (RESAMPLES - 1))];
    *hi = ratios[(int) ceil((1.0 + level) / 2 * (RESAMPLES - 1))];
done:
    free(ratios);
    free(xa);
    free(xb);
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
        d[i] = log(new_->samples_ns[i] / old->samples_ns[i]);
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
