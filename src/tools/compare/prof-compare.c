/*
    prof-compare: compare benchmark result files (this library's JSON or
    Google Benchmark's), say per benchmark whether it got slower or faster,
    and fail a CI job on a significant regression. One file a side compares
    two runs' epochs; several a side compare the runs (paired by position
    when the sides have as many).
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "compare.h"
#include "compare_run.h"
#include "paths.h"
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage_head[] =
"usage: prof-compare [options] OLD.json[,OLD2.json...] NEW.json[,NEW2.json...]\n"
"       prof-compare --run [--pairs=N] [--max-time=S] [--keep=DIR] [options]\n"
"                    'OLD COMMAND' 'NEW COMMAND'\n"
"Compares the benchmarks the result files have in common (this library's\n"
"JSON or Google Benchmark's --benchmark_format=json, with repetitions).\n"
"One file a side: the two runs' epochs (repetitions) are compared with the\n"
"Mann-Whitney U test; that sees the noise inside each run, not the drift\n"
"between runs. Several files a side (comma-separated, e.g. from runs made\n"
"alternately old, new, old, new, ...): each run gives one figure per\n"
"benchmark, and the runs are compared with each other, paired by position\n"
"(sign test on new/old) when both sides have as many files.\n"
"With --run, the two commands (shell command lines) are run alternately,\n"
"old, new, new, old, old, new, ..., each run writing one result file, and\n"
"the runs are compared as several files a side, paired. \"{out}\" in a\n"
"command is replaced by the file's path (Google Benchmark:\n"
"--benchmark_out={out} --benchmark_out_format=json); without it the\n"
"command gets PROFILER_OUT=path and PROFILER_FORMAT=json in its environment,\n"
"which this library's benchmark programs honour. Their output is dropped;\n"
"a command that fails stops the runs (exit 2).\n"
"Options (--flag=VALUE or --flag VALUE; -- ends the options):\n";

static const char usage_tail[] =
"Exit status:\n"
"  0  no benchmark significantly slower by more than the threshold (or no\n"
"     --threshold: report only)\n"
"  1  a regression: some benchmark significantly slower by more than the\n"
"     threshold\n"
"  2  bad input: bad options, unreadable or invalid files, no benchmark in\n"
"     common, an output that is also an input, a report or picture that\n"
"     could not be written, a --run command that failed or was not found\n"
"  3  the gate cannot decide (with --threshold): some benchmark has too few\n"
"     samples or pairs of runs for --alpha, and none regressed; the report\n"
"     says how many are needed\n";

enum { MAX_FILES = 256 };

/* The files of one side. */
typedef struct
{
    const char * paths[MAX_FILES];
    prof_result_file files[MAX_FILES];
    int npaths, count;           /* paths given, files loaded */
} side_t;

/* A run's figure when there are several files a side. */
typedef enum { STATISTIC_MIN, STATISTIC_MEDIAN } statistic;

/* What main parsed from the command line. */
typedef struct
{
    prof_gate gate;
    statistic stat;
    const char * filter, * svg, * html;
    int run;                             /* --run: lists are commands */
    int run_options;                     /* --pairs, --max-time, --keep */
    prof_run_plan plan;
    char * lists[2];
    regex_t re;
    int have_re;
} options;

/* ---- the command line ------------------------------------------------------- */

#define PROGRAM "prof-compare"

static int set_gate(void * ctx, const char * name, const char * v)
{
    return prof_impl_gate_option(&((options *) ctx)->gate, PROGRAM, name, v);
}

static int set_statistic(void * ctx, const char * name, const char * v)
{
    if (strcmp(v, "min") != 0 && strcmp(v, "median") != 0)
    {
        prof_impl_warn(PROGRAM ": %s=%s: min or median is expected", name, v);
        return -1;
    }
    ((options *) ctx)->stat = strcmp(v, "min") == 0 ? STATISTIC_MIN
                                                    : STATISTIC_MEDIAN;
    return 0;
}

/* --pairs and --max-time: defaults and bounds */
static const prof_impl_range pairs_range = { 12, 1, PROF_RUN_MAX_PAIRS, 0, 0,
    1, PROF_IMPL_PLAIN, "a whole number of pairs from {lo} to {hi}" };
static const prof_impl_range max_time_range = { 0, 0, 1e9, 1, 1, 0,
    PROF_IMPL_PLAIN, "a number of seconds > {lo}" };

