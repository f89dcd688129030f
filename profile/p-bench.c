/* p-bench: the statistical runner on the reference kernels (kernels.c:
   empty function, chains of 10..10000 multiply-adds, sums of 2^10 and 2^20
   uint64_t). Prints per kernel the median, err%, the 95% interval and the
   wall time the runner spent, and the linearity chain 10000 / chain 1000.

     p-bench                 one after the other, default settings
     p-bench --suite         interleaved suite (prof_bench_add/run_all)
     p-bench --precise       the slower setting (see doc/runner.md)
     p-bench --stability[=R] runs itself R times (default 10) as separate
                             processes in each configuration and prints, per
                             kernel, the spread (CV) of the medians and how
                             often one run's interval contains a later run's
                             median (--configs='A|B|@prog', --load=N busy
                             processes beside)
     p-bench --schedules [--stability=R] [--load=N]
                             the fixed schedule against the adaptive one (and
                             nanobench: p-bench-nb), alternated, quiet then
                             beside N busy processes (default 2)
   Other --format/--out/--filter options go to prof_bench_args. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "kernels.h"

static double mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int opt_epochs = 0, opt_retries = -1;
static double opt_epoch_ms = 0.0;

static void precise(prof_bench * b)
{
    prof_bench_set_epochs(b, 31);
    prof_bench_set_min_epoch_time_ns(b, 3e6);
}

static void apply_options(prof_bench * b)
{
    if (opt_epochs > 0)
        prof_bench_set_epochs(b, opt_epochs);
    if (opt_epoch_ms > 0.0)
        prof_bench_set_min_epoch_time_ns(b, opt_epoch_ms * 1e6);
    if (opt_retries >= 0)
        prof_bench_set_preempt_retries(b, opt_retries);
}

/* One run of all kernels; machine: one parseable line per kernel. */
static int run(int argc, char ** argv, int suite, int is_precise, int machine)
{
    prof_bench * b = prof_bench_new();
    double wall_ms[NKERNELS];
    const prof_result * r[NKERNELS];
    int i;

    /* the runner's flags; p-bench's own (--suite, ...) stay in argv */
    if (b == NULL || prof_bench_init(b, &argc, argv) != 0)
        return 2;
    {
        /* once per process, not per benchmark: the tick rate (a 1 ms
           measurement) */
        double t0 = mono_ns();
        (void) prof_tick_rate();
        if (!machine)
            printf("setup (tick rate, once per process): %.2f ms\n",
                   (mono_ns() - t0) * 1e-6);
    }
    if (machine)
        prof_bench_set_format(b, PROF_FORMAT_NONE);
    if (is_precise)
        precise(b);
    apply_options(b);
    if (suite)
    {
        double t0 = mono_ns();
        prof_bench_set_interleave(b, 1);
        for (i = 0; i < NKERNELS; i++)
            prof_bench_add(b, kernels[i].name, kernel_target(&kernels[i]),
                           (void *) &kernels[i]);
        prof_bench_run_all(b);
        for (i = 0; i < NKERNELS; i++)
        {
            r[i] = prof_bench_result(b, i);
            wall_ms[i] = (mono_ns() - t0) * 1e-6 / NKERNELS;
        }
    }
    else
        for (i = 0; i < NKERNELS; i++)
        {
            double t0 = mono_ns();
            r[i] = prof_bench_run(b, kernels[i].name,
                                  kernel_target(&kernels[i]),
                                  (void *) &kernels[i]);
            wall_ms[i] = (mono_ns() - t0) * 1e-6;
        }
    if (machine)
    {
        for (i = 0; i < NKERNELS; i++)
            if (r[i] != NULL)
                printf("%d %.6g %.6g %.6g %.4g %.4g %.6g %.6g\n", i,
                       r[i]->median_ns, r[i]->ci_low_ns, r[i]->ci_high_ns,
                       wall_ms[i], r[i]->err_pct,
                       prof_result_percentile(r[i], 10), r[i]->min_ns);
    }
    else
    {
        printf("\n| %-12s | %12s | %6s | %25s | %8s |\n", "kernel",
               "median ns", "err%", "95% interval ns", "wall ms");
        printf("|:-------------|-------------:|-------:|"
               "--------------------------:|---------:|\n");
        for (i = 0; i < NKERNELS; i++)
            if (r[i] != NULL)
            {
                char ci[64];
                sprintf(ci, "[%.4g, %.4g]", r[i]->ci_low_ns, r[i]->ci_high_ns);
                printf("| %-12s | %12.4g | %5.1f%% | %25s | %8.2f |\n",
                       r[i]->name, r[i]->median_ns, r[i]->err_pct, ci,
                       wall_ms[i]);
            }
        if (r[3] && r[4])
            printf("\nlinearity: chain 10000 / chain 1000 = %.4f by the "
                   "medians, %.4f by the minima (target 10 within 1%%)\n",
                   r[4]->median_ns / r[3]->median_ns,
                   r[4]->min_ns / r[3]->min_ns);
        if (suite)
            printf("(--suite: wall ms is the suite's wall time / %d)\n",
                   NKERNELS);
    }
    prof_bench_free(b);
    return 0;
}

