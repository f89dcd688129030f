/*
    p-run: prof-run beside hyperfine, in one run, alternating
    which of the two goes first, each figure a median over several
    invocations.
      1. /bin/true run directly (prof-run --shell=none, hyperfine -N): the
         time each tool measures per run (its fork, exec and wait: the
         overhead every run carries) and each tool's own wall time per
         run;
      2. sleep 0.01 and a CPU-bound program of about 50 ms (tests'
         run_child spin): the median of the invocations' medians, and of
         the ratios prof-run / hyperfine of the invocations made one after
         the other (the load drifts between invocations: the pairs see
         the same), and the coefficient of variation across the
         invocations (prof-run's median; hyperfine's median, and its mean,
         its headline);
      3. the gate: prof-run --threshold=3 on the 50 ms program against
         itself (A/A: how many invocations flag it) and against a copy
         doing 5% more work (how many catch it); full: with prof-run's own
         stop rule, then with --min-runs=100.
    The ratio column is the median of the paired ratios (for the CVs,
    their ratio).
    Usage: p-run            quick (what CI runs: 2 invocations, a few seconds)
           p-run full       10 invocations, 20 A/A and 10 A/B gates
    Without hyperfine in PATH, prof-run's figures only.
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "report.h"
#include "../src/tools/common/json.h"
#include "../src/tools/common/prof_spawn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#if !defined(PROF_RUN_PATH) || !defined(RUN_CHILD_PATH)
# error "built by profile/CMakeLists.txt, which gives the tools' paths"
#endif

enum { MAX_INV = 32 };

typedef struct
{
    int invocations, runs_true, runs_sleep, runs_cpu, aa, ab, rounds;
} sizes;

/* rounds 0: prof-run's own stop rule (10 runs and 3 s a command), then
   --min-runs=100. aa + ab <= 2 * MAX_INV. */
static const sizes quick = { 2, 50, 10, 6, 1, 1, 10 };
static const sizes full = { 10, 300, 30, 20, 20, 10, 0 };

static char json_path[64];
static int have_hyperfine;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* Run argv with its output dropped: its exit status (-1: not started);
   *wall_s its wall time. */
static int run(char ** argv, double * wall_s)
{
    prof_spawn_cmd cmd;
    prof_spawn_result r;
    memset(&cmd, 0, sizeof cmd);
    cmd.argv = argv;
    cmd.stdin_path = cmd.stdout_path = cmd.stderr_path = "/dev/null";
    if (prof_spawn_run(&cmd, &r) != 0 || r.end != PROF_SPAWN_EXITED)
        return -1;
    if (wall_s != NULL)
        *wall_s = r.wall_s;
    return r.status;
}

/* From the JSON export (the same field names for both tools): the first
   result's median and mean [s]. 0, or -1. */
static int read_export(double * median, double * mean)
{
    FILE * f = fopen(json_path, "rb");
    char text[1 << 16], err[128];
    size_t n = f != NULL ? fread(text, 1, sizeof text, f) : 0;
    prof_json * doc;
    const prof_json * res;
    int rc = -1;
    if (f != NULL)
        fclose(f);
    doc = n > 0 ? prof_impl_json_parse(text, n, err, sizeof err) : NULL;
    res = doc != NULL ? prof_impl_json_get(doc, "results") : NULL;
    if (res != NULL && res->count > 0)
    {
        *median = prof_impl_json_get(res->items[0], "median")->number;
        *mean = prof_impl_json_get(res->items[0], "mean")->number;
        rc = 0;
    }
    prof_impl_json_free(doc);
    remove(json_path);
    return rc;
}

/* One invocation of a tool (0: prof-run, 1: hyperfine) timing cmd runs
   times: median, mean [s] and the tool's wall time per run. 0, or -1. */
