/*
    prof-run's figures. Each command's runs become a runner result (one
    epoch per run, one iteration each: prof_impl_result_make gives the
    median, its distribution-free interval, err% and the unstable and
    bimodal warnings); the block printed per command adds hyperfine's mean
    and standard deviation, user and system time, min and max, the peak
    RSS and an outlier warning. The summary says how many times faster the
    fastest command ran (hyperfine's ratio of means) and, with the runs
    alternated, the median ratio by round with its interval; with
    --threshold, the gate compares each command with the first by
    prof-compare's rule.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "run.h"
#include "alternate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A run this many robust standard deviations (1.4826 MAD) from the median
   is an outlier. */
#define OUTLIER_SIGMAS 10.0
/* Under this, the shell's own cost is of the size of the command's. */
#define SHELL_WARN_S 0.005

void prof_impl_cmd_unit(double s, double fixed_s, int ascii,
                        const char ** name, double * unit_s)
{
    if (fixed_s != 0.0)
        s = fixed_s;
    if (s < 1e-3)
    {
        *name = ascii ? "us" : "\xC2\xB5s";
        *unit_s = 1e-6;
    }
    else if (s < 1.0)
    {
        *name = "ms";
        *unit_s = 1e-3;
    }
    else
    {
        *name = "s";
        *unit_s = 1.0;
    }
}

/* ---- the result ------------------------------------------------------------- */

/* Append text to the result's warning. */
static void warn_more(prof_impl_result * r, const char * text)
{
    size_t n = strlen(r->warning);
    snprintf(r->warning + n, sizeof r->warning - n, "%s%s", n ? " " : "",
             text);
}

int prof_impl_cmd_result(const prof_cmd_plan * plan, prof_cmd * c)
{
    prof_impl_epochs e;
    int i, n = c->nruns;
    char line[160];
    if (c->result != NULL || n == 0)
        return c->result != NULL ? 0 : -1;
    memset(&e, 0, sizeof e);
    e.name = c->name;
    prof_impl_settings_default(&e.s);
    e.s.epochs = n;
    prof_impl_copy(e.s.unit, sizeof e.s.unit, "run");
    e.got = n;
    e.processes = 1;
    e.samples = (double *) malloc((size_t) n * sizeof *e.samples);
    e.cpu = (double *) malloc((size_t) n * sizeof *e.cpu);
    e.iters = (ulong *) malloc((size_t) n * sizeof *e.iters);
    for (i = 0; e.samples && e.cpu && e.iters && i < n; i++)
    {
        e.samples[i] = c->runs[i].wall_s * 1e9;
        e.cpu[i] = (c->runs[i].user_s + c->runs[i].sys_s) * 1e9;
        e.iters[i] = 1;
        e.net_ns_sum += e.samples[i];
    }
    e.spent_ns = c->measured_s * 1e9;
    e.overhead_ns = plan->shell_cost.wall_s * 1e9;
    e.load = NAN;       /* the highest its runs ended under */
    for (i = 0; i < n; i++)
        e.load = fmax(e.load, c->runs[i].load);
    if (plan->nev > 0 && (e.ev = (double *) malloc((size_t) n * plan->nev
                                                    * sizeof *e.ev)) != NULL)
    {
        e.nev = plan->nev;
        memcpy(e.ev_names, plan->ev_names, sizeof e.ev_names);
        for (i = 0; i < n * e.nev; i++)
            e.ev[i] = c->runs[i / e.nev].ev[i % e.nev];
    }
    if (e.samples == NULL || e.cpu == NULL || e.iters == NULL
        || (plan->nev > 0 && e.ev == NULL))
    {
        prof_impl_warn("%s: out of memory; result lost", c->name);
        prof_impl_epochs_free(&e);
        return -1;
    }
    c->result = prof_impl_result_make(&e);
    if (c->result == NULL)
        return -1;
    if (!c->done)
    {
        c->result->pub.flags |= PROF_RESULT_PARTIAL;
        snprintf(line, sizeof line, "partial: stopped after %d run%s (%s).",
                 n, n == 1 ? "" : "s", plan->stop == PROF_CMD_INTERRUPTED
                 ? "interrupted" : "a failure");
        warn_more(c->result, line);
    }
    return 0;
}

