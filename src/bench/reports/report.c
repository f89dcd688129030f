/*
    What the runner's reporters share: the build warnings of the context,
    a result's counts by event name, and the tables' numbers: 4
    significant digits (with k, M, G past a thousand in counter columns),
    a time unit per row, the percentiles shown; a JSON number.
    SPDX-License-Identifier: MIT
*/
#include "report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int prof_impl_build_warnings(const prof_impl_report_ctx * c, const char * w[2])
{
    int n = 0;
    if (!c->optimized)
        w[n++] = "the benchmark was compiled without optimisation: timings "
                 "do not reflect optimised code";
    if (c->sanitized)
        w[n++] = "the benchmark was compiled with a sanitizer: timings are "
                 "inflated";
    return n;
}

double prof_impl_result_event(const prof_result * r, const char * name)
{
    int k = prof_impl_result_event_index(r, name);
    return k >= 0 ? r->counters[k] : NAN;
}

/* v rounded to 4 significant digits: the decimal exponent of the rounded
   value (999.96 rounds to 1.000e+03: 3). */
static int sig4_exponent(double v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.3e", v);
    return atoi(strchr(buf, 'e') + 1);
}

/* v to 4 significant digits, with at most places decimals. */
static const char * digits(char * out, size_t size, double v, int places)
{
    int e;
    if (isnan(v))
        snprintf(out, size, "n/a");
    else if (v == 0.0)
        snprintf(out, size, "0");
    else if (!isfinite(v) || fabs(v) < 1e-4 || fabs(v) >= PROF_IMPL_FIXED_MAX)
        snprintf(out, size, "%.3e", v);
    else
    {
        e = sig4_exponent(v);
        snprintf(out, size, "%.*f", e >= 3 ? 0 : 3 - e < places ? 3 - e
                                                               : places, v);
    }
    return out;
}

const char * prof_impl_four_digits(char * out, size_t size, double v)
{
    return digits(out, size, v, 20);
}

const char * prof_impl_percent(char * out, size_t size, double pct)
{
    char a[32];
    if (isnan(pct))
    {
        prof_impl_copy(out, size, "n/a");
        return out;
    }
    /* the rounding noise of an exact figure (1.9e-14%) reads 0 */
    snprintf(out, size, "%s%%", digits(a, sizeof a, fabs(pct) < 5e-3 ? 0.0
                                                              : pct, 2));
    return out;
}

const char * prof_impl_four_digits_si(char * out, size_t size, double v)
{
    static const char suffix[] = "kMGTP";
    char digits[32];
    int tier;
    if (!isfinite(v) || fabs(v) < 1e3 || fabs(v) >= 1e18)
        return prof_impl_four_digits(out, size, v);
    tier = sig4_exponent(v) / 3;
    if (tier > 5)       /* rounds to 1e18, past P: no suffix */
        return prof_impl_four_digits(out, size, v);
    prof_impl_four_digits(digits, sizeof digits, v / pow(10.0, 3.0 * tier));
    snprintf(out, size, "%s%c", digits, suffix[tier - 1]);
    return out;
}

/* The units a table's time takes, their size in ns. */
static const struct { const char * name; double ns; } time_units[] = {
    { "ns", 1.0 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };

void prof_impl_table_unit(double ns, const char * fixed, const char ** unit,
        double * unit_ns)
{
    int k = 0, e = isfinite(ns) && ns != 0.0 ? sig4_exponent(fabs(ns)) : 0;
    while (k < 3 && (fixed != NULL ? strcmp(fixed, time_units[k].name) != 0
                                   : e >= 3 * (k + 1)))
        k++;
    *unit = time_units[k].name;
    *unit_ns = time_units[k].ns;
}

void prof_impl_json_number(FILE * out, double v)
{
    if (v == v && v - v == 0.0)
    {
        /* the shortest of %.15g and %.17g that reads back exactly */
        char buf[40];
        sprintf(buf, "%.15g", v);
        if (strtod(buf, NULL) != v)
            sprintf(buf, "%.17g", v);
        fputs(buf, out);
    }
    else
        fputs("null", out);
}