static int set_pairs(void * ctx, const char * name, const char * v)
{
    options * o = (options *) ctx;
    double n;
    if (prof_impl_option_number(PROGRAM, name, v, &pairs_range, &n) != 0)
        return -1;
    o->plan.pairs = (int) n;
    o->run_options = 1;
    return 0;
}

static int set_max_time(void * ctx, const char * name, const char * v)
{
    options * o = (options *) ctx;
    o->run_options = 1;
    return prof_impl_option_number(PROGRAM, name, v, &max_time_range,
                                   &o->plan.max_time_s);
}

static int set_keep(void * ctx, const char * name, const char * v)
{
    options * o = (options *) ctx;
    (void) name;
    o->plan.keep_dir = v;
    o->run_options = 1;
    return 0;
}

#define TEXT(field) PROF_IMPL_OPTION_TEXT(options, field)
#define SET(f) PROF_IMPL_OPTION_SET(f)

static const prof_impl_option option_table[] = {
    PROF_GATE_OPTIONS(set_gate, "exit 1 if a benchmark is significantly "
      "slower by more than PCT percent, 3 if the files cannot tell (default: "
      "none, report only, exit 0)"),
    { "--statistic", "S", "a run's figure with several files a side: min (noise "
      "only adds time, so it varies least between runs) or median of its "
      "epochs (min)", SET(set_statistic) },
    { "--filter", "REGEX", "only benchmarks whose name matches, POSIX ERE "
      "(default: all)", TEXT(filter) },
    { "--svg", "FILE", "also draw the samples and the changes as SVG "
      "(default: none)", TEXT(svg) },
    { "--html", "FILE", "the same picture in a self-contained HTML page "
      "(default: none)", TEXT(html) },
    { "--run", NULL, "the two arguments are commands to run alternately, not "
      "result files (default: off)", PROF_IMPL_OPTION_FLAG(options, run) },
    { "--pairs", "N", "with --run: pairs of runs, {lo} to {hi} ({default})",
      PROF_IMPL_OPTION_NUMBER(set_pairs, &pairs_range) },
    { "--max-time", "S", "with --run: start no new pair after S seconds "
      "(default: none)", SET(set_max_time) },
    { "--keep", "DIR", "with --run: keep the result files in DIR, as "
      "old-01.json, new-01.json, ... (made if missing; default: removed)",
      SET(set_keep) },
    { "--help", NULL, "print this help and exit", SET(NULL) },
    { "--version", NULL, "print the version and exit", SET(NULL) },
};

static const prof_impl_options command_line = {
    PROGRAM, option_table, (int) (sizeof option_table / sizeof option_table[0]),
    usage_head, usage_tail, PROF_IMPL_UNKNOWN_ERROR, 1, 0
};

static int parse_options(int argc, char ** argv, options * o)
{
    int n;
    memset(o, 0, sizeof *o);
    prof_impl_gate_default(&o->gate);
    o->stat = STATISTIC_MIN;
    o->plan.pairs = (int) pairs_range.def;
    o->plan.progress = isatty(2) ? PROF_PROGRESS_LINE : PROF_PROGRESS_OFF;
    n = prof_impl_options_parse(&command_line, argc, argv, o);
    if (n == PROF_IMPL_OPTIONS_EXIT)
        return 1;
    if (n < 0)
        return -1;
    if (n != 3)
    {
        prof_impl_warn(n > 3 ? PROGRAM ": more than two sides given (several "
                       "files a side are separated by commas)"
                       : o->run ? PROGRAM ": two commands expected, old and "
                       "new (see --help)" : PROGRAM ": two sides expected, "
                       "old and new (see --help)");
        return -1;
    }
    o->lists[0] = argv[1];
    o->lists[1] = argv[2];
    if (!o->run && o->run_options)
    {
        prof_impl_warn(PROGRAM ": --pairs, --max-time and --keep go with "
                       "--run");
        return -1;
    }
    return 0;
}

/* Split a comma-separated list of paths (in place) into the side: 0, or
   -1 after a message. */
static int split_side(char * list, side_t * side)
{
    char * p = list;
    side->npaths = 0;
    for (;;)
    {
        char * comma = strchr(p, ',');
        if (comma != NULL)
            *comma = '\0';
        if (*p == '\0')
        {
            prof_impl_warn("prof-compare: an empty file name in \"%s\"", list);
            return -1;
        }
        if (side->npaths == MAX_FILES)
        {
            prof_impl_warn("prof-compare: more than %d files a side", MAX_FILES);
            return -1;
        }
        side->paths[side->npaths++] = p;
        if (comma == NULL)
            return 0;
        p = comma + 1;
    }
}