/* Coefficient of variation of column k over n runs. */
static double cv_of(double (*x)[NKERNELS], int n, int k)
{
    double mean = 0.0, var = 0.0;
    int i;
    for (i = 0; i < n; i++)
        mean += x[i][k];
    mean /= n;
    for (i = 0; i < n; i++)
        var += (x[i][k] - mean) * (x[i][k] - mean);
    return n > 1 && mean > 0.0 ? sqrt(var / (n - 1)) / mean : 0.0;
}

/* --stability: run this program R times per configuration, alternating
   configurations run by run so that all see the same machine phases.
   configs: '|'-separated option sets (default: default, --suite,
   --precise, --suite --precise); one that starts with @ names another
   program beside this one that prints the same lines (@p-bench-nb:
   nanobench). --schedules: the fixed schedule against the adaptive one
   (and nanobench where p-bench-nb was built), quiet then beside
   --load=N busy processes (default 2). */
enum { MAXRUNS = 64, MAXCONF = 8 };
static double med[MAXCONF][MAXRUNS][NKERNELS], lo[MAXCONF][MAXRUNS][NKERNELS],
    hi[MAXCONF][MAXRUNS][NKERNELS], wall[MAXCONF][MAXRUNS][NKERNELS],
    p10[MAXCONF][MAXRUNS][NKERNELS], mn[MAXCONF][MAXRUNS][NKERNELS],
    proc_ms[MAXCONF][MAXRUNS];

/* The command of configuration conf: this program with its options, or
   (@name args) the program name in this one's folder. */
static void command_of(char * cmd, size_t size, const char * self,
        const char * conf)
{
    if (conf[0] == '@')
    {
        const char * slash = strrchr(self, '/');
        int dir = slash ? (int) (slash - self + 1) : 0;
        snprintf(cmd, size, "'%.*s%s'", dir, self, conf + 1);
    }
    else
        snprintf(cmd, size, "'%s' --machine %s", self, conf);
}

/* One process of configuration c as run n: 1 if it gave every kernel. */
static int collect(const char * self, const char * conf, int c, int n)
{
    FILE * p;
    char line[256], cmd[1024];
    int got = 0;
    double t0 = mono_ns();
    command_of(cmd, sizeof cmd, self, conf);
    p = popen(cmd, "r");
    if (p == NULL)
        return 0;
    while (fgets(line, sizeof line, p) != NULL)
    {
        int idx;
        double m, l, h, w, e, q, z;
        if (sscanf(line, "%d %lf %lf %lf %lf %lf %lf %lf", &idx, &m,
                   &l, &h, &w, &e, &q, &z) == 8
            && idx >= 0 && idx < NKERNELS)
        {
            med[c][n][idx] = m; lo[c][n][idx] = l; hi[c][n][idx] = h;
            wall[c][n][idx] = w; p10[c][n][idx] = q; mn[c][n][idx] = z;
            got++;
        }
    }
    proc_ms[c][n] = (mono_ns() - t0) * 1e-6 / NKERNELS;
    return pclose(p) == 0 && got == NKERNELS;
}

