/* The order statistics behind the runner's interval and the sign tests,
   at sizes the runner allows (epochs up to 100000): 2^-n underflows past
   n = 1074, which once gave P = 0 and a "100%" interval one sample wide. */
#include "check.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>

/* Finite, unevenly spaced order statistics (so that an interpolation
   between the wrong pair, or with the wrong weight, shows). */
static double spaced(int k)
{
    return 10.0 * k + k * k;
}

static int near(double got, double want)
{
    return fabs(got - want) <= 1e-9 * (fabs(want) + 1.0);
}

/* The quantile (type 7) at every index of every n up to 9: p = i/(n-1)
   is x_i, a quarter and a half of the way to the next are interpolated,
   p = 0 is the minimum and p = 1 the maximum; p outside [0, 1], NaN and
   n <= 0 give NaN. */
static void test_quantile(void)
{
    double x[9];
    int n, i;
    for (i = 0; i < 9; i++)
        x[i] = spaced(i);
    for (n = 1; n <= 9; n++)
    {
        CHECK(prof_impl_quantile(x, n, 0.0) == x[0], "n %d: min", n);
        CHECK(prof_impl_quantile(x, n, 1.0) == x[n - 1], "n %d: max %g", n,
              prof_impl_quantile(x, n, 1.0));
        CHECK(isnan(prof_impl_quantile(x, n, -1e-9)), "n %d: p < 0", n);
        CHECK(isnan(prof_impl_quantile(x, n, 1.0 + 1e-9)), "n %d: p > 1", n);
        CHECK(isnan(prof_impl_quantile(x, n, NAN)), "n %d: p NaN", n);
        for (i = 0; n > 1 && i < n; i++)
        {
            double at = prof_impl_quantile(x, n, (double) i / (n - 1));
            CHECK(near(at, x[i]), "n %d: p = %d/%d: %.17g, expected %g", n,
                  i, n - 1, at, x[i]);
            if (i + 1 < n)
            {
                double q = prof_impl_quantile(x, n, (i + 0.25) / (n - 1));
                double h = prof_impl_quantile(x, n, (i + 0.5) / (n - 1));
                CHECK(near(q, x[i] + 0.25 * (x[i + 1] - x[i])),
                      "n %d: a quarter past %d: %.17g", n, i, q);
                CHECK(near(h, (x[i] + x[i + 1]) / 2), "n %d: half past %d: %.17g",
                      n, i, h);
            }
        }
        if (n == 1)
            CHECK(prof_impl_quantile(x, 1, 0.3) == x[0], "n 1: any p");
    }
    CHECK(isnan(prof_impl_quantile(x, 0, 0.5)), "n 0");
    CHECK(isnan(prof_impl_quantile(x, -1, 0.5)), "n -1");
    /* equal neighbours give their value exactly */
    x[3] = x[4] = 7.25;
    CHECK(prof_impl_quantile(x, 9, 3.3 / 8) == 7.25, "equal neighbours");
}

/* The median sorts in place; MdAPE is the median distance from it in
   percent; the split of two clusters is found when the gap is over 3
   times the wider cluster's range, and not otherwise. */
static void test_shape(void)
{
    double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };
    double five[] = { 1, 2, 3, 4, 5 }, zero[] = { 0, 0, 1 };
    double two[] = { 10, 11, 12, 20, 21, 22 }, near3[] = { 10, 11, 13, 20, 21, 23 };
    double wide[] = { 10, 11, 12, 16, 17, 18 }, many[16];
    double m;
    int i;

    CHECK(prof_impl_median(odd, 3) == 2 && odd[0] == 1 && odd[2] == 3,
          "median of 3, 1, 2: %g", odd[1]);
    m = prof_impl_median(even, 4);
    CHECK(m == 2.5 && even[0] == 1 && even[3] == 4, "median of 4, 1, 3, 2: %g", m);
    CHECK(isnan(prof_impl_median(even, 0)), "median of none");

    /* |x - 3| / 3 = 2/3, 1/3, 0, 1/3, 2/3: the median is 1/3 */
    m = prof_impl_mdape(five, 5);
    CHECK(near(m, 100.0 / 3.0), "MdAPE %.17g", m);
    CHECK(prof_impl_mdape(five + 2, 1) == 0.0, "MdAPE of one");
    CHECK(isnan(prof_impl_mdape(zero, 3)), "MdAPE around 0");
    CHECK(isnan(prof_impl_mdape(five, 0)), "MdAPE of none");

    /* a gap of 8 over ranges of 2 (8 > 3 x 2): two groups; 7 over 3 and
       4 over 2: one */
    CHECK(prof_impl_bimodal(two, 6) == 3, "10..12, 20..22: %d", prof_impl_bimodal(two, 6));
    CHECK(prof_impl_bimodal(near3, 6) == 0, "10..13, 20..23: %d", prof_impl_bimodal(near3, 6));
    CHECK(prof_impl_bimodal(wide, 6) == 0, "10..12, 16..18: %d", prof_impl_bimodal(wide, 6));
    CHECK(prof_impl_bimodal(two, 5) == 0, "5 samples: too few for two groups");
    /* 16 samples: a quarter (4) on each side at least; the widest gap wins */
    for (i = 0; i < 16; i++)
        many[i] = i < 5 ? 100 + i * 0.1 : i < 10 ? 200 + i * 0.1 : 400 + i * 0.1;
    CHECK(prof_impl_bimodal(many, 16) == 0, "three groups: no gap over 3 widths");
    for (i = 0; i < 16; i++)
        many[i] = i < 6 ? 100 + i * 0.1 : 200 + i * 0.1;
    CHECK(prof_impl_bimodal(many, 16) == 6, "6 and 10: %d", prof_impl_bimodal(many, 16));
    for (i = 0; i < 16; i++)
        many[i] = i < 3 ? 100 + i * 0.1 : 200 + i * 0.1;
    CHECK(prof_impl_bimodal(many, 16) == 0, "3 and 13: under a quarter on a side");
}

