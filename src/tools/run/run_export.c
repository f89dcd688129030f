/*
    prof-run's files. hyperfine's five exports with its field names, order
    and units (JSON and CSV in seconds; the markup tables, markdown,
    AsciiDoc and org-mode, in the first command's unit or --time-unit's,
    with hyperfine's relative column), a few fields of our own added to
    the JSON (the median's interval, err%, peak RSS, partial); and the
    runner's own formats (Google Benchmark's JSON, CSV, markdown) written
    by the runner's reporters from each command's result.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "run.h"
#include "bench_settings.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- hyperfine's JSON ------------------------------------------------------ */

static void json_key_number(FILE * out, const char * key, double v)
{
    fprintf(out, ",\n      \"%s\": ", key);
    prof_impl_json_number(out, v);
}

/* "times": [...] and the other arrays of one number per run, in
   hyperfine's order (times, memory_usage_byte, exit_codes); exit_codes
   128 + the signal for a run killed by one, as hyperfine. */
static void json_runs(FILE * out, const prof_cmd * c)
{
    int i;
    fputs(",\n      \"times\": [", out);
    for (i = 0; i < c->nruns; i++)
    {
        fputs(i ? ", " : "", out);
        prof_impl_json_number(out, c->runs[i].wall_s);
    }
    fputs("],\n      \"memory_usage_byte\": [", out);
    for (i = 0; i < c->nruns; i++)
        fprintf(out, "%s%.0f", i ? ", " : "", c->runs[i].max_rss_kb * 1024.0);
    fputs("],\n      \"exit_codes\": [", out);
    for (i = 0; i < c->nruns; i++)
        fprintf(out, "%s%d", i ? ", " : "", c->runs[i].exit_code);
    fputc(']', out);
}

/* c's parameters sorted by name, as hyperfine writes them: their indexes
   in order (at most PROF_CMD_MAX_PARAMS). */
static void params_sorted(const prof_cmd * c, int * order)
{
    int k, j;
    for (k = 0; k < c->nparams; k++)
    {
        for (j = k; j > 0 && strcmp(c->param_names[order[j - 1]],
                                    c->param_names[k]) > 0; j--)
            order[j] = order[j - 1];
        order[j] = k;
    }
}

static void json_parameters(FILE * out, const prof_cmd * c)
{
    int k, order[PROF_CMD_MAX_PARAMS];
    if (c->nparams == 0)
        return;
    params_sorted(c, order);
    fputs(",\n      \"parameters\": {", out);
    for (k = 0; k < c->nparams; k++)
    {
        fputs(k ? ", " : "", out);
        prof_impl_json_string(out, c->param_names[order[k]]);
        fputs(": ", out);
        prof_impl_json_string(out, c->param_values[order[k]]);
    }
    fputc('}', out);
}

/* Our own arrays: each run's peak RSS in kB, and its event counts. */
static void json_rss(FILE * out, const prof_cmd * c)
{
    int i;
    fputs(",\n      \"peak_rss_kb\": [", out);
    for (i = 0; i < c->nruns; i++)
        fprintf(out, "%s%ld", i ? ", " : "", c->runs[i].max_rss_kb);
    fputc(']', out);
}

/* "counters": each event's count in each run (null: not counted). */
static void json_counters(FILE * out, const prof_cmd_plan * plan,
                          const prof_cmd * c)
{
    int i, k;
    if (plan->nev == 0)
        return;
    fputs(",\n      \"counters\": {", out);
    for (k = 0; k < plan->nev; k++)
    {
        fprintf(out, "%s\n        ", k ? "," : "");
        prof_impl_json_string(out, plan->ev_names[k]);
        fputs(": [", out);
        for (i = 0; i < c->nruns; i++)
        {
            fputs(i ? ", " : "", out);
            prof_impl_json_number(out, c->runs[i].ev[k]);
        }
        fputc(']', out);
    }
    fputs("\n      }", out);
}

