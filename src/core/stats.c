/*
    Statistics of a benchmark's epoch samples: order statistics, the
    distribution-free interval of the median, MdAPE, bimodality, and the
    least-squares complexity fit. Pure functions of their inputs: the tests
    call them with fixed numbers.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

void prof_impl_sort(double * x, int n)
{
    if (n > 1)
        qsort(x, (size_t) n, sizeof x[0], cmp_double);
}

/* Median of v[0..n-1], sorting v in place; NaN for n <= 0. */
double prof_impl_median(double * v, int n)
{
    prof_impl_sort(v, n);
    return prof_impl_quantile(v, n, 0.5);
}

/* Linear interpolation between order statistics (Hyndman and Fan's type 7,
   the default of R and numpy): p in [0, 1]. */
double prof_impl_quantile(const double * sorted, int n, double p)
{
    double h, f;
    int i;
    if (n <= 0 || !(p >= 0.0 && p <= 1.0))
        return NAN;
    h = (n - 1) * p;
    i = (int) floor(h);
    if (i >= n - 1)
        return sorted[n - 1];
    f = h - i;
    /* exact for infinite values too (0 * inf and inf - inf are NaN) */
    if (f == 0.0 || sorted[i] == sorted[i + 1])
        return sorted[i];
    return sorted[i] + f * (sorted[i + 1] - sorted[i]);
}

/* Up to this n the binomial terms are computed directly from 2^-n. */
#define EXACT_N 1000

/* P(X <= k) for X ~ Binomial(n, 1/2): directly up to EXACT_N, from
   logarithms beyond. */
double prof_impl_binom_cdf_half(int n, int k)
{
    double term, sum = 0.0;
    int i;
    if (k < 0)
        return 0.0;
    if (k >= n)
        return 1.0;
    if (n > EXACT_N)
    {
        /* 2^-n underflows past n = 1074 (the runner allows 100000 epochs):
           each term from its logarithm instead */
        double lc = 0.0, ln2n = n * log(2.0);
        for (i = 0; i <= k; i++)
        {
            sum += exp(lc - ln2n);
            lc += log((double) (n - i) / (i + 1));
        }
        return sum > 1.0 ? 1.0 : sum;
    }
    term = pow(0.5, n);          /* C(n,0) / 2^n */
    for (i = 0; i <= k; i++)
    {
        sum += term;
        term = term * (n - i) / (i + 1);
    }
    return sum > 1.0 ? 1.0 : sum;
}

/* The interval [x_(j), x_(n+1-j)] (1-based order statistics) contains the
   population median with probability 1 - 2 P(Bin(n, 1/2) <= j - 1),
   whatever the distribution, for independent samples. Choose the largest j
   (the narrowest interval) whose level is still >= level. Returns 0, or -1
   (NaN bounds) when even [min, max] falls short (n < 6 for PROF_CI_LEVEL, 95%). */
int prof_impl_median_interval(const double * sorted, int n, double level,
        double * lo, double * hi, double * achieved)
{
    int j, best = 0;
    double best_level = 0.0, cdf = 0.0, term = pow(0.5, n), lc = 0.0;
    double ln2n = n * log(2.0);
    /* P(Bin(n, 1/2) <= j - 1) summed as j grows (a call per j made this
       quadratic in n), the same terms as prof_impl_binom_cdf_half */
    for (j = 1; 2 * j <= n; j++)
    {
        double c;
        if (n > EXACT_N)
        {
            cdf += exp(lc - ln2n);
            lc += log((double) (n - (j - 1)) / j);
        }
        else
        {
            cdf += term;
            term = term * (n - (j - 1)) / j;
        }
        c = 1.0 - 2.0 * (cdf > 1.0 ? 1.0 : cdf);
        if (c >= level)
        {
            best = j;
            best_level = c;
        }
        else
            break;
    }
    if (best == 0)
    {
        *lo = *hi = NAN;
        *achieved = n > 1 ? 1.0 - 2.0 * prof_impl_binom_cdf_half(n, 0) : 0.0;
        return -1;
    }
    *lo = sorted[best - 1];
    *hi = sorted[n - best];
    *achieved = best_level;
    return 0;
}

/* Median absolute percentage error around the median, in percent. */
double prof_impl_mdape(const double * sorted, int n)
{
    double med, * d, r;
    int i;
    if (n <= 0)
        return NAN;
    med = prof_impl_quantile(sorted, n, 0.5);
    if (!(med > 0.0))
        return NAN;
    d = (double *) malloc((size_t) n * sizeof *d);
    if (d == NULL)
        return NAN;
    for (i = 0; i < n; i++)
        d[i] = fabs(sorted[i] - med) / med;
    prof_impl_sort(d, n);
    r = 100.0 * prof_impl_quantile(d, n, 0.5);
    free(d);
    return r;
}

/* Two groups: some split of the sorted samples, with at least 3 (and at
   least a quarter) on each side, where the gap between the groups is over
   3 times the wider group's own range and over 5% of the median. Clean
   timings form one tight cluster with a tail; two clusters far apart mean
   the machine (or the code) switched between two speeds during the run.
   Returns the split index (first of the upper group) or 0. */
int prof_impl_bimodal(const double * sorted, int n)
{
    int i, best = 0, min_side = n / 4 > 3 ? n / 4 : 3;
    double med, best_gap = 0.0;
    if (n < 2 * min_side)
        return 0;
    med = prof_impl_quantile(sorted, n, 0.5);
    for (i = min_side; i <= n - min_side; i++)
    {
        double gap = sorted[i] - sorted[i - 1];
        double w_lo = sorted[i - 1] - sorted[0];
        double w_hi = sorted[n - 1] - sorted[i];
        double w = w_lo > w_hi ? w_lo : w_hi;
        if (gap > 3.0 * w && gap > 0.05 * med && gap > best_gap)
        {
            best_gap = gap;
            best = i;
        }
    }
    return best;
}

double prof_impl_uniform(unsigned long long * state)
{
    unsigned long long x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return (double) ((x * 2685821657736338717ULL) >> 11)
           * (1.0 / 9007199254740992.0);
}

/* Weighted least squares through the origin, t = c g(N): c = sum(w t g) /
   sum(w g^2); rms_pct = 100 sqrt(sum(w r^2) / sum(w t^2)), r = t - c g. */
int prof_impl_fit(const double * n, const double * t, const double * w,
        int count, double (*g)(double), double * coefficient, double * rms_pct)
{
    double sgg = 0.0, stg = 0.0, stt = 0.0, ss = 0.0, c;
    int i;
    if (count < 2)
        return -1;
    for (i = 0; i < count; i++)
    {
        double gi = g(n[i]), wi = w ? w[i] : 1.0;
        sgg += wi * gi * gi;
        stg += wi * t[i] * gi;
        stt += wi * t[i] * t[i];
    }
    if (!(sgg > 0.0) || !(stt > 0.0) || !(stg > 0.0))
        return -1;
    c = stg / sgg;
    for (i = 0; i < count; i++)
    {
        double r = t[i] - c * g(n[i]);
        ss += (w ? w[i] : 1.0) * r * r;
    }
    *coefficient = c;
    *rms_pct = 100.0 * sqrt(ss / stt);
    return 0;
}
