/* The axes of prof-compare's pictures over many data ranges: a change
   axis holds its data and 0, never goes below -100% and has 3 to 6 ticks
   with 0 among them; a log axis (N or time) holds its data and has 3 to 5
   ticks on it, its time labels all in one unit (so "610.8 ns" and "610.9
   us" can no longer sit on one axis). */
#include "check.h"
#include "../src/tools/compare/plot_axis.h"

#include <math.h>

static void check_change(double lo, double hi)
{
    prof_axis a;
    int k, zero = 0;
    prof_impl_axis_change(&a, lo, hi);
    CHECK(a.lo >= -1.0, "[%g, %g]: axis from %g, below -100%%", lo, hi, a.lo);
    CHECK(a.lo <= fmax(lo, -1.0) && a.lo <= 0 && a.hi >= hi && a.hi >= 0,
          "[%g, %g]: axis [%g, %g] misses the data or 0", lo, hi, a.lo, a.hi);
    CHECK(a.n >= 3 && a.n <= 6, "[%g, %g]: %d ticks", lo, hi, a.n);
    for (k = 0; k < a.n; k++)
    {
        CHECK(a.v[k] >= a.lo - 1e-12 && a.v[k] <= a.hi + 1e-12 && a.v[k] >= -1.0,
              "[%g, %g]: tick %g off [%g, %g]", lo, hi, a.v[k], a.lo, a.hi);
        CHECK(k == 0 || a.v[k] > a.v[k - 1], "[%g, %g]: ticks out of order", lo, hi);
        zero += a.v[k] == 0.0;
    }
    CHECK(zero == 1, "[%g, %g]: no tick at 0", lo, hi);
    /* clipped to the data and 0: a little room at the ends, no more */
    if (fmax(hi, 0) - fmin(lo, 0) >= 0.02)
        CHECK(a.hi - a.lo <= (fmax(hi, 0) - fmax(fmin(lo, 0), -1.0)) * 1.1,
              "[%g, %g]: axis [%g, %g] is not clipped to the data", lo, hi,
              a.lo, a.hi);
}

static void check_log(double lo, double hi, int pow2)
{
    prof_axis a;
    char label[48], unit0[8] = "";
    double unit_ns;
    const char * unit;
    int k;
    prof_impl_axis_log(&a, lo, hi, pow2);
    CHECK(a.lo <= lo && a.hi >= hi && a.lo > 0, "[%g, %g]: axis [%g, %g]",
          lo, hi, a.lo, a.hi);
    CHECK(a.n >= 3 && a.n <= 5, "[%g, %g]%s: %d ticks", lo, hi,
          pow2 ? " (N)" : "", a.n);
    unit = prof_impl_axis_time_unit(&a, &unit_ns);
    for (k = 0; k < a.n; k++)
    {
        CHECK(a.v[k] >= a.lo * (1 - 1e-9) && a.v[k] <= a.hi * (1 + 1e-9),
              "[%g, %g]: tick %g off [%g, %g]", lo, hi, a.v[k], a.lo, a.hi);
        CHECK(k == 0 || a.v[k] > a.v[k - 1], "[%g, %g]: ticks out of order", lo, hi);
        prof_impl_axis_time_label(label, sizeof label, a.v[k], unit, unit_ns);
        CHECK(strchr(label, ' ') != NULL, "label %s", label);
        if (k == 0)
            snprintf(unit0, sizeof unit0, "%s", strchr(label, ' ') + 1);
        CHECK(strcmp(strchr(label, ' ') + 1, unit0) == 0,
              "[%g, %g]: labels in %s and %s", lo, hi, unit0, label);
    }
}

int main(void)
{
    static const double ratios[] = { 1.0, 1.0001, 1.01, 1.1, 1.25, 1.5, 2,
        3, 5, 9.9, 10, 31, 100, 1e3, 1e4, 1e5, 1e6, 1e8, 1e12 };
    char label[48];
    double unit_ns;
    prof_axis a;
    int i, j;

    /* changes: one-sided, two-sided, near -100%, huge slowdowns */
    for (i = -100; i <= 100; i += 3)
        for (j = -100; j <= 1000; j += 7)
            if (j >= i)
                check_change(i / 100.0, j / 100.0);
    check_change(0, 0);
    check_change(-0.999, -0.998);
    check_change(-1.0, 0.0);
    check_change(-5.0, 2.0);              /* below -100%: clipped */
    check_change(0.0, 1e6);
    prof_impl_axis_change(&a, NAN, INFINITY);   /* no finite figure */
    CHECK(a.lo < 0 && a.hi > 0 && a.n >= 3 && a.n <= 6, "[nan, inf]: [%g, %g], "
          "%d ticks", a.lo, a.hi, a.n);
    prof_impl_axis_change(&a, -0.95, 0.02);
    CHECK(a.lo >= -1.0 && a.v[0] >= -1.0, "-95%%: axis from %g, tick %g", a.lo, a.v[0]);
    prof_impl_axis_change(&a, -0.203, 0.115);   /* ours-old/new: -20.3..+11.5% */
    CHECK(a.lo > -0.25 && a.hi < 0.15, "axis [%g, %g] not clipped", a.lo, a.hi);

    /* log axes of N and of time, from tiny to wide ranges and magnitudes */
    for (i = 0; i < (int) (sizeof ratios / sizeof ratios[0]); i++)
        for (j = -3; j <= 12; j++)
        {
            double lo = 1.37 * pow(10.0, j);
            check_log(lo, lo * ratios[i], 0);
            check_log(lo, lo * ratios[i], 1);
        }
    for (i = 1; i <= 40; i++)
        for (j = i; j <= i + 30 && j <= 50; j++)
            check_log(ldexp(1.0, i), ldexp(1.0, j), 1);
    /* N 256..65536: powers of 4 */
    prof_impl_axis_log(&a, 256, 65536, 1);
    CHECK(a.n == 5 && a.v[0] == 256 && a.v[4] == 65536, "N: %d ticks from %g",
          a.n, a.v[0]);
    /* 610.8 ns and 610.9 us on one axis: both in us */
    prof_impl_axis_log(&a, 610.8, 610.9e3, 0);
    prof_impl_axis_time_label(label, sizeof label, a.v[0],
                              prof_impl_axis_time_unit(&a, &unit_ns), unit_ns);
    CHECK(strstr(label, " us") != NULL, "first label %s", label);
    prof_impl_axis_n_label(label, sizeof label, 1048576);
    CHECK(strcmp(label, "1048576") == 0, "N label %s", label);
    prof_impl_axis_change_label(label, sizeof label, -0.025);
    CHECK(strcmp(label, "-2.5%") == 0, "change label %s", label);
    prof_impl_axis_change_label(label, sizeof label, 12.5);
    CHECK(strcmp(label, "+1250%") == 0, "change label %s", label);
    return check_report("test_plot_axis");
}