static double identity(double v)
{
    return v;
}

/* The least-squares fit through the origin: exact data give the slope
   and no error; t = 1, 3 at N = 1, 2 give c = 7/5 and residuals -0.4,
   0.2, rms 100 sqrt(0.2 / 10); weights count each point that many
   times; too few points or no signal are refused. */
static void test_fit(void)
{
    double n[] = { 1, 2, 3 }, t[] = { 2, 4, 6 }, t2[] = { 1, 3 };
    double w[] = { 1, 2 }, n3[] = { 1, 2, 2 }, t3[] = { 1, 3, 3 };
    double zero[] = { 0, 0, 0 };
    double c = -1, rms = -1, c3, rms3;

    CHECK(prof_impl_fit(n, t, NULL, 3, identity, &c, &rms) == 0 && c == 2
          && rms == 0, "t = 2N: %g, %g%%", c, rms);
    CHECK(prof_impl_fit(n, t2, NULL, 2, identity, &c, &rms) == 0
          && near(c, 1.4) && near(rms, 100.0 * sqrt(0.02)), "c %.17g rms %.17g", c, rms);
    CHECK(prof_impl_fit(n, t2, w, 2, identity, &c, &rms) == 0
          && prof_impl_fit(n3, t3, NULL, 3, identity, &c3, &rms3) == 0
          && near(c, c3) && near(rms, rms3), "weights: %g %g, %g %g", c, rms, c3, rms3);
    CHECK(prof_impl_fit(n, t, NULL, 1, identity, &c, &rms) == -1, "one point");
    CHECK(prof_impl_fit(n, zero, NULL, 3, identity, &c, &rms) == -1, "t = 0");
    CHECK(prof_impl_fit(zero, t, NULL, 3, identity, &c, &rms) == -1, "g = 0");
}

int main(void)
{
    enum { N = 2001 };
    static double x[N];
    double lo, hi, level, p;
    int i, n;

    /* Bin(2000, 1/2): P(X <= 999) + P(X <= 1000) = 1 by symmetry, and
       P(X <= 1000) = 1/2 + P(X = 1000) / 2 = 0.50892 (C(2000,1000)/2^2000
       = 0.017838). */
    p = prof_impl_binom_cdf_half(2000, 1000);
    CHECK(fabs(p - 0.508919) < 1e-5, "P(X <= 1000) = %.9g", p);
    CHECK(fabs(prof_impl_binom_cdf_half(2000, 999) + p - 1.0) < 1e-9,
          "symmetry: %.12g", prof_impl_binom_cdf_half(2000, 999) + p);
    /* the direct and the logarithmic sums meet at n = 1000 / 1001 */
    p = prof_impl_binom_cdf_half(1001, 500);
    CHECK(fabs(p - 0.5) < 1e-12, "P(Bin(1001) <= 500) = %.15g", p);
    p = prof_impl_binom_cdf_half(1000, 480);
    CHECK(p > 0.1 && p < 0.12, "P(Bin(1000) <= 480) = %.9g", p);

    /* The 95% interval of the median of 2001 samples 0..2000: the order
       statistics j and n + 1 - j with j near n/2 - 1.96 sqrt(n)/2 = 957,
       at a level just over 95% (normal approximation). */
    for (i = 0; i < N; i++)
        x[i] = i;
    CHECK(prof_impl_median_interval(x, N, 0.95, &lo, &hi, &level) == 0,
          "no interval");
    CHECK(level >= 0.95 && level < 0.953, "level %.6f", level);
    CHECK(lo >= 950 && lo <= 960 && hi == 2000 - lo, "[%g, %g]", lo, hi);

    /* Small n keep their exact values: 11 epochs, 2nd and 10th, 98.83%. */
    for (n = 11, i = 0; i < n; i++)
        x[i] = i;
    CHECK(prof_impl_median_interval(x, n, 0.95, &lo, &hi, &level) == 0
          && lo == 1 && hi == 9 && fabs(level - (1.0 - 24.0 / 2048.0)) < 1e-15,
          "n = 11: [%g, %g] at %.15g", lo, hi, level);
    /* Quantiles of infinite values (a time of 0 in a ratio): the median of
       an even number of +inf is +inf, not inf + 0.5 * (inf - inf). */
    x[0] = 1.0; x[1] = x[2] = x[3] = INFINITY;
    CHECK(isinf(prof_impl_quantile(x + 2, 2, 0.5)), "median of inf, inf: %g",
          prof_impl_quantile(x + 2, 2, 0.5));
    CHECK(isinf(prof_impl_quantile(x, 4, 0.5)), "median of 1, inf x3: %g",
          prof_impl_quantile(x, 4, 0.5));
    CHECK(prof_impl_quantile(x, 4, 0.0) == 1.0, "min");
    test_quantile();
    test_shape();
    test_fit();
    return check_report("test_stats");
}