/* The median of x[0..n) (a copy sorted). */
static double median_of(const double * x, int n)
{
    double v[MAXRUNS];
    memcpy(v, x, (size_t) n * sizeof *v);
    return kernels_median(v, n);
}

/* The table of configuration c over its n runs. */
static void report(const char * conf, int c, int n)
{
    double cv_sum = 0.0, cv_p10 = 0.0, cv_min = 0.0, wall_sum = 0.0;
    int inside_all = 0, pairs_all = 0, i, j, k;
    printf("\nconfiguration: %s (%d runs)\n", conf[0] ? conf : "(default)", n);
    if (n < 2)
        return;
    printf("| %-12s | %14s | %7s | %10s | %8s | %7s | %7s |\n", "kernel",
           "median of runs", "CV", "cover", "wall ms", "CV p10", "CV min");
    printf("|:-------------|---------------:|--------:|-----------:|"
           "---------:|--------:|--------:|\n");
    for (k = 0; k < NKERNELS; k++)
    {
        double m[MAXRUNS], w[MAXRUNS];
        int pairs = 0, inside = 0;
        for (i = 0; i < n; i++)
        {
            m[i] = med[c][i][k];
            w[i] = wall[c][i][k];
            for (j = i + 1; j < n; j++)
            {
                pairs++;
                inside += lo[c][i][k] <= med[c][j][k]
                       && med[c][j][k] <= hi[c][i][k];
            }
        }
        printf("| %-12s | %14.4g | %6.1f%% | %4d/%-5d | %8.2f | %6.1f%% | "
               "%6.1f%% |\n", kernels[k].name, median_of(m, n),
               100.0 * cv_of(med[c], n, k), inside, pairs, median_of(w, n),
               100.0 * cv_of(p10[c], n, k), 100.0 * cv_of(mn[c], n, k));
        cv_sum += cv_of(med[c], n, k);
        cv_p10 += cv_of(p10[c], n, k);
        cv_min += cv_of(mn[c], n, k);
        wall_sum += median_of(w, n);
        inside_all += inside;
        pairs_all += pairs;
    }
    {
        /* the ratio of two kernels measured in the same process: what a
           relative comparison relies on */
        double mean = 0.0, var = 0.0, x;
        for (i = 0; i < n; i++)
            mean += med[c][i][4] / med[c][i][3];
        mean /= n;
        for (i = 0; i < n; i++)
        {
            x = med[c][i][4] / med[c][i][3] - mean;
            var += x * x;
        }
        printf("linearity chain 10000 / chain 1000: mean %.4f, CV %.2f%%\n",
               mean, 100.0 * sqrt(var / (n - 1)) / mean);
    }
    printf("mean over kernels: CV %.1f%% (p10 %.1f%%, min %.1f%%), "
           "cover %.0f%%, wall %.2f ms in process (medians), %.2f ms per "
           "benchmark of the whole process (median)\n",
           100.0 * cv_sum / NKERNELS, 100.0 * cv_p10 / NKERNELS,
           100.0 * cv_min / NKERNELS, 100.0 * inside_all / pairs_all,
           wall_sum / NKERNELS, median_of(proc_ms[c], n));
}

static void print_load(const char * when)
{
    char line[128] = "unknown";
    FILE * f = fopen("/proc/loadavg", "r");
    if (f != NULL)
    {
        if (fgets(line, sizeof line, f) == NULL)
            strcpy(line, "unknown\n");
        fclose(f);
    }
    printf("load %s: %s", when, line);
}

