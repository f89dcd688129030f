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

/* With several files a side: a series whose samples are one figure per
   file (median or min of its samples). 0, or -1 if a file lacks name (or
   out of memory). */
static int gather(const side_t * side, const char * name, int use_min,
                  prof_series * out)
{
    int i, j;
    memset(out, 0, sizeof *out);
    out->name = (char *) name;
    out->samples_ns = (double *) malloc(2 * (size_t) side->count * sizeof(double));
    if (out->samples_ns == NULL)
        return -1;
    for (i = 0; i < side->count; i++)
    {
        const prof_series * s = prof_impl_results_find(&side->files[i], name);
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
    /* the second half is scratch space for the median */
    memcpy(out->samples_ns + out->count, out->samples_ns,
           (size_t) out->count * sizeof *out->samples_ns);
    out->median_ns = prof_impl_median(out->samples_ns + out->count, out->count);
    return 0;
}

/* What main parsed from the command line. */
typedef struct
{
    double alpha, noise, threshold;      /* threshold < 0: report only */
    int use_min;
    const char * filter, * svg, * html;
    char * lists[2];
    regex_t re;
    int have_re;
} options;

/* The comparison as it is built, row by row. */
typedef struct
{
    side_t sides[2];
    int multi, paired;
    prof_plot_row * rows;
    prof_series * gathered;          /* two per row with several files */
    int nrows, common, regressions, unsure;
} comparison;

static int parse_options(int argc, char ** argv, options * o)
{
    int i, nlists = 0;
    memset(o, 0, sizeof *o);
    o->alpha = 0.05;
    o->noise = 0.02;
    o->threshold = -1.0;
    o->use_min = 1;
    for (i = 1; i < argc; i++)
    {
        const char * a = argv[i];
        if (strncmp(a, "--alpha=", 8) == 0)
        {
            char * end;
            o->alpha = strtod(a + 8, &end);
            if (end == a + 8 || *end != '\0'
                || !(o->alpha > 0.0 && o->alpha < 1.0))
            {
                prof_impl_warn("prof-compare: --alpha=%s: a number in (0, 1) "
                               "is expected", a + 8);
                return -1;
            }
        }
        else if (strncmp(a, "--noise=", 8) == 0)
        {
            if (parse_percent(a + 8, "--noise", &o->noise) != 0)
                return -1;
        }
        else if (strncmp(a, "--threshold=", 12) == 0)
        {
            if (parse_percent(a + 12, "--threshold", &o->threshold) != 0)
                return -1;
        }
        else if (strcmp(a, "--statistic=median") == 0)
            o->use_min = 0;
        else if (strcmp(a, "--statistic=min") == 0)
            o->use_min = 1;
        else if (strncmp(a, "--filter=", 9) == 0)
            o->filter = a + 9;
        else if (strncmp(a, "--svg=", 6) == 0)
            o->svg = a + 6;
        else if (strncmp(a, "--html=", 7) == 0)
            o->html = a + 7;
        else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
        {
            fputs(usage, stdout);
            return 1;
        }
        else if (a[0] == '-' && a[1] == '-')
        {
            prof_impl_warn("prof-compare: unknown option %s", a);
            fputs(usage, stderr);
            return -1;
        }
        else if (nlists < 2)
            o->lists[nlists++] = argv[i];
        else
        {
            prof_impl_warn("prof-compare: more than two sides given (several "
                           "files a side are separated by commas)");
            return -1;
        }
    }
    if (nlists != 2)
    {
        fputs(usage, stderr);
        return -1;
    }
    return 0;
}

static int selected(const options * o, const char * name)
{
    return !o->have_re || regexec(&o->re, name, 0, NULL, 0) == 0;
}

/* The two series to compare for name (one file a side: the files' own;
   several: one figure per file, gathered into c->gathered), or 0 when
   name is not on both sides. */
static int pick(comparison * c, const options * o, const prof_series * a,
                const prof_series ** pa, const prof_series ** pb)
{
    prof_series * ga = &c->gathered[2 * c->nrows], * gb = ga + 1;
    int ok_a, ok_b;
    if (!c->multi)
    {
        *pa = a;
        *pb = prof_impl_results_find(&c->sides[1].files[0], a->name);
        return *pb != NULL;
    }
    ok_a = gather(&c->sides[0], a->name, o->use_min, ga) == 0;
    ok_b = gather(&c->sides[1], a->name, o->use_min, gb) == 0;
    if (!ok_a || !ok_b)
    {
        if (ok_b || prof_impl_results_find(&c->sides[1].files[0], a->name))
            printf("| %s | | | | | | missing in some runs |\n", a->name);
        free(ga->samples_ns);
        free(gb->samples_ns);
        ga->samples_ns = gb->samples_ns = NULL;
        return 0;
    }
    *pa = ga;
    *pb = gb;
    return 1;
}

/* Compare old a with new b, print the row and keep it for the pictures. */
static void compare_row(comparison * c, const options * o,
                        const prof_series * a, const prof_series * b)
{
    prof_verdict v;
    char t0[32], t1[32], ci[64];
    int regression;

    c->common++;
    if (c->paired)
        prof_impl_compare_paired(a, b, o->alpha, o->noise, &v);
    else
        prof_impl_compare(a, b, o->alpha, o->noise, &v);
    prof_impl_format_ns(t0, sizeof t0, a->median_ns);
    prof_impl_format_ns(t1, sizeof t1, b->median_ns);
    if (isnan(v.ci_low))
        snprintf(ci, sizeof ci, "n/a");
    else
        snprintf(ci, sizeof ci, "%+.1f%%..%+.1f%%", 100.0 * v.ci_low,
                 100.0 * v.ci_high);
    regression = v.verdict == PROF_VERDICT_SLOWER && o->threshold >= 0.0
              && v.change > o->threshold;
    c->unsure += v.verdict == PROF_VERDICT_UNSURE;
    c->regressions += regression;
    printf("| %s | %s | %s | %+.1f%% | %s | %.3g | %s%s |\n", a->name, t0, t1,
           100.0 * v.change, ci, v.p, prof_impl_verdict_name(v.verdict),
           regression ? " (regression)" : "");
    c->rows[c->nrows].old = a;
    c->rows[c->nrows].new_ = b;
    c->rows[c->nrows].verdict = v;
    c->nrows++;
}

/* The table: one row per benchmark of the old side's first file. */
static int compare_all(comparison * c, const options * o)
{
    const prof_result_file * first = &c->sides[0].files[0];
    int i;
    c->rows = (prof_plot_row *) calloc((size_t) first->count + 1,
                                       sizeof *c->rows);
    c->gathered = (prof_series *) calloc(2 * (size_t) first->count + 2,
                                         sizeof *c->gathered);
    if (c->rows == NULL || c->gathered == NULL)
    {
        prof_impl_warn("prof-compare: out of memory");
        return -1;
    }
    if (c->multi)
        printf("%d run(s) against %d, %s, %s of each run's epochs\n\n",
               c->sides[0].count, c->sides[1].count,
               c->paired ? "paired by position (sign test)"
                         : "unpaired (U test)", o->use_min ? "min" : "median");
    printf("| benchmark | old | new | change | 95%% interval | p | verdict |\n");
    printf("|:--|--:|--:|--:|--:|--:|:--|\n");
    for (i = 0; i < first->count; i++)
    {
        const prof_series * a, * b;
        if (selected(o, first->series[i].name)
            && pick(c, o, &first->series[i], &a, &b))
            compare_row(c, o, a, b);
    }
    return 0;
}

/* Benchmarks of one side only (judged on each side's first file). */
static void one_sided(const comparison * c, const options * o)
{
    int i, j;
    for (i = 0; i < 2; i++)
    {
        const prof_result_file * f = &c->sides[i].files[0];
        for (j = 0; j < f->count; j++)
            if (selected(o, f->series[j].name)
                && !prof_impl_results_find(&c->sides[1 - i].files[0],
                                           f->series[j].name))
                printf("| %s | %s | %s | | | | only in %s |\n",
                       f->series[j].name, i == 0 ? "x" : "", i == 1 ? "x" : "",
                       c->sides[i].paths[0]);
    }
}

/* How many samples (or pairs) a side alpha needs, for benchmarks that had
   too few. */
static void explain_unsure(const comparison * c, const options * o)
{
    int i, k = 1;
    if (c->unsure == 0)
        return;
    if (c->paired)
    {
        while (!(2.0 / pow(2.0, k) < o->alpha) && k < 60)
            k++;
        printf("\n%d benchmark(s) have too few pairs of runs to tell at "
               "alpha %g: at least %d a side are needed\n", c->unsure,
               o->alpha, k);
        return;
    }
    {
        /* The exact U test's smallest p with k samples a side is
           2 / C(2k, k): say how many repetitions alpha needs. */
        double smallest = 1.0;
        while (smallest >= o->alpha && k < 1000)
        {
            k++;
            smallest = 2.0;
            for (i = 1; i <= k; i++)
                smallest = smallest * i / (k + i);
        }
        printf("\n%d benchmark(s) have too few samples to tell at alpha "
               "%g: at least %d per side are needed (Google Benchmark: "
               "--benchmark_repetitions=%d)\n", c->unsure, o->alpha, k, k);
    }
}

/* The pictures and the gate's verdict: the exit status. */
static int conclude(const comparison * c, const options * o)
{
    int rc = 0;
    if (c->common == 0)
    {
        prof_impl_warn("prof-compare: %s and %s have no benchmark in common%s",
                       c->sides[0].paths[0], c->sides[1].paths[0],
                       o->filter ? " (after --filter)" : "");
        return 2;
    }
    if (o->svg != NULL && prof_impl_plot_write(o->svg, PROF_PLOT_SVG, c->rows,
            c->nrows, &c->sides[0].files[0], &c->sides[1].files[0]) != 0)
        rc = 2;
    if (o->html != NULL && prof_impl_plot_write(o->html, PROF_PLOT_HTML,
            c->rows, c->nrows, &c->sides[0].files[0],
            &c->sides[1].files[0]) != 0)
        rc = 2;
    if (rc == 0 && c->regressions > 0)
    {
        printf("\n%d benchmark(s) significantly slower by more than "
               "%.3g%% (alpha %.3g)\n", c->regressions, 100.0 * o->threshold,
               o->alpha);
        rc = 1;
    }
    return rc;
}

/* The report is the gate's evidence: a table lost to a full disk or a
   closed pipe must not pass as "no regression". */
static int flush_report(int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout))
    {
        prof_impl_warn("prof-compare: cannot write the report: %s",
                       strerror(errno));
        return 2;
    }
    return rc;
}

