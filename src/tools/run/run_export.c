/*
    prof-run's files. hyperfine's three exports with its field names and
    units (JSON and CSV in seconds; markdown in the fastest command's
    unit, with hyperfine's relative column), a few fields of our own added
    to the JSON (the median's interval, err%, peak RSS, partial); and the
    runner's own formats (Google Benchmark's JSON, CSV, markdown) written
    by the runner's reporters from each command's result.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "run.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- hyperfine's JSON ------------------------------------------------------ */

static void json_key_number(FILE * out, const char * key, double v)
{
    fprintf(out, ",\n      \"%s\": ", key);
    prof_impl_json_number(out, v);
}

/* "times": [...] and the other arrays of one number per run. */
static void json_runs(FILE * out, const prof_cmd * c)
{
    int i;
    fputs(",\n      \"times\": [", out);
    for (i = 0; i < c->nruns; i++)
    {
        fputs(i ? ", " : "", out);
        prof_impl_json_number(out, c->runs[i].wall_s);
    }
    fputs("],\n      \"exit_codes\": [", out);
    for (i = 0; i < c->nruns; i++)
        if (c->runs[i].signal != 0)
            fputs(i ? ", null" : "null", out);
        else
            fprintf(out, "%s%d", i ? ", " : "", c->runs[i].exit_code);
    fputs("],\n      \"peak_rss_kb\": [", out);
    for (i = 0; i < c->nruns; i++)
        fprintf(out, "%s%ld", i ? ", " : "", c->runs[i].max_rss_kb);
    fputc(']', out);
}

static void json_parameters(FILE * out, const prof_cmd * c)
{
    int k;
    if (c->nparams == 0)
        return;
    fputs(",\n      \"parameters\": {", out);
    for (k = 0; k < c->nparams; k++)
    {
        fputs(k ? ", " : "", out);
        prof_impl_json_string(out, c->param_names[k]);
        fputs(": ", out);
        prof_impl_json_string(out, c->param_values[k]);
    }
    fputc('}', out);
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
    json_counters(out, plan, c);
    json_parameters(out, c);
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

static void export_markdown(FILE * out, const prof_cmd_plan * plan)
{
    int i, best = prof_impl_cmd_fastest(plan);
    const char * u = "s";
    double us = 1.0;
    if (best >= 0)
        prof_impl_cmd_unit(plan->cmds[best].result->pub.mean_ns * 1e-9, 0,
                           &u, &us);
    fprintf(out, "| Command | Mean [%s] | Min [%s] | Max [%s] | Relative |\n"
            "|:---|---:|---:|---:|---:|\n", u, u, u);
    for (i = 0; i < plan->ncmds; i++)
    {
        const prof_cmd * c = &plan->cmds[i];
        const prof_result * r;
        double ratio, sd;
        int d = us == 1.0 ? 3 : 1;
        if (c->result == NULL)
            continue;
        r = &c->result->pub;
        fputs("| ", out);
        prof_impl_md_code(out, c->name);
        fprintf(out, " | %.*f \xC2\xB1 %.*f | %.*f | %.*f | ", d,
                r->mean_ns * 1e-9 / us, d, wall_sd(c) / us, d,
                r->min_ns * 1e-9 / us, d, r->max_ns * 1e-9 / us);
        prof_impl_cmd_ratio(&plan->cmds[best], c, &ratio, &sd);
        if (i == best)
            fputs("1.00 |\n", out);
        else
            fprintf(out, "%.2f \xC2\xB1 %.2f |\n", ratio, sd);
    }
    if (plan->stop != PROF_CMD_COMPLETE)
        fputs("\n*partial: the runs were stopped before the end*\n", out);
}

static void export_csv(FILE * out, const prof_cmd_plan * plan)
{
    int i, k, np = plan->ncmds > 0 ? plan->cmds[0].nparams : 0;
    fputs("command,mean,stddev,median,user,system,min,max", out);
    for (k = 0; k < np; k++)
        fprintf(out, ",parameter_%s", plan->cmds[0].param_names[k]);
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
            prof_impl_csv_string(out, c->param_values[k]);
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
    {
        const char * unit = "s";
        if (best >= 0)
            prof_impl_cmd_unit(plan->cmds[best].result->pub.mean_ns * 1e-9, 1,
                               &unit, &us);
        for (i = 0; i < n; i++)     /* every command in the fastest's unit */
        {
            prof_impl_copy(results[i]->time_unit, sizeof results[i]->time_unit,
                           unit);
            results[i]->time_unit_ns = us * 1e9;
            results[i]->pub.time_unit = results[i]->time_unit;
        }
    }
    ctx.optimized = 1;              /* the commands' builds are unknown */
    ctx.compiler = ctx.flags = "";
    ctx.counters_line = plan->counters_line;
    ctx.overhead_ns = NAN;
    ctx.processes = 1;
    if (kind == PROF_EXPORT_RUNNER_JSON)
        rc = prof_impl_json_write(out, &ctx, results, 0, n);
    else if (kind == PROF_EXPORT_RUNNER_CSV)
        prof_impl_csv_write(out, &ctx, results, 0, n);
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
    else if (kind == PROF_EXPORT_MARKDOWN)
        export_markdown(out, plan);
    else if (kind == PROF_EXPORT_CSV)
        export_csv(out, plan);
    else
        return export_runner(out, kind, plan);
    return 0;
}