/* Load the side's files: 0, or -1 after a message naming the file. */
static int load_side(side_t * side)
{
    char err[256];
    for (side->count = 0; side->count < side->npaths; side->count++)
        if (prof_impl_results_load(side->paths[side->count],
                                   &side->files[side->count], err,
                                   sizeof err) != 0)
        {
            prof_impl_warn("prof-compare: %s: %s", side->paths[side->count], err);
            return -1;
        }
    return 0;
}

/* An output that would be a result file kept by --run: its name, else
   NULL. */
static const char * kept_clash(const options * o, const char * out,
                               char * buf, size_t size)
{
    int side, p;
    for (side = 0; o->run && o->plan.keep_dir && side < 2; side++)
        for (p = 1; p <= o->plan.pairs; p++)
        {
            prof_impl_run_kept_name(o->plan.keep_dir, side, p, buf, size);
            if (prof_impl_same_target(out, buf))
                return buf;
        }
    return NULL;
}

/* No output may be an input (it would be replaced), a result file kept by
   --run, or the other output: 0, or -1 after a message. */
static int check_outputs(const options * o, const side_t sides[2])
{
    const char * outs[2], * names[2] = { "--svg", "--html" }, * in;
    char kept[4200];
    int i, j, k;
    outs[0] = o->svg;
    outs[1] = o->html;
    for (k = 0; k < 2; k++)
        for (i = 0; outs[k] != NULL && i < 2; i++)
            for (j = 0; j <= sides[i].npaths; j++)
            {
                in = j < sides[i].npaths ? sides[i].paths[j] : NULL;
                if (in != NULL ? prof_impl_same_file(outs[k], in)
                    : (in = kept_clash(o, outs[k], kept, sizeof kept)) != NULL)
                {
                    prof_impl_warn("prof-compare: %s=%s is the %s file %s: "
                                   "refused (it would be replaced)", names[k],
                                   outs[k], j < sides[i].npaths ? "input"
                                   : "kept result", in);
                    return -1;
                }
            }
    if (outs[0] != NULL && outs[1] != NULL && prof_impl_same_target(outs[0], outs[1]))
    {
        prof_impl_warn("prof-compare: --svg and --html name the same file %s",
                       outs[0]);
        return -1;
    }
    return 0;
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
static int gather(const side_t * side, const char * name, statistic stat,
                  prof_series * out)
{
    int i, j;
    memset(out, 0, sizeof *out);
    out->name = (char *) name;
    out->load_avg = NAN;
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
        out->loaded |= s->loaded;
        out->load_avg = fmax(out->load_avg, s->load_avg);
        if (stat == STATISTIC_MIN && s->count > 0)
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

/* The comparison as it is built, row by row. */
typedef struct
{
    side_t sides[2];
    int multi, paired;
    prof_plot_row * rows;
    prof_series * gathered;          /* two per row with several files */
    int nrows, common, regressions, unsure;
    int drift, drift_slower;         /* rows that cannot tell (drift), and
                                        those slower past the threshold */
    int changed;                     /* rows called faster or slower */
    int loaded[2];                   /* rows whose old / new side was
                                        measured under load */
    double max_load;
} comparison;

static int selected(const options * o, const char * name)
{
    return !o->have_re || regexec(&o->re, name, 0, NULL, 0) == 0;
}

/* The two series to compare for name (one file a side: the files' own;
   several: one figure per file, gathered into c->gathered), or 0 when
   name is not on both sides. */
/* A row's first cell, "| name" (names come from the files: a '|' or a
   line break in one must not break the table). */
static void name_cell(const char * name)
{
    fputs("| ", stdout);
    prof_impl_md_text(stdout, name);
}

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
    ok_a = gather(&c->sides[0], a->name, o->stat, ga) == 0;
    ok_b = gather(&c->sides[1], a->name, o->stat, gb) == 0;
    if (!ok_a || !ok_b)
    {
        if (ok_b || prof_impl_results_find(&c->sides[1].files[0], a->name))
        {
            name_cell(a->name);
            printf(" | | | | | | missing in some runs |\n");
        }
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
    char t0[32], t1[32], ci[64], change[32], lo[32], hi[32];
    int regression;

    c->common++;
    if (c->paired)
        prof_impl_compare_paired(a, b, o->gate.alpha, o->gate.noise, &v);
    else
        prof_impl_compare(a, b, o->gate.alpha, o->gate.noise, &v);
    if (!c->multi && !o->run)   /* one run a side: the drift between runs */
        (void) prof_impl_drift_verdict(a, b, &v);
    prof_impl_format_ns(t0, sizeof t0, a->median_ns);
    prof_impl_format_ns(t1, sizeof t1, b->median_ns);
    if (isnan(v.ci_low))
        snprintf(ci, sizeof ci, "n/a");
    else
        snprintf(ci, sizeof ci, "%s%%..%s%%",
                 prof_impl_fixed(lo, sizeof lo, 100.0 * v.ci_low, 1, 1),
                 prof_impl_fixed(hi, sizeof hi, 100.0 * v.ci_high, 1, 1));
    regression = prof_impl_gate_regression(&o->gate, &v);
    c->unsure += v.verdict == PROF_VERDICT_UNSURE;
    c->drift += v.verdict == PROF_VERDICT_DRIFT;
    c->drift_slower += v.verdict == PROF_VERDICT_DRIFT
                    && v.change > fmax(o->gate.threshold, 0.0);
    c->changed += v.verdict == PROF_VERDICT_FASTER
               || v.verdict == PROF_VERDICT_SLOWER
               || v.verdict == PROF_VERDICT_DRIFT;
    c->regressions += regression;
    if (isnan(v.change))
        snprintf(change, sizeof change, "n/a");
    else
        snprintf(change, sizeof change, "%s%%",
                 prof_impl_fixed(lo, sizeof lo, 100.0 * v.change, 1, 1));
    c->loaded[0] += a->loaded;
    c->loaded[1] += b->loaded;
    if (a->loaded || b->loaded)
        c->max_load = fmax(c->max_load, fmax(a->load_avg, b->load_avg));
    name_cell(a->name);
    printf(" | %s | %s | %s | %s | %.3g | %s%s%s |\n", t0, t1, change, ci, v.p, prof_impl_verdict_name(v.verdict),
           regression ? " (regression)" : "",
           a->loaded || b->loaded ? " (loaded)" : "");
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
                         : "unpaired (U test)", o->stat == STATISTIC_MIN ? "min" : "median");
    printf("| benchmark | old | new | change | %g%% interval | p | verdict |\n",
           100.0 * PROF_CI_LEVEL);
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
            {
                name_cell(f->series[j].name);
                printf(" | %s | %s | | | | only in ", i == 0 ? "x" : "",
                       i == 1 ? "x" : "");
                prof_impl_md_text(stdout, c->sides[i].paths[0]);
                printf(" |\n");
            }
    }
}