/* ---- a command's block --------------------------------------------------------- */

/* "12.3 ms" in the unit u (us, ms: 1 decimal, s: 3, as hyperfine; width
   < 0: 4 significant digits), right-aligned in |width| columns (the unit's
   µ is two bytes, one column). */
static void fmt(char * buf, size_t size, double s, const char * u,
                double unit_s, int width)
{
    char v[40];
    if (width < 0)
        snprintf(v, sizeof v, "%#.4g %s", s / unit_s, u);
    else
        snprintf(v, sizeof v, "%.*f %s", unit_s == 1.0 ? 3 : 1, s / unit_s,
                 u);
    snprintf(buf, size, "%*s", abs(width) + (unit_s == 1e-6), v);
}

/* Outliers among the wall times (sorted: a sorted copy); *first: the
   first run is one of them and slower. */
static int outliers(const prof_cmd * c, double * sorted, int * first)
{
    int i, n = c->nruns, count = 0;
    double med, mad, * dev = sorted + n;
    for (i = 0; i < n; i++)
        sorted[i] = c->runs[i].wall_s;
    med = prof_impl_median(sorted, n);
    for (i = 0; i < n; i++)
        dev[i] = fabs(sorted[i] - med);
    mad = prof_impl_median(dev, n);
    *first = 0;
    for (i = 0; i < n; i++)
        if (fabs(c->runs[i].wall_s - med) > OUTLIER_SIGMAS * 1.4826 * mad)
        {
            count++;
            *first |= i == 0 && c->runs[0].wall_s > med;
        }
    return count;
}

/* With --ignore-failure, the runs that failed: how many, and their exit
   codes (the first few, each once). */
static void print_failures(FILE * f, const prof_cmd * c)
{
    enum { SHOWN = 4 };
    int codes[SHOWN], ncodes = 0, failed = 0, i, k;
    for (i = 0; i < c->nruns; i++)
    {
        int e = c->runs[i].exit_code;
        if (e == 0)
            continue;
        failed++;
        for (k = 0; k < ncodes && codes[k] != e; k++)
            ;
        if (k == ncodes && ncodes < SHOWN)
            codes[ncodes++] = e;
    }
    if (failed == 0)
        return;
    fprintf(f, "  Warning: %d of %d runs failed (exit code%s", failed,
            c->nruns, ncodes > 1 ? "s" : "");
    for (k = 0; k < ncodes; k++)
        fprintf(f, "%s %d", k ? "," : "", codes[k]);
    fprintf(f, "%s; over 128: killed by signal N-128), timed anyway "
            "(--ignore-failure).\n", ncodes == SHOWN ? ", ..." : "");
}

/* The warnings under a command's figures. */
static void print_warnings(const prof_cmd_plan * plan, const prof_cmd * c,
                           const prof_result * r)
{
    FILE * f = plan->summary;
    double * work = (double *) malloc(2 * (size_t) c->nruns * sizeof *work);
    int first = 0, out = work != NULL ? outliers(c, work, &first) : 0;
    free(work);
    print_failures(f, c);
    if (r->flags & PROF_RESULT_PARTIAL)
        fprintf(f, "  Warning: partial: the runs stopped (%s) before this "
                "command had its runs.\n", plan->stop == PROF_CMD_INTERRUPTED
                ? "interrupted" : "a failure");
    if (plan->shell != NULL && r->mean_ns * 1e-9 < SHELL_WARN_S)
        fprintf(f, "  Warning: under %g ms: the shell's own cost (%.3g ms, "
                "subtracted) is of the same size; --shell=none runs the "
                "command without it.\n", SHELL_WARN_S * 1e3,
                plan->shell_cost.wall_s * 1e3);
    if (first)
        fprintf(f, "  Warning: the first run was much slower than the rest "
                "(%.4g ms): caches it filled? --warmup=N runs some first.\n",
                c->runs[0].wall_s * 1e3);
    else if (out > 0)
        fprintf(f, "  Warning: %d statistical outlier%s (over %g robust "
                "standard deviations from the median): other programs "
                "interfered? Rerun on a quiet machine; --warmup and "
                "--prepare may help.\n", out, out == 1 ? "" : "s",
                OUTLIER_SIGMAS);
    if (r->flags & PROF_RESULT_UNSTABLE)
        fprintf(f, "  Warning: unstable: err%% %.1f%%: the runs scatter "
                "(other load, frequency changes).\n", r->err_pct);
    if (r->flags & PROF_RESULT_BIMODAL)
        fprintf(f, "  Warning: bimodal: the runs form two groups (the "
                "machine changed speed, or the command has two paths).\n");
    if (r->flags & PROF_RESULT_LOADED)
        fprintf(f, "  Warning: loaded: measured while the load average "
                "(%.2f, the command's own processes in it) exceeded the %d "
                "cores: the times may include other processes' work. Rerun "
                "on a quiet machine (doc/runner.md, \"Quiet figures\").\n",
                r->load_avg,
                prof_impl_online_cores());
}