static int invoke(int tool, const char * cmd, int runs, double * median,
                  double * mean, double * per_run)
{
    char n[32], out[96], * ours[8], * theirs[10];
    double wall = 0.0;
    snprintf(n, sizeof n, "%d", runs);
    snprintf(out, sizeof out, "--export-json=%s", json_path);
    ours[0] = (char *) PROF_RUN_PATH; ours[1] = (char *) "--shell=none";
    ours[2] = (char *) "--runs"; ours[3] = n; ours[4] = out;
    ours[5] = (char *) "--progress=never"; ours[6] = (char *) cmd;
    ours[7] = NULL;
    theirs[0] = (char *) "hyperfine"; theirs[1] = (char *) "-N";
    theirs[2] = (char *) "--runs"; theirs[3] = n;
    theirs[4] = (char *) "--export-json"; theirs[5] = json_path;
    theirs[6] = (char *) "--style"; theirs[7] = (char *) "none";
    theirs[8] = (char *) cmd; theirs[9] = NULL;
    if (run(tool == 0 ? ours : theirs, &wall) != 0)
        return -1;
    *per_run = wall / runs;
    return read_export(median, mean);
}

typedef struct
{
    double median[2][MAX_INV], mean[2][MAX_INV], per_run[2][MAX_INV];
    int n;
} series;

/* k invocations of each tool on cmd, alternating which goes first. */
static void side_by_side(const char * cmd, int runs, int k, series * s)
{
    int i, t, tools = have_hyperfine ? 2 : 1;
    s->n = 0;
    for (i = 0; i < k; i++)
    {
        int ok = 1;
        for (t = 0; t < tools; t++)
        {
            int tool = (i + t) % tools;
            ok &= invoke(tool, cmd, runs, &s->median[tool][s->n],
                         &s->mean[tool][s->n], &s->per_run[tool][s->n]) == 0;
        }
        if (!ok)
        {
            printf("p-run: %s: an invocation failed\n", cmd);
            continue;
        }
        s->n++;
    }
}

static double med(const double * v, int n)
{
    double w[MAX_INV];
    memcpy(w, v, (size_t) n * sizeof *w);
    return prof_impl_median(w, n);
}

static double cv(const double * v, int n)
{
    prof_impl_moments m;
    prof_impl_sample_moments(v, n, &m);
    return m.mean > 0.0 ? m.sd / m.mean : NAN;
}

/* The median of the ratios a[i] / b[i] of the n pairs: each pair ran one
   after the other, under the same load. */
static double paired(const double * a, const double * b, int n)
{
    double r[MAX_INV];
    int i;
    for (i = 0; i < n; i++)
        r[i] = a[i] / b[i];
    return prof_impl_median(r, n);
}

/* A row: prof-run's figure, hyperfine's, and their ratio (given: the
   median of the paired ratios). */
static void row(const char * what, double ours, double theirs, double ratio,
                double scale, const char * unit)
{
    if (have_hyperfine)
        printf("| %s | %.4g %s | %.4g %s | %.4f |\n", what, ours * scale,
               unit, theirs * scale, unit, ratio);
    else
        printf("| %s | %.4g %s | | |\n", what, ours * scale, unit);
}

static void report_times(const char * label, const series * s)
{
    char what[160];
    if (s->n == 0)
        return;
    snprintf(what, sizeof what, "%s: median of %d medians", label, s->n);
    row(what, med(s->median[0], s->n), med(s->median[1], s->n),
        paired(s->median[0], s->median[1], s->n), 1e3, "ms");
    snprintf(what, sizeof what, "%s: CV of the %d medians", label, s->n);
    row(what, cv(s->median[0], s->n), cv(s->median[1], s->n),
        cv(s->median[0], s->n) / cv(s->median[1], s->n), 100.0, "%");
    if (have_hyperfine)
        printf("| %s: CV of hyperfine's %d means | | %.4g %% | |\n", label,
               s->n, 100.0 * cv(s->mean[1], s->n));
}

/* run_child spin N taking about 50 ms of processor time here. */
static double calibrate(void)
{
    char n[32], * argv[4];
    double best = INFINITY, wall = 0.0, steps = 2e7;
    int i;
    argv[0] = (char *) RUN_CHILD_PATH; argv[1] = (char *) "spin";
    argv[2] = n; argv[3] = NULL;
    snprintf(n, sizeof n, "%.0f", steps);
    for (i = 0; i < 5; i++)
        if (run(argv, &wall) == 0)
            best = fmin(best, wall);
    return isfinite(best) && best > 0.0 ? floor(steps * 0.05 / best) : steps;
}

/* prof-run --threshold=3 (and rule: its stop rule, or NULL: its own) on a
   against b, k times: how many flag it. The wall time of each invocation
   that ran goes to wall[*n], (*n)++; wall holds 2 * MAX_INV. */
