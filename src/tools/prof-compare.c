/*
    prof-compare: compare two benchmark result files (this library's JSON or
    Google Benchmark's), say per benchmark whether it got slower or faster,
    and fail a CI job on a significant regression.
    SPDX-License-Identifier: MIT
*/
#include "../internal.h"
#include "../compare.h"
#include "../plot.h"

#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: prof-compare [options] OLD.json NEW.json\n"
"Compares the benchmarks two result files have in common (this library's\n"
"JSON or Google Benchmark's --benchmark_format=json, with repetitions).\n"
"  --alpha=P        significance level of the Mann-Whitney U test (0.01)\n"
"  --noise=PCT      smaller changes are never called significant (2)\n"
"  --threshold=PCT  exit 1 if a benchmark is significantly slower by more\n"
"                   than PCT percent (default: report only, exit 0)\n"
"  --filter=REGEX   only benchmarks whose name matches (POSIX ERE)\n"
"  --svg=FILE       also draw the samples and the changes as SVG\n"
"  --html=FILE      the same picture in a self-contained HTML page\n"
"Exit: 0 no regression beyond the threshold, 1 regression, 2 bad input.\n";

static int parse_percent(const char * arg, const char * name, double * out)
{
    char * end;
    double v = strtod(arg, &end);
    if (end == arg || *end != '\0' || !(v >= 0.0 && v < 1e6))
    {
        prof_impl_warn("prof-compare: %s=%s: a number of percent >= 0 is "
                       "expected", name, arg);
        return -1;
    }
    *out = v / 100.0;
    return 0;
}

static void print_time(char * buf, size_t len, double ns)
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