void prof_impl_cmd_cpu(const prof_cmd * c, double * user, double * sys)
{
    int i;
    *user = *sys = 0.0;
    for (i = 0; i < c->nruns; i++)
    {
        *user += c->runs[i].user_s / c->nruns;
        *sys += c->runs[i].sys_s / c->nruns;
    }
}

void prof_impl_cmd_wall(const prof_cmd * c, double * mean, double * sd)
{
    int i, n = c->nruns;
    *mean = *sd = 0.0;
    if (n == 0)
        return;
    for (i = 0; i < n; i++)
        *mean += c->runs[i].wall_s;
    *mean /= n;
    for (i = 0; i < n; i++)
        *sd += (c->runs[i].wall_s - *mean) * (c->runs[i].wall_s - *mean);
    *sd = n > 1 ? sqrt(*sd / (n - 1)) : 0.0;
}

/* The median counts per run (and IPC, branch-miss %), n/a where the
   machine cannot count; the context line once, before the first. */
static void print_counters(prof_cmd_plan * plan, const prof_result * r)
{
    FILE * f = plan->summary;
    int k;
    if (r->ncounters == 0)
        return;
    if (!plan->counters_said++)
        fprintf(f, "  (%s)\n", plan->counters_line);
    fputs("  Counters per run:   ", f);
    for (k = 0; k < r->ncounters; k++)
        if (isnan(r->counters[k]))
            fprintf(f, "%s %s n/a", k ? "," : "", r->counter_names[k]);
        else if (strcmp(r->counter_names[k], "task-clock") == 0)
            fprintf(f, "%s task-clock %.4g ms", k ? "," : "",
                    r->counters[k] * 1e-6);
        else
            fprintf(f, "%s %s %.4g", k ? "," : "", r->counter_names[k],
                    r->counters[k]);
    if (!isnan(r->ipc))
        fprintf(f, ", IPC %.3f", r->ipc);
    if (!isnan(r->branch_miss_pct))
        fprintf(f, ", branch misses %.2f%%", r->branch_miss_pct);
    fputc('\n', f);
}

void prof_impl_cmd_heading(const prof_cmd_plan * plan, int index)
{
    fprintf(plan->summary, "Benchmark %d: %s\n", index + 1,
            plan->cmds[index].name);
    fflush(plan->summary);
}

/* The line of the mean and standard deviation (one run: hyperfine's
   "abs", no deviation), user and system time. */
static void print_mean(const prof_cmd_plan * plan, const prof_cmd * c,
                       const char * u, double us)
{
    double mean, sd, user, sys;
    char t[4][48];
    prof_impl_cmd_cpu(c, &user, &sys);
    prof_impl_cmd_wall(c, &mean, &sd);
    fmt(t[0], sizeof t[0], mean, u, us, 8);
    fmt(t[1], sizeof t[1], sd, u, us, 8);
    fmt(t[2], sizeof t[2], user, u, us, 0);
    fmt(t[3], sizeof t[3], sys, u, us, 0);
    if (c->nruns == 1)
        fprintf(plan->summary, "  Time (abs \xE2\x89\xA1):        %s  %8s  "
                "   [User: %s, System: %s]\n", t[0], "", t[2], t[3]);
    else
        fprintf(plan->summary, "  Time (mean \xC2\xB1 \xCF\x83):     %s \xC2"
                "\xB1 %s    [User: %s, System: %s]\n", t[0], t[1], t[2], t[3]);
}