/* The notes under the table (compare_notes.c). */
static void notes(const comparison * c, const options * o)
{
    prof_compare_notes n;
    n.gate = &o->gate;
    n.common = c->common;
    n.unsure = c->unsure;
    n.drift = c->drift;
    n.changed = c->changed;
    n.paired = c->paired;
    n.one_file = !c->multi && !o->run;
    memcpy(n.loaded, c->loaded, sizeof n.loaded);
    n.max_load = c->max_load;
    prof_impl_compare_notes(stdout, &n);
}

/* The pictures and the gate's verdict: the exit status. */
static int conclude(const comparison * c, const options * o)
{
    prof_plot_side ps[2];
    int rc = PROF_EXIT_PASS, i;
    for (i = 0; i < 2; i++)
    {
        ps[i].paths = c->sides[i].paths;
        ps[i].count = c->sides[i].npaths;
        ps[i].command = o->run ? o->lists[i] : NULL;
    }
    if (c->common == 0)
    {
        prof_impl_warn("prof-compare: %s and %s have no benchmark in common%s",
                       c->sides[0].paths[0], c->sides[1].paths[0],
                       o->filter ? " (after --filter)" : "");
        return PROF_EXIT_BAD_INPUT;
    }
    if (o->svg != NULL && prof_impl_plot_write(o->svg, PROF_PLOT_SVG, c->rows,
            c->nrows, &c->sides[0].files[0], &c->sides[1].files[0], ps) != 0)
        rc = PROF_EXIT_BAD_INPUT;
    if (o->html != NULL && prof_impl_plot_write(o->html, PROF_PLOT_HTML,
            c->rows, c->nrows, &c->sides[0].files[0],
            &c->sides[1].files[0], ps) != 0)
        rc = PROF_EXIT_BAD_INPUT;
    if (rc != PROF_EXIT_PASS)
        return rc;
    rc = prof_impl_gate_conclude(stdout, &o->gate, c->regressions,
                                 c->unsure, "benchmark(s)", c->paired
                                 ? "pairs of runs" : "samples");
    if (rc == PROF_EXIT_PASS && o->gate.threshold >= 0.0
        && c->drift_slower > 0)
    {
        printf("\nthe gate cannot tell: %d benchmark(s) slower by more "
               "than the noise inside a run, but not clearly more than the "
               "drift between runs (exit %d)\n", c->drift_slower,
               PROF_EXIT_UNDECIDED);
        rc = PROF_EXIT_UNDECIDED;
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
        return PROF_EXIT_BAD_INPUT;
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

/* --run: the runs' files become the sides. 0, or -1 after a message; a
   signal that interrupted the runs is raised again after the clean-up. */
static int run_sides(options * o, comparison * c, prof_run_files * files)
{
    const char * paired[2][PROF_RUN_MAX_PAIRS];
    int side, p, rc;
    o->plan.commands[PROF_OLD] = o->lists[0];
    o->plan.commands[PROF_NEW] = o->lists[1];
    rc = prof_impl_run_pairs(&o->plan, files);
    if (prof_impl_run_keep(&o->plan, files) != 0)
        rc = -1;
    if (files->interrupted)
    {
        prof_impl_warn("prof-compare: interrupted (signal %d) after %d "
                       "pair(s) of runs", files->interrupted, files->pairs);
        prof_impl_run_clean(files);     /* and ends by the signal */
        return -1;
    }
    if (rc == 0 && files->pairs == 0)
    {
        prof_impl_warn("prof-compare: no pair of runs within --max-time=%g",
                       o->plan.max_time_s);
        rc = -1;
    }
    if (rc == 0)
        c->sides[0].npaths = c->sides[1].npaths
                           = prof_impl_run_paired(files, paired);
    for (side = 0; rc == 0 && side < 2; side++)
        for (p = 0; p < c->sides[side].npaths; p++)
            c->sides[side].paths[p] = paired[side][p];
    return rc;
}

/* The sides' files: split from the lists, or made by --run; then checked
   against the outputs and loaded. 0, or -1 after a message. */
static int load_sides(options * o, comparison * c, prof_run_files * files)
{
    int i, rc = 0;
    if (o->run)
        rc = check_outputs(o, c->sides) != 0 || run_sides(o, c, files) != 0;
    for (i = 0; i < 2 && rc == 0 && !o->run; i++)
        rc = split_side(o->lists[i], &c->sides[i]);
    if (rc == 0)
        rc = check_outputs(o, c->sides);
    for (i = 0; i < 2 && rc == 0; i++)
        rc = load_side(&c->sides[i]);
    return rc != 0 ? -1 : 0;
}

int main(int argc, char ** argv)
{
    static comparison c;
    static prof_run_files files;
    options o;
    int rc = parse_options(argc, argv, &o);

    if (rc != 0)
        return rc > 0 ? PROF_EXIT_PASS : PROF_EXIT_BAD_INPUT;
    if (o.filter != NULL)
    {
        if (regcomp(&o.re, o.filter, REG_EXTENDED | REG_NOSUB) != 0)
        {
            prof_impl_warn("prof-compare: --filter=%s: not a valid regular "
                           "expression", o.filter);
            return PROF_EXIT_BAD_INPUT;
        }
        o.have_re = 1;
    }
    rc = load_sides(&o, &c, &files);
    if (rc == 0)
    {
        c.multi = c.sides[0].count > 1 || c.sides[1].count > 1;
        c.paired = c.multi && c.sides[0].count == c.sides[1].count;
        rc = compare_all(&c, &o);
    }
    if (rc == 0)
    {
        one_sided(&c, &o);
        notes(&c, &o);
        rc = conclude(&c, &o);
    }
    else
        rc = PROF_EXIT_BAD_INPUT;
    rc = flush_report(rc);
    release(&c, &o);
    prof_impl_run_clean(&files);
    return rc;
}