static int gate(const char * a, const char * b, const char * rule, int k,
                double * wall, int * n)
{
    char * argv[8];
    int i, flagged = 0;
    argv[0] = (char *) PROF_RUN_PATH; argv[1] = (char *) "--shell=none";
    argv[2] = (char *) "--threshold=3"; argv[3] = (char *) "--progress=never";
    argv[4] = (char *) a; argv[5] = (char *) b;
    argv[6] = (char *) rule; argv[7] = NULL;
    for (i = 0; i < k && *n < 2 * MAX_INV; i++)
    {
        int rc = run(argv, &wall[*n]);
        flagged += rc == 1;
        *n += rc >= 0;
    }
    return flagged;
}

/* The gate's row: A/A and 5% more work, with the stop rule given, and the
   median wall time of one invocation (what a gate costs). */
static void gate_row(const char * cpu, const char * cpu5, const char * rule,
                     int aa, int ab)
{
    double wall[2 * MAX_INV];
    int n = 0, aa_flagged = gate(cpu, cpu, rule, aa, wall, &n);
    int ab_flagged = gate(cpu, cpu5, rule, ab, wall, &n);
    printf("gate, prof-run --threshold=3 %s on the ~50 ms program: A/A "
           "flagged %d of %d; 5%% more work caught %d of %d; %.1f s per "
           "invocation (median)\n", rule != NULL ? rule
           : "(its own stop rule)", aa_flagged, aa, ab_flagged, ab,
           n > 0 ? prof_impl_median(wall, n) : NAN);
}

int main(int argc, char ** argv)
{
    const sizes * z = argc > 1 && strcmp(argv[1], "full") == 0 ? &full : &quick;
    char cpu[300], cpu5[300], rule[48], * hv[3];
    double steps, t0 = now_s();
    prof_impl_sysinfo si;
    series s;
    snprintf(json_path, sizeof json_path, "/tmp/p-run.%ld.json", (long) getpid());
    hv[0] = (char *) "hyperfine"; hv[1] = (char *) "--version"; hv[2] = NULL;
    have_hyperfine = run(hv, NULL) == 0;
    printf("p-run: prof-run%s, %d invocations each, alternating which goes "
           "first (%s)\n\n| figure | prof-run | hyperfine | prof-run / hyperfine "
           "(median of the paired ratios) |\n"
           "|---|--:|--:|--:|\n", have_hyperfine ? " beside hyperfine"
           : " (hyperfine not found: its columns are empty)", z->invocations,
           z == &quick ? "quick; 'p-run full' for the full measurement"
           : "full");
    side_by_side("/bin/true", z->runs_true, z->invocations, &s);
    row("/bin/true (--shell=none, -N): median time per run", med(s.median[0],
        s.n), med(s.median[1], s.n), paired(s.median[0], s.median[1], s.n),
        1e3, "ms");
    row("/bin/true: the tool's own wall time per run", med(s.per_run[0], s.n),
        med(s.per_run[1], s.n), paired(s.per_run[0], s.per_run[1], s.n), 1e3,
        "ms");
    side_by_side("sleep 0.01", z->runs_sleep, z->invocations, &s);
    report_times("sleep 0.01", &s);
    steps = calibrate();
    snprintf(cpu, sizeof cpu, "%s spin %.0f", RUN_CHILD_PATH, steps);
    snprintf(cpu5, sizeof cpu5, "%s spin %.0f", RUN_CHILD_PATH, steps * 1.05);
    side_by_side(cpu, z->runs_cpu, z->invocations, &s);
    report_times("CPU-bound ~50 ms", &s);
    snprintf(rule, sizeof rule, "--runs=%d", z->rounds);
    putchar('\n');
    if (z->rounds > 0)
        gate_row(cpu, cpu5, rule, z->aa, z->ab);
    else
    {
        gate_row(cpu, cpu5, NULL, z->aa, z->ab);
        gate_row(cpu, cpu5, "--min-runs=100", z->aa, z->ab);
    }
    /* The machine and its load, so that the figures can be quoted with
       both: the load of this machine's other work moves every figure. */
    prof_impl_sysinfo_read(&si);
    printf("\n%s, %d cores; load average %.2f %.2f %.2f at the end; "
           "p-run took %.0f s\n", si.cpu, si.cores, si.load[0], si.load[1],
           si.load[2], now_s() - t0);
    return 0;
}