void prof_impl_cmd_print(prof_cmd_plan * plan, int index)
{
    prof_cmd * c = &plan->cmds[index];
    const prof_result * r;
    double mean, sd;
    double rss = 0.0, us;
    char t[4][48], ci[128];
    const char * u;
    int i;
    if (prof_impl_cmd_result(plan, c) != 0)
        return;
    r = &c->result->pub;
    for (i = 0; i < c->nruns; i++)
        rss = fmax(rss, (double) c->runs[i].max_rss_kb);
    prof_impl_cmd_wall(c, &mean, &sd);
    prof_impl_cmd_unit(mean, plan->unit_s, 0, &u, &us);
    /* with the output shown, the heading came before it (again here
       when other commands' output came between: alternated) */
    if (!plan->show_output || (plan->interleave && plan->ncmds > 1))
        prof_impl_cmd_heading(plan, index);
    print_mean(plan, c, u, us);
    fmt(t[0], sizeof t[0], r->median_ns * 1e-9, u, us, -8);
    fmt(t[1], sizeof t[1], r->ci_low_ns * 1e-9, u, us, -8);
    fmt(t[2], sizeof t[2], r->ci_high_ns * 1e-9, u, us, -1);
    if (isnan(r->ci_low_ns))
        snprintf(ci, sizeof ci, "no interval under %d runs",
                 PROF_MIN_INTERVAL_EPOCHS);
    else
        snprintf(ci, sizeof ci, "%s \xE2\x80\xA6 %s    %.0f%% interval",
                 t[1], t[2], 100.0 * fmin(r->ci_level, PROF_CI_LEVEL));
    fprintf(plan->summary, "  Time (median):       %s    err%% %.1f\n"
            "  Median interval:     %s\n", t[0], r->err_pct, ci);
    fmt(t[0], sizeof t[0], r->min_ns * 1e-9, u, us, 8);
    fmt(t[1], sizeof t[1], r->max_ns * 1e-9, u, us, 8);
    fprintf(plan->summary, "  Range (min \xE2\x80\xA6 max):   %s \xE2\x80\xA6 %s"
            "    %d run%s    peak RSS %.1f MB\n", t[0], t[1], c->nruns,
            c->nruns == 1 ? "" : "s", rss / 1024.0);
    print_counters(plan, r);
    print_warnings(plan, c, r);
    fputc('\n', plan->summary);
    fflush(plan->summary);
}

/* ---- comparisons ------------------------------------------------------------- */

void prof_impl_cmd_ratio(const prof_cmd * a, const prof_cmd * b,
                         double * ratio, double * sd)
{
    double mean_a, sd_a, mean_b, sd_b;
    prof_impl_cmd_wall(a, &mean_a, &sd_a);
    prof_impl_cmd_wall(b, &mean_b, &sd_b);
    *ratio = mean_b / mean_a;
    *sd = a->nruns < 2 || b->nruns < 2 ? NAN
        : *ratio * sqrt(pow(sd_a / mean_a, 2.0) + pow(sd_b / mean_b, 2.0));
}

/* The series to compare old a with new b: their runs in the rounds both
   ran in (paired), or all their runs. 0, or -1 out of memory. */