static void release(comparison * c, options * o)
{
    int i;
    if (c->gathered != NULL)
        for (i = 0; i < 2 * c->nrows; i++)
            free(c->gathered[i].samples_ns);
    free(c->gathered);
    free(c->rows);
    free_side(&c->sides[0]);
    free_side(&c->sides[1]);
    if (o->have_re)
        regfree(&o->re);
}

int main(int argc, char ** argv)
{
    static comparison c;
    options o;
    int rc = parse_options(argc, argv, &o), i;

    if (rc != 0)
        return rc > 0 ? 0 : 2;
    if (o.filter != NULL)
    {
        if (regcomp(&o.re, o.filter, REG_EXTENDED | REG_NOSUB) != 0)
        {
            prof_impl_warn("prof-compare: --filter=%s: not a valid regular "
                           "expression", o.filter);
            return 2;
        }
        o.have_re = 1;
    }
    for (i = 0; i < 2 && rc == 0; i++)
        rc = load_side(o.lists[i], &c.sides[i]) != 0 ? 2 : 0;
    if (rc == 0)
    {
        c.multi = c.sides[0].count > 1 || c.sides[1].count > 1;
        c.paired = c.multi && c.sides[0].count == c.sides[1].count;
        rc = compare_all(&c, &o) != 0 ? 2 : 0;
    }
    if (rc == 0)
    {
        one_sided(&c, &o);
        explain_unsure(&c, &o);
        rc = conclude(&c, &o);
    }
    rc = flush_report(rc);
    release(&c, &o);
    return rc;
}
