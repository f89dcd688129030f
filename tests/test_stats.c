/* The order statistics behind the runner's interval and the sign tests,
   at sizes the runner allows (epochs up to 100000): 2^-n underflows past
   n = 1074, which once gave P = 0 and a "100%" interval one sample wide. */
#include "check.h"
#include "internal.h"

#include <math.h>
#include <stdlib.h>

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
        return check_report("test_stats");
}