static int series_of(const prof_cmd * a, const prof_cmd * b, int paired,
                     prof_series * sa, prof_series * sb)
{
    /* the rounds of a's runs and b's, then the indexes of those compared */
    int * r = (int *) malloc(2 * ((size_t) a->nruns + b->nruns) * sizeof *r);
    int * ra, * rb, * ia, * ib, i;
    memset(sa, 0, sizeof *sa);
    memset(sb, 0, sizeof *sb);
    sa->name = a->name;
    sb->name = b->name;
    sa->samples_ns = (double *) malloc(2 * (size_t) a->nruns * sizeof(double));
    sb->samples_ns = (double *) malloc(2 * (size_t) b->nruns * sizeof(double));
    if (r == NULL || sa->samples_ns == NULL || sb->samples_ns == NULL)
    {
        free(r);
        return -1;
    }
    ra = r;
    rb = ra + a->nruns;
    ia = rb + b->nruns;
    ib = ia + a->nruns;
    for (i = 0; i < a->nruns; i++)
    {
        ra[i] = a->runs[i].round;
        ia[i] = i;
    }
    for (i = 0; i < b->nruns; i++)
    {
        rb[i] = b->runs[i].round;
        ib[i] = i;
    }
    sa->count = a->nruns;
    sb->count = b->nruns;
    if (paired)
        sa->count = sb->count = prof_impl_alt_pairs(ra, a->nruns, rb, b->nruns,
                                                    ia, ib);
    for (i = 0; i < sa->count; i++)
        sa->samples_ns[i] = a->runs[ia[i]].wall_s * 1e9;
    for (i = 0; i < sb->count; i++)
        sb->samples_ns[i] = b->runs[ib[i]].wall_s * 1e9;
    free(r);
    /* the second half is scratch space for the median */
    memcpy(sa->samples_ns + sa->count, sa->samples_ns, sa->count * sizeof(double));
    memcpy(sb->samples_ns + sb->count, sb->samples_ns, sb->count * sizeof(double));
    sa->median_ns = prof_impl_median(sa->samples_ns + sa->count, sa->count);
    sb->median_ns = prof_impl_median(sb->samples_ns + sb->count, sb->count);
    return 0;
}

/* old against new: v; -1 out of memory. *pairs: the pairs (rounds) or the
   runs of new compared. */
static int versus(const prof_cmd_plan * plan, const prof_gate * g,
                  const prof_cmd * old, const prof_cmd * new_,
                  prof_verdict * v, int * pairs)
{
    prof_series a, b;
    int rc = series_of(old, new_, plan->interleave, &a, &b);
    if (rc == 0 && plan->interleave)
        prof_impl_compare_paired(&a, &b, g->alpha, g->noise, v);
    else if (rc == 0)
        prof_impl_compare(&a, &b, g->alpha, g->noise, v);
    *pairs = b.count;
    free(a.samples_ns);
    free(b.samples_ns);
    return rc;
}

int prof_impl_cmd_fastest(const prof_cmd_plan * plan)
{
    int i, best = -1;
    for (i = 0; i < plan->ncmds; i++)
        if (prof_impl_cmd_result(plan, &plan->cmds[i]) == 0
            && (best < 0 || plan->cmds[i].result->pub.mean_ns
                            < plan->cmds[best].result->pub.mean_ns))
            best = i;
    return best;
}

int prof_impl_cmd_order(const prof_cmd_plan * plan, int by_mean, int ** order)
{
    int i, k, n = 0;
    if ((*order = (int *) malloc(((size_t) plan->ncmds + 1) * sizeof **order))
        == NULL)
    {
        prof_impl_warn("prof-run: out of memory");
        return -1;
    }
    for (i = 0; i < plan->ncmds; i++)
    {
        double mean = plan->cmds[i].result != NULL
                    ? plan->cmds[i].result->pub.mean_ns : 0.0;
        if (plan->cmds[i].result == NULL)
            continue;
        /* insertion: stable, ties in the order given */
        for (k = n; by_mean && k > 0
             && plan->cmds[(*order)[k - 1]].result->pub.mean_ns > mean; k--)
            (*order)[k] = (*order)[k - 1];
        (*order)[k] = i;
        n++;
    }
    return n;
}

/* "'A' ran 1.52 ± 0.03 times faster than 'B'", and by round; in the order
   of --sort (by mean time unless "command"). */