static void json_result(FILE * out, const prof_cmd_plan * plan,
                        const prof_cmd * c, double sd)
{
    const prof_result * r = &c->result->pub;
    double user, sys;
    prof_impl_cmd_cpu(c, &user, &sys);
    fputs("    {\n      \"command\": ", out);
    prof_impl_json_string(out, c->name);
    json_key_number(out, "mean", r->mean_ns * 1e-9);
    json_key_number(out, "stddev", c->nruns > 1 ? sd : NAN);
    json_key_number(out, "median", r->median_ns * 1e-9);
    json_key_number(out, "user", user);
    json_key_number(out, "system", sys);
    json_key_number(out, "min", r->min_ns * 1e-9);
    json_key_number(out, "max", r->max_ns * 1e-9);
    json_runs(out, c);
    json_parameters(out, c);
    json_rss(out, c);
    json_counters(out, plan, c);
    json_key_number(out, "median_ci_low", r->ci_low_ns * 1e-9);
    json_key_number(out, "median_ci_high", r->ci_high_ns * 1e-9);
    json_key_number(out, "ci_level", r->ci_level);
    json_key_number(out, "err_pct", r->err_pct);
    json_key_number(out, "load_avg_1m", r->load_avg);
    fprintf(out, ",\n      \"loaded\": %s,\n      \"partial\": %s\n    }",
            (r->flags & PROF_RESULT_LOADED) ? "true" : "false",
            (r->flags & PROF_RESULT_PARTIAL) ? "true" : "false");
}

/* ---- the exports ------------------------------------------------------------- */

/* The standard deviation of c's wall times [s]. */
static double wall_sd(const prof_cmd * c)
{
    double mean, sd;
    prof_impl_cmd_wall(c, &mean, &sd);
    return sd;
}

static void export_json(FILE * out, const prof_cmd_plan * plan)
{
    int i, first = 1;
    fputs("{\n  \"results\": [\n", out);
    for (i = 0; i < plan->ncmds; i++)
        if (plan->cmds[i].result != NULL)
        {
            fputs(first ? "" : ",\n", out);
            json_result(out, plan, &plan->cmds[i], wall_sd(&plan->cmds[i]));
            first = 0;
        }
    fprintf(out, "\n  ],\n  \"partial\": %s\n}\n",
            plan->stop != PROF_CMD_COMPLETE ? "true" : "false");
}

/* A row of hyperfine's markup tables (markdown, AsciiDoc, org-mode):
   the n cells, the first being the command name when name is not NULL
   (`name`, org-mode =name=, | escaped). */
static void markup_row(FILE * out, prof_export_kind kind, const char * name,
                       char cells[][64], int n)
{
    const char * q = kind == PROF_EXPORT_ORGMODE ? "=" : "`";
    int k;
    if (kind == PROF_EXPORT_ASCIIDOC)
        fputc('\n', out);
    for (k = 0; k < n; k++)
    {
        fputs(kind == PROF_EXPORT_ASCIIDOC || k == 0 ? "| "
              : kind == PROF_EXPORT_ORGMODE ? (k == 1 ? "  |  " : " |  ")
              : " | ", out);
        if (k == 0 && name != NULL)
        {
            fputs(q, out);
            prof_impl_md_text(out, name);
            fputs(q, out);
        }
        else
            fputs(cells[k], out);
        if (kind == PROF_EXPORT_ASCIIDOC)
            fputs(" \n", out);
    }
    if (kind != PROF_EXPORT_ASCIIDOC)
        fputs(" |\n", out);
}

/* Command i's row: mean ± σ (no ± for one run), min, max in the unit us,
   and its ratio to the fastest (± unless it is the fastest or one of the
   two ran once). */
