/*
    The percentiles the outputs carry (prof_bench_set_percentiles): which,
    their names, their values over a result's epochs, and how many epochs
    each needs to say more than the fastest or slowest epoch does. The CSV
    and JSON reporters, the tables and prof_bench_finish's note share them.
    SPDX-License-Identifier: MIT
*/
#include "report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int prof_impl_report_percentiles(const prof_impl_report_ctx * c,
        const double ** p)
{
    *p = c->percentiles;
    return c->percentiles != NULL ? c->npercentiles : 0;
}

/* With n epochs, type 7's percentile p lies at (n - 1) p / 100 among the
   sorted epochs: it is more than the fastest (or slowest) epoch's blend
   with its neighbour once that place is at least 1 from either end. */
int prof_impl_percentile_epochs(double p)
{
    double side = p < 100.0 - p ? p : 100.0 - p;
    return side <= 0.0 ? 1 : (int) ceil(1.0 + 100.0 / side - 1e-9);
}

int prof_impl_percentiles_epochs(const prof_impl_report_ctx * c)
{
    const double * p;
    int k, most = 1, n = prof_impl_report_percentiles(c, &p);
    for (k = 0; k < n; k++)
        if (prof_impl_percentile_epochs(p[k]) > most)
            most = prof_impl_percentile_epochs(p[k]);
    return most;
}

void prof_impl_percentile_name(char * buf, size_t size, double p)
{
    snprintf(buf, size, "p%g", p);
}

double prof_impl_percentile_of(const double * x, int n, double p,
        double * work)
{
    int i, m = 0;
    for (i = 0; i < n; i++)
        if (!isnan(x[i]))
            work[m++] = x[i];
    prof_impl_sort(work, m);
    return m > 0 ? prof_impl_quantile(work, m, p / 100.0) : NAN;
}
