/* The runner's units and digits (src/bench/reports/report.c) at their edges: 4
   significant digits where the rounding moves the exponent, the k..P
   suffixes where they start and end, percentages, and the time unit a
   table's row takes. */
#include "check.h"
#include "report.h"

#include <math.h>

static void digits(double v, const char * want)
{
    char s[64];
    prof_impl_four_digits(s, sizeof s, v);
    CHECK(strcmp(s, want) == 0, "four_digits(%.17g): [%s], expected [%s]", v, s, want);
}

static void si(double v, const char * want)
{
    char s[64];
    prof_impl_four_digits_si(s, sizeof s, v);
    CHECK(strcmp(s, want) == 0, "four_digits_si(%.17g): [%s], expected [%s]", v, s,
          want);
}

static void percent(double v, const char * want)
{
    char s[64];
    prof_impl_percent(s, sizeof s, v);
    CHECK(strcmp(s, want) == 0, "percent(%.17g): [%s], expected [%s]", v, s, want);
}

static void unit(double ns, const char * fixed, const char * want, double want_ns)
{
    const char * u = NULL;
    double u_ns = -1;
    prof_impl_table_unit(ns, fixed, &u, &u_ns);
    CHECK(u != NULL && strcmp(u, want) == 0 && u_ns == want_ns,
          "table_unit(%.17g, %s): %s (%g ns), expected %s", ns,
          fixed ? fixed : "NULL", u ? u : "NULL", u_ns, want);
}

int main(void)
{
    /* 4 significant digits, fixed point, each decade */
    digits(1.0, "1.000");
    digits(-0.5, "-0.5000");
    digits(12.3456, "12.35");
    digits(999.94, "999.9");
    digits(999.96, "1000");        /* rounds up a decade: no decimal */
    digits(9.99949, "9.999");
    digits(9.99951, "10.00");
    digits(1510051399.72, "1510051400");
    /* the edges of fixed point: 1e-4 and PROF_IMPL_FIXED_MAX (1e15) */
    digits(1e-4, "0.0001000");
    digits(9.999e-5, "9.999e-05");
    digits(-9.999e-5, "-9.999e-05");
    digits(9.999e14, "999900000000000");
    digits(1e15, "1.000e+15");
    digits(0.0, "0");
    digits(-0.0, "0");
    digits(NAN, "n/a");
    digits(INFINITY, "inf");
    digits(-INFINITY, "-inf");

    /* k, M, G, T, P: from 1000 on, each at its start and just under the
       next; 999.96 stays "1000" (under a thousand); past P, none */
    si(999.9, "999.9");
    si(999.96, "1000");
    si(1000.0, "1.000k");
    si(-1006.0, "-1.006k");
    si(999949.0, "999.9k");
    si(999960.0, "1.000M");
    si(67.66e6, "67.66M");
    si(1e9, "1.000G");
    si(1e12, "1.000T");
    si(1e15, "1.000P");
    si(9.9994e17, "999.9P");
    si(9.9996e17, "1.000e+18");
    si(1e18, "1.000e+18");
    si(-1e18, "-1.000e+18");
    si(NAN, "n/a");
    si(INFINITY, "inf");
    si(0.0, "0");

    /* at most 2 decimals; under 0.005 reads 0 */
    percent(12.3456, "12.35%");
    percent(0.456, "0.46%");
    percent(0.006, "0.01%");
    percent(0.0049, "0%");
    percent(-0.0049, "0%");
    percent(-7.5, "-7.50%");
    percent(1234.56, "1235%");
    percent(100.0, "100.0%");
    percent(NAN, "n/a");

    /* the largest unit the row's time is 1 or more of, after rounding to
       4 digits; a fixed unit whatever the time */
    unit(0.0, NULL, "ns", 1.0);
    unit(NAN, NULL, "ns", 1.0);
    unit(INFINITY, NULL, "ns", 1.0);
    unit(999.94, NULL, "ns", 1.0);
    unit(999.96, NULL, "us", 1e3);
    unit(-5000.0, NULL, "us", 1e3);
    unit(999940.0, NULL, "us", 1e3);
    unit(1e6, NULL, "ms", 1e6);
    unit(999.9e6, NULL, "ms", 1e6);
    unit(1e9, NULL, "s", 1e9);
    unit(1e15, NULL, "s", 1e9);
    unit(5e9, "ns", "ns", 1.0);
    unit(5.0, "us", "us", 1e3);
    unit(5.0, "ms", "ms", 1e6);
    unit(5.0, "s", "s", 1e9);
    return check_report("test_report");
}