static void markup_result(FILE * out, prof_export_kind kind,
                          const prof_cmd_plan * plan, int i, int best,
                          double us)
{
    const prof_cmd * c = &plan->cmds[i];
    const prof_result * r = &c->result->pub;
    char cells[5][64];
    double ratio, sd, mean, wall_sd_s;
    int d = us == 1.0 ? 3 : 1, n;
    prof_impl_cmd_wall(c, &mean, &wall_sd_s);
    n = snprintf(cells[1], sizeof cells[1], "%.*f", d, r->mean_ns * 1e-9 / us);
    if (c->nruns > 1)
        snprintf(cells[1] + n, sizeof cells[1] - n, " \xC2\xB1 %.*f", d,
                 wall_sd_s / us);
    snprintf(cells[2], sizeof cells[2], "%.*f", d, r->min_ns * 1e-9 / us);
    snprintf(cells[3], sizeof cells[3], "%.*f", d, r->max_ns * 1e-9 / us);
    prof_impl_cmd_ratio(&plan->cmds[best], c, &ratio, &sd);
    n = snprintf(cells[4], sizeof cells[4], "%.2f", i == best ? 1.0 : ratio);
    if (i != best && !isnan(sd))
        snprintf(cells[4] + n, sizeof cells[4] - n, " \xC2\xB1 %.2f", sd);
    markup_row(out, kind, c->name, cells, 5);
}

static int export_markup(FILE * out, prof_export_kind kind,
                         const prof_cmd_plan * plan)
{
    char head[5][64] = { "Command", "Mean", "Min", "Max", "Relative" };
    int k, * order, best = prof_impl_cmd_fastest(plan);
    int n = prof_impl_cmd_order(plan, plan->sort == PROF_CMD_SORT_MEAN, &order);
    const char * u = "s";
    double us = 1.0;
    if (n < 0)
        return -1;
    for (k = 0; k < plan->ncmds && plan->cmds[k].result == NULL; k++)
        ;
    if (k < plan->ncmds)        /* the first command's unit, as hyperfine */
        prof_impl_cmd_unit(plan->cmds[k].result->pub.mean_ns * 1e-9,
                           plan->unit_s, 0, &u, &us);
    for (k = 1; k < 4; k++)
        snprintf(head[k] + strlen(head[k]), 64 - strlen(head[k]), " [%s]", u);
    if (kind == PROF_EXPORT_ASCIIDOC)
        fputs("[cols=\"<,>,>,>,>\"]\n|===", out);
    markup_row(out, kind, NULL, head, 5);
    if (kind == PROF_EXPORT_MARKDOWN)
        fputs("|:---|---:|---:|---:|---:|\n", out);
    else if (kind == PROF_EXPORT_ORGMODE)
        fputs("|--+--+--+--+--|\n", out);
    for (k = 0; k < n; k++)
        markup_result(out, kind, plan, order[k], best, us);
    if (kind == PROF_EXPORT_ASCIIDOC)
        fputs("|===\n", out);
    if (plan->stop != PROF_CMD_COMPLETE)
        fprintf(out, "\n%spartial: the runs were stopped before the end%s\n",
                kind == PROF_EXPORT_ORGMODE ? "/" : kind == PROF_EXPORT_ASCIIDOC
                ? "_" : "*", kind == PROF_EXPORT_ORGMODE ? "/"
                : kind == PROF_EXPORT_ASCIIDOC ? "_" : "*");
    free(order);
    return 0;
}

static void export_csv(FILE * out, const prof_cmd_plan * plan)
{
    int i, k, np = plan->ncmds > 0 ? plan->cmds[0].nparams : 0;
    int order[PROF_CMD_MAX_PARAMS];
    if (np > 0)                 /* by name, as hyperfine */
        params_sorted(&plan->cmds[0], order);
    fputs("command,mean,stddev,median,user,system,min,max", out);
    for (k = 0; k < np; k++)
        fprintf(out, ",parameter_%s", plan->cmds[0].param_names[order[k]]);
    fputc('\n', out);
    for (i = 0; i < plan->ncmds; i++)
    {
        const prof_cmd * c = &plan->cmds[i];
        double user, sys;
        if (c->result == NULL)
            continue;
        prof_impl_cmd_cpu(c, &user, &sys);
        prof_impl_csv_string(out, c->name);
        fprintf(out, ",%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g",
                c->result->pub.mean_ns * 1e-9, wall_sd(c),
                c->result->pub.median_ns * 1e-9, user, sys,
                c->result->pub.min_ns * 1e-9, c->result->pub.max_ns * 1e-9);
        for (k = 0; k < np; k++)
        {
            fputc(',', out);
            prof_impl_csv_string(out, c->param_values[order[k]]);
        }
        fputc('\n', out);
    }
}