static int stability(const char * self, int runs, const char * configs_arg,
        int load)
{
    char configs[MAXCONF][256], buf[1024];
    int nconf = 0, c, i, nruns[MAXCONF] = { 0 };
    char * p = buf;
    if (runs > MAXRUNS)
        runs = MAXRUNS;
    if (configs_arg == NULL)
        configs_arg = "|--suite|--precise|--suite --precise";
    snprintf(buf, sizeof buf, "%s", configs_arg);
    for (;;)
    {
        char * bar = strchr(p, '|');
        if (bar) *bar = '\0';
        if (nconf < MAXCONF && strlen(p) < sizeof configs[0])
            memcpy(configs[nconf++], p, strlen(p) + 1);
        if (!bar) break;
        p = bar + 1;
    }
    printf("\nstability over %d separate processes per configuration, "
           "configurations alternating, beside %d busy processes:\nCV = "
           "stddev/mean of the medians (p10, min: of those figures instead); "
           "cover = share of pairs (run i, later run j) where run i's "
           "interval contains run j's median; wall = ms per benchmark "
           "(median)\n", runs, load);
    print_load("before");
    if (load > 0)
        kernels_load_start(load, 900);
    for (i = 0; i < runs; i++)
        for (c = 0; c < nconf; c++)
            nruns[c] += collect(self, configs[c], c, nruns[c]);
    if (load > 0)
        kernels_load_stop();
    print_load("after");
    for (c = 0; c < nconf; c++)
        report(configs[c], c, nruns[c]);
    return 0;
}

/* --schedules: old (fixed) and new (adaptive), nanobench where built,
   quiet and loaded. */
static int schedules(const char * self, int runs, int load)
{
    char nb[1024], configs[1200];
    FILE * f;
    command_of(nb, sizeof nb, self, "@p-bench-nb");
    nb[strlen(nb) - 1] = '\0';
    f = fopen(nb + 1, "r");
    snprintf(configs, sizeof configs, "--schedule=fixed|--schedule=adaptive%s",
             f ? "|@p-bench-nb" : "");
    if (f)
        fclose(f);
    else
        printf("p-bench-nb not built (cmake -DPROFILER_NANOBENCH_DIR=): "
               "no nanobench beside\n");
    return stability(self, runs, configs, 0) | stability(self, runs, configs,
                                                         load);
}

int main(int argc, char ** argv)
{
    int i, suite = 0, is_precise = 0, machine = 0, runs = 0, load = 0;
    int by_schedule = 0;
    const char * configs_arg = NULL;
    if (kernels_init() != 0)
        return 1;
    for (i = 1; i < argc; i++)
    {
        if (strcmp(argv[i], "--suite") == 0) suite = 1;
        else if (strcmp(argv[i], "--precise") == 0) is_precise = 1;
        else if (strcmp(argv[i], "--machine") == 0) machine = 1;
        else if (strncmp(argv[i], "--epochs=", 9) == 0)
            opt_epochs = atoi(argv[i] + 9);
        else if (strncmp(argv[i], "--retries=", 10) == 0)
            opt_retries = atoi(argv[i] + 10);
        else if (strncmp(argv[i], "--epoch-ms=", 11) == 0)
            opt_epoch_ms = atof(argv[i] + 11);
        else if (strncmp(argv[i], "--configs=", 10) == 0)
            configs_arg = argv[i] + 10;
        else if (strncmp(argv[i], "--load=", 7) == 0)
            load = atoi(argv[i] + 7);
        else if (strcmp(argv[i], "--schedules") == 0) by_schedule = 1;
        else if (strcmp(argv[i], "--stability") == 0) runs = 10;
        else if (strncmp(argv[i], "--stability=", 12) == 0)
            runs = atoi(argv[i] + 12);
    }
    if (by_schedule)
        return schedules(argv[0], runs > 0 ? runs : 10, load > 0 ? load : 2);
    if (runs > 0)
        return stability(argv[0], runs, configs_arg, load);
    return run(argc, argv, suite, is_precise, machine);
}