static void relative(const prof_cmd_plan * plan, const prof_gate * g)
{
    int i, k, best = prof_impl_cmd_fastest(plan), shown = 0, pairs, * order;
    int n = prof_impl_cmd_order(plan, plan->sort != PROF_CMD_SORT_COMMAND,
                                &order);
    FILE * f = plan->summary;
    for (k = 0; best >= 0 && k < n; k++)
    {
        const prof_cmd * c = &plan->cmds[i = order[k]], * b = &plan->cmds[best];
        double ratio, sd;
        prof_verdict v;
        if (i == best || c->result == NULL)
            continue;
        if (!shown++)
            fprintf(f, "Summary\n  '%s' ran\n", b->name);
        prof_impl_cmd_ratio(b, c, &ratio, &sd);
        if (isnan(sd))              /* one run: no deviation, no ± */
            fprintf(f, "    %.2f times faster than '%s'\n", ratio, c->name);
        else
            fprintf(f, "    %.2f \xC2\xB1 %.2f times faster than '%s'\n",
                    ratio, sd, c->name);
        if (!plan->interleave || versus(plan, g, b, c, &v, &pairs) != 0)
            continue;
        if (!isfinite(v.change) || isinf(v.ci_high))
            fprintf(f, "      by round: n/a (a time of 0 once the shell's "
                    "cost is subtracted: --shell=none)\n");
        else if (isnan(v.ci_low))
            fprintf(f, "      by round: %.3f times (%d rounds; %d give "
                    "an interval)\n", 1.0 + v.change, pairs,
                    PROF_MIN_INTERVAL_EPOCHS);
        else
            fprintf(f, "      by round: %.3f times, %.3f \xE2\x80\xA6 "
                    "%.3f (%g%% interval, %d rounds)\n", 1.0 + v.change,
                    1.0 + v.ci_low, 1.0 + v.ci_high, 100.0 * PROF_CI_LEVEL,
                    pairs);
    }
    free(order);
    if (shown)
        fputc('\n', f);
}

/* With a threshold: each command against the first. The exit status. */
static int gate(const prof_cmd_plan * plan, const prof_gate * g)
{
    const prof_cmd * ref = &plan->cmds[0];
    int i, pairs = 0, regressions = 0, unsure = 0;
    FILE * f = plan->summary;
    if (g->threshold < 0.0)
        return PROF_EXIT_PASS;
    fprintf(f, "Gate: each command against the first, '%s' (threshold "
            "%.3g%%, alpha %.3g, noise %.3g%%, %s)\n", ref->name,
            100.0 * g->threshold, g->alpha, 100.0 * g->noise, plan->interleave
            ? "sign test by round" : "U test on the runs");
    for (i = 1; ref->result != NULL && i < plan->ncmds; i++)
    {
        const prof_cmd * c = &plan->cmds[i];
        prof_verdict v;
        int regression;
        if (c->result == NULL || versus(plan, g, ref, c, &v, &pairs) != 0)
            continue;
        regression = prof_impl_gate_regression(g, &v);
        regressions += regression;
        unsure += v.verdict == PROF_VERDICT_UNSURE;
        fprintf(f, "  '%s': %+.1f%%", c->name, 100.0 * v.change);
        if (!isnan(v.ci_low))
            fprintf(f, ", %+.1f%% \xE2\x80\xA6 %+.1f%%", 100.0 * v.ci_low,
                    100.0 * v.ci_high);
        fprintf(f, ", p %.3g, %s%s\n", v.p, prof_impl_verdict_name(v.verdict),
                regression ? " (regression)" : "");
    }
    pairs = plan->interleave ? prof_impl_gate_pairs_needed(g->alpha)
                             : prof_impl_gate_samples_needed(g->alpha);
    if (unsure > 0)
        fprintf(f, "  too few %s to tell at alpha %g: at least %d are needed "
                "(--min-runs=%d)\n", plan->interleave ? "rounds" : "runs",
                g->alpha, pairs, pairs);
    return prof_impl_gate_conclude(f, g, regressions, unsure, "command(s)",
                                   plan->interleave ? "rounds" : "runs");
}

int prof_impl_cmd_summary(prof_cmd_plan * plan, const prof_gate * g)
{
    for (; plan->printed < plan->ncmds; plan->printed++)
        prof_impl_cmd_print(plan, plan->printed);  /* the partial ones */
    relative(plan, g);
    return gate(plan, g);
}