/* The runner's formats: the context its reporters need, and the results
   of the commands that ran. 0, or -1 out of memory (after a message). */
static int export_runner(FILE * out, prof_export_kind kind,
                         const prof_cmd_plan * plan)
{
    prof_impl_report_ctx ctx;
    prof_impl_result ** results = (prof_impl_result **) malloc(
        ((size_t) plan->ncmds + 1) * sizeof *results);
    prof_impl_md_writer w;
    double us = 1.0;
    int i, n = 0, rc = 0, best = prof_impl_cmd_fastest(plan);
    if (results == NULL)
    {
        prof_impl_warn("prof-run: out of memory; results not written");
        return -1;
    }
    for (i = 0; i < plan->ncmds; i++)
        if (plan->cmds[i].result != NULL)
            results[n++] = plan->cmds[i].result;
    memset(&ctx, 0, sizeof ctx);
    ctx.json_epochs = 1;    /* an entry per run, as before (compare.py's U test) */
    {
        const char * unit = "s";
        if (best >= 0)
            prof_impl_cmd_unit(plan->cmds[best].result->pub.mean_ns * 1e-9,
                               0.0, 1, &unit, &us);
        for (i = 0; i < n; i++)     /* every command in the fastest's unit */
        {
            prof_impl_copy(results[i]->time_unit, sizeof results[i]->time_unit,
                           unit);
            results[i]->time_unit_ns = us * 1e9;
            results[i]->pub.time_unit = results[i]->time_unit;
            results[i]->time_unit_fixed = 1;    /* the table's too */
        }
    }
    ctx.optimized = 1;              /* the commands' builds are unknown */
    ctx.compiler = ctx.flags = "";
    ctx.counters_line = plan->counters_line;
    ctx.overhead_ns = NAN;
    ctx.processes = 1;
    ctx.no_rate = 1;                /* a command has no items */
    ctx.percentiles = prof_impl_percentiles_default;
    ctx.npercentiles = prof_impl_npercentiles_default;
    if (kind == PROF_EXPORT_RUNNER_JSON)
        rc = prof_impl_json_write(out, &ctx, results, 0, n);
    else if (kind == PROF_EXPORT_RUNNER_CSV)
        rc = prof_impl_csv_write(out, &ctx, results, 0, n);
    prof_impl_md_init(&w, out);
    for (i = 0; kind == PROF_EXPORT_RUNNER_MD && i < n; i++)
        prof_impl_md_row(&w, &ctx, results[i], 0);
    free(results);
    return rc;
}

int prof_impl_cmd_export(FILE * out, prof_export_kind kind,
                         const prof_cmd_plan * plan)
{
    int i;
    /* A command that ran and has no result (out of memory: said by
       result_make) would be missing from the file: the export fails. */
    for (i = 0; i < plan->ncmds; i++)
        if (plan->cmds[i].nruns > 0
            && prof_impl_cmd_result(plan, &plan->cmds[i]) != 0)
            return -1;
    if (kind == PROF_EXPORT_JSON)
        export_json(out, plan);
    else if (kind == PROF_EXPORT_MARKDOWN || kind == PROF_EXPORT_ASCIIDOC
             || kind == PROF_EXPORT_ORGMODE)
        return export_markup(out, kind, plan);
    else if (kind == PROF_EXPORT_CSV)
        export_csv(out, plan);
    else
        return export_runner(out, kind, plan);
    return 0;
}
