/*
    Comparing two benchmarks of result files (results.c loads them):
    whether a change is real (Mann-Whitney U, or the sign test on runs
    paired by position, plus a noise floor), its interval, and the gate.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "compare.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Records of the pooled samples of a rank test, ordered by value. */
typedef struct { double v; int from_x; } obs;

static int cmp_obs(const void * a, const void * b)
{
    double x = ((const obs *) a)->v, y = ((const obs *) b)->v;
    return (x > y) - (x < y);
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
    prof_impl_change_interval(old, new_, PROF_CI_LEVEL, &out->ci_low,
                              &out->ci_high);
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
    case PROF_VERDICT_DRIFT: return "cannot tell (drift)";
    default: return "too few samples";
    }
}

/* The relative half-width of s's next-run interval, or NaN. */
static double drift_of(const prof_series * s)
{
    double m = s->median_ns;
    if (!(m > 0.0) || isnan(s->next_low_ns) || isnan(s->next_high_ns))
        return NAN;
    return fmax(s->next_high_ns / m - 1.0, 1.0 - s->next_low_ns / m);
}

double prof_impl_drift_verdict(const prof_series * old,
                               const prof_series * new_, prof_verdict * v)
{
    double h = fmax(drift_of(old), drift_of(new_)), x = fabs(v->change);
    if (v->verdict != PROF_VERDICT_SLOWER && v->verdict != PROF_VERDICT_FASTER)
        return h;
    if (isnan(h) || (x > h && !(x > 2.0 * h)))
        v->verdict = PROF_VERDICT_DRIFT;
    else if (!(x > h))
        v->verdict = PROF_VERDICT_SAME;
    return h;
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

/* A percentile-bootstrap interval (level: PROF_CI_LEVEL) of median(new) /
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
    if (prof_impl_median_interval(d, n, PROF_CI_LEVEL, &out->ci_low,
                                  &out->ci_high, &achieved) == 0)
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

const prof_impl_range prof_impl_gate_alpha = { 0.05, 0, 1, 1, 1, 0,
    PROF_IMPL_PLAIN, "a number in ({lo}, {hi})" };
const prof_impl_range prof_impl_gate_noise = { 2, 0, 1e6, 0, 1, 0,
    PROF_IMPL_PLAIN, "a number of percent >= {lo}" };
const prof_impl_range prof_impl_gate_threshold = { -1, 0, 1e6, 0, 1, 0,
    PROF_IMPL_PLAIN, "a number of percent >= {lo}" };

void prof_impl_gate_default(prof_gate * g)
{
    g->alpha = prof_impl_gate_alpha.def;
    g->noise = prof_impl_gate_noise.def / 100.0;
    g->threshold = prof_impl_gate_threshold.def;
}

int prof_impl_gate_option(prof_gate * g, const char * program,
                          const char * name, const char * value)
{
    int noise = strcmp(name, "--noise") == 0;
    double * out = noise ? &g->noise : &g->threshold;
    if (strcmp(name, "--alpha") == 0)
        return prof_impl_option_number(program, name, value,
                                       &prof_impl_gate_alpha, &g->alpha);
    if (prof_impl_option_number(program, name, value, noise
                                ? &prof_impl_gate_noise
                                : &prof_impl_gate_threshold, out) != 0)
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
