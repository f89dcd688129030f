/*
    The axes of prof-compare's pictures: a linear axis of changes clipped
    to the data (and 0, never below -100%) with 3 to 6 ticks 1, 2, 2.5 or
    5 x 10^k apart, and log axes of N and time with 3 to 5 ticks, the times
    in the unit of the largest.
    SPDX-License-Identifier: MIT
*/
#include "plot_axis.h"

#include <math.h>
#include <stdio.h>

/* Ticks farther than this (relative) outside an axis are not on it. */
static const double slack = 1e-9;

/* The step 1, 2, 2.5 or 5 x 10^e of index k (k = 4e + 0, 1, 2, 3): each
   at most twice the one before. */
static double step_of(int k)
{
    static const double mant[4] = { 1.0, 2.0, 2.5, 5.0 };
    int e = k >= 0 ? k / 4 : -((-k + 3) / 4);
    return mant[k - 4 * e] * pow(10.0, e);
}

/* The index of the smallest step >= x (x > 0). */
static int step_above(double x)
{
    int k = 4 * (int) floor(log10(x));
    while (step_of(k) < x * (1 - slack))
        k++;
    while (step_of(k - 1) >= x * (1 - slack))
        k--;
    return k;
}

/* The multiples of the largest step that gives at least 3 in [a->lo,
   a->hi] (steps at most twice apart, so 3 to 6 of them), skipping 0 and
   below with positive_only: whether that step gives at most max. */
static int evenly(prof_axis * a, int positive_only, int max)
{
    int k = step_above(a->hi - a->lo), tries, i, i0, i1;
    for (tries = 0; tries < 40; tries++, k--)
    {
        double s = step_of(k);
        i0 = (int) ceil(a->lo / s - slack);
        i1 = (int) floor(a->hi / s + slack);
        if (positive_only && i0 < 1)
            i0 = 1;
        if (i1 - i0 + 1 > max)
            return 0;
        if (i1 - i0 + 1 >= 3)
        {
            for (a->n = 0, i = i0; i <= i1; i++)
                a->v[a->n++] = i * s;
            return 1;
        }
    }
    return 0;
}

void prof_impl_axis_change(prof_axis * a, double lo, double hi)
{
    double pad;
    lo = isfinite(lo) ? fmax(fmin(lo, 0.0), -1.0) : 0.0;
    hi = isfinite(hi) ? fmax(hi, 0.0) : 0.0;
    if (hi - lo < 0.02)
    {
        pad = (0.02 - (hi - lo)) / 2;
        lo = fmax(lo - pad, -1.0);
        hi = fmax(lo + 0.02, hi + pad);
    }
    pad = 0.04 * (hi - lo);          /* room for the dots at the ends */
    a->lo = fmax(lo - pad, -1.0);
    a->hi = hi + pad;
    if (!evenly(a, 0, PROF_AXIS_MAX_TICKS))
    {
        a->n = 1;                    /* cannot happen: 0 at least */
        a->v[0] = 0.0;
    }
}

/* Put the ticks mant[k] * base^(m j) that lie on the axis: how many
   (PROF_AXIS_MAX_TICKS + 1 when there are more than it holds). */
static int ticks_at(prof_axis * a, double base, int m, const double * mant,
                    int nm)
{
    double period = log(base) * m;
    int j = (int) floor(log(a->lo) / period) - 1;
    int j1 = (int) ceil(log(a->hi) / period) + 1, k;
    a->n = 0;
    for (; j <= j1; j++)
        for (k = 0; k < nm; k++)
        {
            double v = mant[k] * pow(base, (double) m * j);
            if (v < a->lo * (1 - slack) || v > a->hi * (1 + slack))
                continue;
            if (a->n == PROF_AXIS_MAX_TICKS)
                return PROF_AXIS_MAX_TICKS + 1;
            a->v[a->n++] = v;
        }
    return a->n;
}

/* Powers of base, every m-th from m = 1 on, while they are too many:
   whether some m gives 3 to 5. */
static int powers(prof_axis * a, double base)
{
    static const double one = 1.0;
    int m, n;
    for (m = 1; m <= 64; m++)
        if ((n = ticks_at(a, base, m, &one, 1)) <= 5)
            return n >= 3;
    return 0;
}

void prof_impl_axis_log(prof_axis * a, double lo, double hi,
                        int powers_of_two)
{
    static const double one_three[2] = { 1.0, 3.0 };
    static const double one_two_five[3] = { 1.0, 2.0, 5.0 };
    double l0, l1, pad;
    int n, k;
    if (!(hi > lo))
        lo /= 2, hi *= 2;
    l0 = log(lo);
    l1 = log(hi);
    pad = 0.04 * (l1 - l0);
    a->lo = exp(l0 - pad);
    a->hi = exp(l1 + pad);
    if (powers(a, 10.0) || (powers_of_two && powers(a, 2.0)))
        return;
    n = ticks_at(a, 10.0, 1, one_three, 2);
    if ((n < 3 || n > 5) && ((n = ticks_at(a, 10.0, 1, one_two_five, 3)) < 3
                             || n > 5) && !evenly(a, 1, 5))
        for (a->n = 3, k = 0; k < 3; k++)   /* a range no step fits */
        {
            double v = exp(l0 + (l1 - l0) * (0.1 + 0.4 * k));
            double r = pow(10.0, floor(log10(v)) - 2);
            a->v[k] = floor(v / r + 0.5) * r;
        }
}

const char * prof_impl_axis_time_unit(const prof_axis * a, double * unit_ns)
{
    double top = a->n > 0 ? a->v[a->n - 1] : a->hi;
    if (top < 1e3)
        return *unit_ns = 1.0, "ns";
    if (top < 1e6)
        return *unit_ns = 1e3, "us";
    if (top < 1e9)
        return *unit_ns = 1e6, "ms";
    return *unit_ns = 1e9, "s";
}

void prof_impl_axis_change_label(char * buf, size_t len, double change)
{
    double pct = 100.0 * change;
    if (fabs(pct) >= 1.0 && pct == floor(pct))
        snprintf(buf, len, "%+.0f%%", pct);
    else
        snprintf(buf, len, "%+.3g%%", pct);
}

void prof_impl_axis_n_label(char * buf, size_t len, double n)
{
    if (n == floor(n) && fabs(n) < 1e15)
        snprintf(buf, len, "%.0f", n);
    else
        snprintf(buf, len, "%g", n);
}

void prof_impl_axis_time_label(char * buf, size_t len, double ns,
                               const char * unit, double unit_ns)
{
    snprintf(buf, len, "%g %s", ns / unit_ns, unit);
}