int main(int argc, char ** argv)
{
    double alpha = 0.01, noise = 0.02, threshold = -1.0;
    const char * paths[2] = { NULL, NULL }, * filter = NULL;
    const char * svg = NULL, * html = NULL;
    prof_result_file files[2];
    prof_plot_row * rows = NULL;
    regex_t re;
    int i, npaths = 0, common = 0, regressions = 0, rc = 0, nrows = 0;
    int unsure = 0;
    char err[256];

    for (i = 1; i < argc; i++)
    {
        const char * a = argv[i];
        if (strncmp(a, "--alpha=", 8) == 0)
        {
            char * end;
            alpha = strtod(a + 8, &end);
            if (end == a + 8 || *end != '\0' || !(alpha > 0.0 && alpha < 1.0))
            {
                prof_impl_warn("prof-compare: --alpha=%s: a number in (0, 1) "
                               "is expected", a + 8);
                return 2;
            }
        }
        else if (strncmp(a, "--noise=", 8) == 0)
        {
            if (parse_percent(a + 8, "--noise", &noise) != 0)
                return 2;
        }
        else if (strncmp(a, "--threshold=", 12) == 0)
        {
            if (parse_percent(a + 12, "--threshold", &threshold) != 0)
                return 2;
        }
        else if (strncmp(a, "--filter=", 9) == 0)
            filter = a + 9;
        else if (strncmp(a, "--svg=", 6) == 0)
            svg = a + 6;
        else if (strncmp(a, "--html=", 7) == 0)
            html = a + 7;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
        {
            fputs(usage, stdout);
            return 0;
        }
        else if (a[0] == '-' && a[1] == '-')
        {
            prof_impl_warn("prof-compare: unknown option %s", a);
            fputs(usage, stderr);
            return 2;
        }
        else if (npaths < 2)
            paths[npaths++] = a;
        else
        {
            prof_impl_warn("prof-compare: more than two files given");
            return 2;
        }
    }
    if (npaths != 2)
    {
        fputs(usage, stderr);
        return 2;
    }
    if (filter != NULL && regcomp(&re, filter, REG_EXTENDED | REG_NOSUB) != 0)
    {
        prof_impl_warn("prof-compare: --filter=%s: not a valid regular "
                       "expression", filter);
        return 2;
    }
    for (i = 0; i < 2; i++)
        if (prof_impl_results_load(paths[i], &files[i], err, sizeof err) != 0)
        {
            prof_impl_warn("prof-compare: %s: %s", paths[i], err);
            if (i == 1)
                prof_impl_results_free(&files[0]);
            if (filter != NULL)
                regfree(&re);
            return 2;
        }

    rows = (prof_plot_row *) calloc((size_t) files[0].count + 1, sizeof *rows);
    printf("| benchmark | old | new | change | 95%% interval | p | verdict |\n");
    printf("|:--|--:|--:|--:|--:|--:|:--|\n");
    for (i = 0; i < files[0].count; i++)
    {
        const prof_series * a = &files[0].series[i], * b = NULL;
        prof_verdict v;
        char t0[32], t1[32], ci[64];
        int j;

        if (filter != NULL && regexec(&re, a->name, 0, NULL, 0) != 0)
            continue;
        for (j = 0; j < files[1].count; j++)
            if (strcmp(files[1].series[j].name, a->name) == 0)
                b = &files[1].series[j];
        if (b == NULL)
            continue;
        common++;
        prof_impl_compare(a, b, alpha, noise, &v);
        print_time(t0, sizeof t0, a->median_ns);
        print_time(t1, sizeof t1, b->median_ns);
        if (isnan(v.ci_low))
            snprintf(ci, sizeof ci, "n/a");
        else
            snprintf(ci, sizeof ci, "%+.1f%%..%+.1f%%", 100.0 * v.ci_low,
                     100.0 * v.ci_high);
        unsure += v.verdict == PROF_VERDICT_UNSURE;
        printf("| %s | %s | %s | %+.1f%% | %s | %.3g | %s%s |\n", a->name, t0,
               t1, 100.0 * v.change, ci, v.p, prof_impl_verdict_name(v.verdict),
               v.verdict == PROF_VERDICT_SLOWER && threshold >= 0.0
                   && v.change > threshold ? " (regression)" : "");
        if (v.verdict == PROF_VERDICT_SLOWER && threshold >= 0.0
            && v.change > threshold)
            regressions++;
        if (rows != NULL)
        {
            rows[nrows].old = a;
            rows[nrows].new_ = b;
            rows[nrows].verdict = v;
            nrows++;
        }
    }
    for (i = 0; i < 2; i++)
    {
        int j;
        for (j = 0; j < files[i].count; j++)
        {
            const prof_result_file * other = &files[1 - i];
            int k, found = 0;
            if (filter != NULL
                && regexec(&re, files[i].series[j].name, 0, NULL, 0) != 0)
                continue;
            for (k = 0; k < other->count && !found; k++)
                found = strcmp(other->series[k].name,
                               files[i].series[j].name) == 0;
            if (!found)
                printf("| %s | %s | %s | | | | only in %s |\n",
                       files[i].series[j].name, i == 0 ? "x" : "",
                       i == 1 ? "x" : "", paths[i]);
        }
    }

    if (unsure > 0)
    {
        /* The exact U test's smallest p with k samples a side is
           2 / C(2k, k): say how many repetitions alpha needs. */
        int k = 1;
        double smallest = 1.0;
        while (smallest >= alpha && k < 1000)
        {
            k++;
            smallest = 2.0;
            for (i = 1; i <= k; i++)
                smallest = smallest * i / (k + i);
        }
        printf("\n%d benchmark(s) have too few samples to tell at alpha %g: "
               "at least %d per file are needed (Google Benchmark: "
               "--benchmark_repetitions=%d)\n", unsure, alpha, k, k);
    }
    if (common == 0)
    {
        prof_impl_warn("prof-compare: %s and %s have no benchmark in common%s",
                       paths[0], paths[1], filter ? " (after --filter)" : "");
        rc = 2;
    }
    else
    {
        if (svg != NULL && prof_impl_plot_write(svg, 0, rows, nrows) != 0)
            rc = 2;
        if (html != NULL && prof_impl_plot_write(html, 1, rows, nrows) != 0)
            rc = 2;
        if (rc == 0 && regressions > 0)
        {
            printf("\n%d benchmark(s) significantly slower by more than "
                   "%.3g%% (alpha %.3g)\n", regressions, 100.0 * threshold,
                   alpha);
            rc = 1;
        }
    }
    free(rows);
    prof_impl_results_free(&files[0]);
    prof_impl_results_free(&files[1]);
    if (filter != NULL)
        regfree(&re);
    return rc;
}
