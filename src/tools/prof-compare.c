/*
    prof-compare: compare benchmark result files (this library's JSON or
    Google Benchmark's), say per benchmark whether it got slower or faster,
    and fail a CI job on a significant regression. One file a side compares
    the epochs (repetitions) of two runs; several files a side compare the
    runs themselves, paired by position when the sides have as many.
    SPDX-License-Identifier: MIT
*/
#include "../internal.h"
#include "compare.h"
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: prof-compare [options] OLD.json[,OLD2.json...] NEW.json[,NEW2.json...]\n"
"Compares the benchmarks the result files have in common (this library's\n"
"JSON or Google Benchmark's --benchmark_format=json, with repetitions).\n"
"One file a side: the two runs' epochs (repetitions) are compared with the\n"
"Mann-Whitney U test; that sees the noise inside each run, not the drift\n"
"between runs. Several files a side (comma-separated, e.g. from runs made\n"
"alternately old, new, old, new, ...): each run gives one figure per\n"
"benchmark, and the runs are compared with each other, paired by position\n"
"(sign test on new/old) when both sides have as many files.\n"
"  --alpha=P        significance level of the test (0.05)\n"
"  --noise=PCT      smaller changes are never called significant (2)\n"
"  --threshold=PCT  exit 1 if a benchmark is significantly slower by more\n"
"                   than PCT percent (default: report only, exit 0)\n"
"  --statistic=S    a run's figure with several files a side: min (default:\n"
"                   noise only adds time, so it varies least between runs)\n"
"                   or median of its epochs\n"
"  --filter=REGEX   only benchmarks whose name matches (POSIX ERE)\n"
"  --svg=FILE       also draw the samples and the changes as SVG\n"
"  --html=FILE      the same picture in a self-contained HTML page\n"
"Exit: 0 no regression beyond the threshold, 1 regression, 2 bad input\n"
"or a report that could not be written.\n";

enum { MAX_FILES = 256 };

/* The files of one side. */
typedef struct
{
    const char * paths[MAX_FILES];
    prof_result_file files[MAX_FILES];
    int count;
} side_t;

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

/* Split a comma-separated list of paths (in place) and load each file. */
static int load_side(char * list, side_t * side)
{
    char err[256], * p = list;
    side->count = 0;
    for (;;)
    {
        char * comma = strchr(p, ',');
        if (comma != NULL)
            *comma = '\0';
        if (*p == '\0')
            prof_impl_warn("prof-compare: an empty file name in \"%s\"", list);
        else if (side->count == MAX_FILES)
            prof_impl_warn("prof-compare: more than %d files a side", MAX_FILES);
        else if (prof_impl_results_load(p, &side->files[side->count], err,
                                        sizeof err) != 0)
            prof_impl_warn("prof-compare: %s: %s", p, err);
        else
        {
            side->paths[side->count++] = p;
            if (comma == NULL)
                return 0;
            p = comma + 1;
            continue;
        }
        return -1;
    }
}

static void free_side(side_t * side)
{
    int i;
    for (i = 0; i < side->count; i++)
        prof_impl_results_free(&side->files[i]);
    side->count = 0;
}

static const prof_series * find(const prof_result_file * f, const char * name)
{
    int i;
    for (i = 0; i < f->count; i++)
        if (strcmp(f->series[i].name, name) == 0)
            return &f->series[i];
    return NULL;
}

/* With several files a side: a series whose samples are one figure per
   file (median or min of its samples). 0, or -1 if a file lacks name. */
static int gather(const side_t * side, const char * name, int use_min,
                  prof_series * out)
{
    int i, j;
    memset(out, 0, sizeof *out);
    out->name = (char *) name;
    out->samples_ns = (double *) malloc((size_t) side->count * sizeof(double));
    if (out->samples_ns == NULL)
        return -1;
    for (i = 0; i < side->count; i++)
    {
        const prof_series * s = find(&side->files[i], name);
        double fig;
        if (s == NULL)
        {
            free(out->samples_ns);
            out->samples_ns = NULL;
            return -1;
        }
        fig = s->median_ns;
        if (use_min && s->count > 0)
            for (fig = s->samples_ns[0], j = 1; j < s->count; j++)
                fig = fmin(fig, s->samples_ns[j]);
        out->samples_ns[out->count++] = fig;
    }
    {
        double * tmp = (double *) malloc((size_t) out->count * sizeof *tmp);
        if (tmp == NULL)
            return -1;
        memcpy(tmp, out->samples_ns, (size_t) out->count * sizeof *tmp);
        out->median_ns = prof_impl_median(tmp, out->count);
        free(tmp);
    }
    return 0;
}

int main(int argc, char ** argv)
{
    double alpha = 0.05, noise = 0.02, threshold = -1.0;
    char * lists[2] = { NULL, NULL };
    const char * filter = NULL, * svg = NULL, * html = NULL;
    static side_t sides[2];
    prof_plot_row * rows = NULL;
    prof_series * gathered = NULL;
    regex_t re;
    int i, nlists = 0, common = 0, regressions = 0, rc = 0, nrows = 0;
    int unsure = 0, use_min = 1, multi, paired;

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
        else if (strcmp(a, "--statistic=median") == 0)
            use_min = 0;
        else if (strcmp(a, "--statistic=min") == 0)
            use_min = 1;
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
        else if (nlists < 2)
            lists[nlists++] = argv[i];
        else
        {
            prof_impl_warn("prof-compare: more than two sides given (several "
                           "files a side are separated by commas)");
            return 2;
        }
    }
    if (nlists != 2)
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
        if (load_side(lists[i], &sides[i]) != 0)
        {
            free_side(&sides[0]);
            free_side(&sides[1]);
            if (filter != NULL)
                regfree(&re);
            return 2;
        }
    multi = sides[0].count > 1 || sides[1].count > 1;
    paired = multi && sides[0].count == sides[1].count;

    {
        const prof_result_file * first = &sides[0].files[0];
        rows = (prof_plot_row *) calloc((size_t) first->count + 1, sizeof *rows);
        gathered = (prof_series *) calloc(2 * (size_t) first->count + 2,
                                          sizeof *gathered);
        if (rows == NULL || gathered == NULL)
        {
            prof_impl_warn("prof-compare: out of memory");
            rc = 2;
            goto out;
        }
        if (multi)
            printf("%d run(s) against %d, %s, %s of each run's epochs\n\n",
                   sides[0].count, sides[1].count,
                   paired ? "paired by position (sign test)"
                          : "unpaired (U test)", use_min ? "min" : "median");
        printf("| benchmark | old | new | change | 95%% interval | p | verdict |\n");
        printf("|:--|--:|--:|--:|--:|--:|:--|\n");
        for (i = 0; i < first->count; i++)
        {
            const char * name = first->series[i].name;
            const prof_series * a = &first->series[i], * b;
            prof_series * ga = &gathered[2 * nrows], * gb = ga + 1;
            prof_verdict v;
            char t0[32], t1[32], ci[64];

            if (filter != NULL && regexec(&re, name, 0, NULL, 0) != 0)
                continue;
            if (multi)
            {
                int ok_a = gather(&sides[0], name, use_min, ga) == 0;
                int ok_b = gather(&sides[1], name, use_min, gb) == 0;
                if (!ok_a || !ok_b)
                {
                    if (ok_b || find(&sides[1].files[0], name) != NULL)
                        printf("| %s | | | | | | missing in some runs |\n", name);
                    free(ga->samples_ns);
                    free(gb->samples_ns);
                    ga->samples_ns = gb->samples_ns = NULL;
                    continue;
                }
                a = ga;
                b = gb;
            }
            else if ((b = find(&sides[1].files[0], name)) == NULL)
                continue;
            common++;
            if (paired)
                prof_impl_compare_paired(a, b, alpha, noise, &v);
            else
                prof_impl_compare(a, b, alpha, noise, &v);
            prof_impl_format_ns(t0, sizeof t0, a->median_ns);
            prof_impl_format_ns(t1, sizeof t1, b->median_ns);
            if (isnan(v.ci_low))
                snprintf(ci, sizeof ci, "n/a");
            else
                snprintf(ci, sizeof ci, "%+.1f%%..%+.1f%%", 100.0 * v.ci_low,
                         100.0 * v.ci_high);
            unsure += v.verdict == PROF_VERDICT_UNSURE;
            if (v.verdict == PROF_VERDICT_SLOWER && threshold >= 0.0
                && v.change > threshold)
                regressions++;
            printf("| %s | %s | %s | %+.1f%% | %s | %.3g | %s%s |\n", name, t0,
                   t1, 100.0 * v.change, ci, v.p,
                   prof_impl_verdict_name(v.verdict),
                   v.verdict == PROF_VERDICT_SLOWER && threshold >= 0.0
                       && v.change > threshold ? " (regression)" : "");
            rows[nrows].old = a;
            rows[nrows].new_ = b;
            rows[nrows].verdict = v;
            nrows++;
        }
    }
    /* Benchmarks of one side only (judged on each side's first file). */
    for (i = 0; i < 2; i++)
    {
        const prof_result_file * f = &sides[i].files[0];
        int j;
        for (j = 0; j < f->count; j++)
        {
            if (filter != NULL && regexec(&re, f->series[j].name, 0, NULL, 0) != 0)
                continue;
            if (find(&sides[1 - i].files[0], f->series[j].name) == NULL)
                printf("| %s | %s | %s | | | | only in %s |\n",
                       f->series[j].name, i == 0 ? "x" : "", i == 1 ? "x" : "",
                       sides[i].paths[0]);
        }
    }

    if (unsure > 0)
    {
        if (paired)
        {
            int k = 1;
            while (!(2.0 / pow(2.0, k) < alpha) && k < 60)
                k++;
            printf("\n%d benchmark(s) have too few pairs of runs to tell at "
                   "alpha %g: at least %d a side are needed\n", unsure, alpha, k);
        }
        else
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
            printf("\n%d benchmark(s) have too few samples to tell at alpha "
                   "%g: at least %d per side are needed (Google Benchmark: "
                   "--benchmark_repetitions=%d)\n", unsure, alpha, k, k);
        }
    }
    if (common == 0)
    {
        prof_impl_warn("prof-compare: %s and %s have no benchmark in common%s",
                       sides[0].paths[0], sides[1].paths[0],
                       filter ? " (after --filter)" : "");
        rc = 2;
    }
    else
    {
        if (svg != NULL && prof_impl_plot_write(svg, 0, rows, nrows,
                &sides[0].files[0], &sides[1].files[0]) != 0)
            rc = 2;
        if (html != NULL && prof_impl_plot_write(html, 1, rows, nrows,
                &sides[0].files[0], &sides[1].files[0]) != 0)
            rc = 2;
        if (rc == 0 && regressions > 0)
        {
            printf("\n%d benchmark(s) significantly slower by more than "
                   "%.3g%% (alpha %.3g)\n", regressions, 100.0 * threshold,
                   alpha);
            rc = 1;
        }
    }
out:
    /* The report is the gate's evidence: a table lost to a full disk or a
       closed pipe must not pass as "no regression". */
    if (fflush(stdout) != 0 || ferror(stdout))
    {
        prof_impl_warn("prof-compare: cannot write the report: %s",
                       strerror(errno));
        rc = 2;
    }
    if (gathered != NULL)
        for (i = 0; i < 2 * nrows; i++)
            free(gathered[i].samples_ns);
    free(gathered);
    free(rows);
    free_side(&sides[0]);
    free_side(&sides[1]);
    if (filter != NULL)
        regfree(&re);
    return rc;
}
