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
                             median, for pairs of runs within 1% of each
                             other and further apart (--configs='A|B|@prog',
                             --load=N busy processes beside)
     p-bench --schedules [--stability=R] [--load=N] [--rounds=K]
                             the fixed schedule against the adaptive one,
                             also with epochs of at least 250 us (and
                             nanobench: p-bench-nb), alternated, quiet then
                             beside N busy processes (default 2); K rounds
                             of that print each figure's median and range
     p-bench --phases[=S]    the machine's speed each ms for S seconds (5):
                             the speeds it ran at, how long it held one
   Other --format/--out/--filter options go to prof_bench_args. Its runs
   keep no history (PROFILER_HISTORY=off unless set): the intervals and
   cover it prints are each process's own; p-coverage measures the
   next-run interval. */
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

/* One configuration's figures over its runs, means over the kernels:
   the CV of the medians, the cover (of all pairs, of those whose medians
   lie within 1% of each other, of those further apart), the wall per
   benchmark in the process and of the whole process, and the linearity's
   CV [%, ms]. */
enum { F_CV, F_COVER, F_NEAR, F_FAR, F_WALL, F_PROC, F_LIN, NFIG };
static const char * const fig_names[NFIG] = { "median CV %", "cover %",
    "cover <1% apart", "cover >=1% apart", "wall ms", "process ms",
    "linearity CV %" };

/* The table of configuration c over its n runs (printed unless quiet), its
   figures in fig[NFIG] (NaN with under 2 runs). */
static void report(const char * conf, int c, int n, int quiet, double * fig)
{
    double cv_sum = 0.0, cv_p10 = 0.0, cv_min = 0.0, wall_sum = 0.0;
    int inside_all = 0, pairs_all = 0, i, j, k;
    /* the pairs whose medians lie within 1% of each other (one speed of
       the machine) and those further apart, and how many of each the
       earlier run's interval held */
    int near_pairs = 0, near_in = 0, far_pairs = 0, far_in = 0;
    int has_interval = 0;
    FILE * out = quiet ? NULL : stdout;
    for (k = 0; k < NFIG; k++)
        fig[k] = NAN;
    if (out)
        printf("\nconfiguration: %s (%d runs)\n", conf[0] ? conf
                                                          : "(default)", n);
    if (n < 2)
        return;
    if (out)
    {
        printf("| %-12s | %14s | %7s | %10s | %8s | %7s | %7s |\n", "kernel",
               "median of runs", "CV", "cover", "wall ms", "CV p10",
               "CV min");
        printf("|:-------------|---------------:|--------:|-----------:|"
               "---------:|--------:|--------:|\n");
    }
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
                int in = lo[c][i][k] <= med[c][j][k]
                      && med[c][j][k] <= hi[c][i][k];
                int near = fabs(med[c][j][k] / med[c][i][k] - 1.0) < 0.01;
                pairs++;
                has_interval |= lo[c][i][k] < hi[c][i][k];
                inside += in;
                near_pairs += near;
                near_in += near && in;
                far_pairs += !near;
                far_in += !near && in;
            }
        }
        if (out)
            printf("| %-12s | %14.4g | %6.1f%% | %4d/%-5d | %8.2f | "
                   "%6.1f%% | %6.1f%% |\n", kernels[k].name, median_of(m, n),
                   100.0 * cv_of(med[c], n, k), inside, pairs,
                   median_of(w, n), 100.0 * cv_of(p10[c], n, k),
                   100.0 * cv_of(mn[c], n, k));
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
        fig[F_LIN] = 100.0 * sqrt(var / (n - 1)) / mean;
        if (out)
            printf("linearity chain 10000 / chain 1000: mean %.4f, CV "
                   "%.2f%%\n", mean, fig[F_LIN]);
    }
    fig[F_CV] = 100.0 * cv_sum / NKERNELS;
    fig[F_COVER] = 100.0 * inside_all / pairs_all;
    fig[F_NEAR] = near_pairs ? 100.0 * near_in / near_pairs : NAN;
    fig[F_FAR] = far_pairs ? 100.0 * far_in / far_pairs : NAN;
    fig[F_WALL] = wall_sum / NKERNELS;
    fig[F_PROC] = median_of(proc_ms[c], n);
    if (!has_interval)  /* a tool that gives none (nanobench) */
        fig[F_COVER] = fig[F_NEAR] = fig[F_FAR] = NAN;
    if (out)
    {
        char cover[16] = "n/a";
        if (has_interval)
            snprintf(cover, sizeof cover, "%.0f%%", fig[F_COVER]);
        printf("mean over kernels: CV %.1f%% (p10 %.1f%%, min %.1f%%), "
               "cover %s, wall %.2f ms in process (medians), %.2f ms per "
               "benchmark of the whole process (median)\n", fig[F_CV],
               100.0 * cv_p10 / NKERNELS, 100.0 * cv_min / NKERNELS, cover,
               fig[F_WALL], fig[F_PROC]);
        if (has_interval)
            printf("cover by distance: pairs whose medians are within 1%%: "
                   "%d/%d held; further apart: %d/%d held\n", near_in,
                   near_pairs, far_in, far_pairs);
    }
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

/* Runs every configuration of the '|'-separated list, alternating, runs
   times each, beside load busy processes; prints their tables unless
   quiet. Returns the configurations, their figures in fig[c][NFIG] and
   their names in names (MAXCONF x 256). */
static int stability(const char * self, int runs, const char * configs_arg,
        int load, int quiet, double (*fig)[NFIG], char (*configs)[256])
{
    char buf[1024];
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
    if (!quiet)
    {
        printf("\nstability over %d separate processes per configuration, "
               "configurations alternating, beside %d busy processes:\nCV = "
               "stddev/mean of the medians (p10, min: of those figures "
               "instead); cover = share of pairs (run i, later run j) where "
               "run i's interval contains run j's median; wall = ms per "
               "benchmark (median)\n", runs, load);
        print_load("before");
    }
    if (load > 0)
        kernels_load_start(load, 900);
    for (i = 0; i < runs; i++)
        for (c = 0; c < nconf; c++)
            nruns[c] += collect(self, configs[c], c, nruns[c]);
    if (load > 0)
        kernels_load_stop();
    if (!quiet)
        print_load("after");
    for (c = 0; c < nconf; c++)
        report(configs[c], c, nruns[c], quiet, fig[c]);
    return nconf;
}

/* A configuration's name in the rounds' lines and table: without the
   "--schedule=" every one of them starts with, or the @ of a program. */
static const char * short_name(const char * conf)
{
    static const char prefix[] = "--schedule=";
    if (conf[0] == '@')
        return conf + 1;
    return strncmp(conf, prefix, sizeof prefix - 1) == 0
         ? conf + sizeof prefix - 1 : conf;
}

/* --schedules: old (fixed) and new (adaptive), nanobench where built,
   quiet and loaded. With rounds > 1 the comparison runs that many times,
   quiet then loaded in each round, and prints each figure's median over
   the rounds with its range: one round's figures follow the machine's
   phase of the moment. */
enum { MAXROUNDS = 32 };
static int schedules(const char * self, int runs, int load, int rounds)
{
    static double fig[2][MAXROUNDS][MAXCONF][NFIG];
    char nb[1024], configs[1200], names[MAXCONF][256];
    FILE * f;
    int nconf = 0, r, q, c, k;
    command_of(nb, sizeof nb, self, "@p-bench-nb");
    nb[strlen(nb) - 1] = '\0';
    f = fopen(nb + 1, "r");
    /* and the adaptive one with epochs of at least 250 us: spread over a
       few milliseconds, do its epochs see more of the machine's speeds? */
    snprintf(configs, sizeof configs, "--schedule=fixed|--schedule=adaptive"
             "|--schedule=adaptive --min-epoch-time=250us%s",
             f ? "|@p-bench-nb" : "");
    if (f)
        fclose(f);
    else
        printf("p-bench-nb not built (cmake -DPROFILER_NANOBENCH_DIR=): "
               "no nanobench beside\n");
    if (rounds > MAXROUNDS)
        rounds = MAXROUNDS;
    if (rounds <= 1)
    {
        int quiet_confs = stability(self, runs, configs, 0, 0, fig[0][0],
                                    names);
        int loaded_confs = stability(self, runs, configs, load, 0, fig[1][0],
                                     names);
        return quiet_confs == 0 || loaded_confs == 0;
    }
    printf("%d rounds, each: %d processes per configuration alternating, "
           "quiet, then beside %d busy processes\n", rounds, runs, load);
    print_load("before");
    for (r = 0; r < rounds; r++)
        for (q = 0; q < 2; q++)
        {
            nconf = stability(self, runs, configs, q ? load : 0, 1,
                              fig[q][r], names);
            printf("round %d %s:", r + 1, q ? "loaded" : "quiet ");
            for (c = 0; c < nconf; c++)
                printf(" %s cover %.0f%% (%.0f%% <1%% apart, %.0f%% "
                       "further) CV %.1f%% wall %.2f ms;",
                       short_name(names[c]),
                       fig[q][r][c][F_COVER], fig[q][r][c][F_NEAR],
                       fig[q][r][c][F_FAR], fig[q][r][c][F_CV],
                       fig[q][r][c][F_WALL]);
            printf("\n");
            fflush(stdout);
        }
    print_load("after");
    printf("\nmedians over %d rounds [min, max]; CV and cover: means over "
           "the kernels; wall and process: ms per benchmark\n", rounds);
    printf("| %-38s |", "configuration");
    for (k = 0; k < NFIG; k++)
        printf(" %20s |", fig_names[k]);
    printf("\n|:---------------------------------------|");
    for (k = 0; k < NFIG; k++)
        printf("---------------------:|");
    printf("\n");
    for (q = 0; q < 2; q++)
        for (c = 0; c < nconf; c++)
        {
            char label[64];     /* the table's column holds 38 */
            snprintf(label, sizeof label, "%.48s%s", short_name(names[c]),
                     q ? ", +busy" : "");
            printf("| %-38s |", label);
            for (k = 0; k < NFIG; k++)
            {
                double v[MAXROUNDS], lo_v = HUGE_VAL, hi_v = -HUGE_VAL, x;
                char cell[64];
                int n = 0;
                for (r = 0; r < rounds; r++)
                    if (!isnan(x = fig[q][r][c][k]))
                    {
                        v[n++] = x;
                        lo_v = x < lo_v ? x : lo_v;
                        hi_v = x > hi_v ? x : hi_v;
                    }
                if (n == 0)
                    snprintf(cell, sizeof cell, "n/a");
                else
                    snprintf(cell, sizeof cell, "%.3g [%.3g, %.3g]",
                             kernels_median(v, n), lo_v, hi_v);
                printf(" %20s |", cell);
            }
            printf("\n");
        }
    return 0;
}

/* --phases[=S]: the machine's speed over S seconds (default 5): every
   millisecond, the fastest of 20 calls of chain 1000 (about 1 us each),
   against the fastest sample of all. Prints the speeds it ran at (1%
   bins of the median of 5 samples in a row, those with 2% of the time or
   more) and how long it stayed at one before it moved to another: the
   time scale a run must span to see them. */
enum { PH_WINDOW = 5, PH_BINS = 64 };
static volatile uint64_t phase_sink;     /* the chains' result, kept */
static int phases(double seconds)
{
    int n = seconds >= 0.1 && seconds <= 3600.0 ? (int) (seconds * 1000.0)
          : 0, i, k, nruns = 0, bin_of[PH_BINS];
    double * t = (double *) malloc((size_t) n * sizeof *t);
    double * sm = (double *) malloc((size_t) n * sizeof *sm);
    double * runs = (double *) malloc((size_t) n * sizeof *runs);
    double * at = (double *) malloc((size_t) n * sizeof *at);
    double best = HUGE_VAL, t_start = mono_ns();
    uint64_t x = 1;
    if (n == 0)
    {
        free(t); free(sm); free(runs); free(at);
        fprintf(stderr, "p-bench: --phases=%g: 0.1 to 3600 seconds\n",
                seconds);
        return 2;
    }
    if (t == NULL || sm == NULL || runs == NULL || at == NULL)
    {
        free(t); free(sm); free(runs); free(at);
        fprintf(stderr, "p-bench: --phases: out of memory\n");
        return 1;
    }
    for (i = 0; i < n; i++)
    {
        double fastest = HUGE_VAL, until = mono_ns() + 1e6;
        for (k = 0; k < 20; k++)
        {
            double a = get_cycle_counter(), b;
            x = kernel_chain(x, 1000);
            b = get_cycle_counter();
            if (b - a < fastest)
                fastest = b - a;
        }
        t[i] = fastest;
        at[i] = (mono_ns() - t_start) * 1e-6;
        best = fastest < best ? fastest : best;
        while (mono_ns() < until)   /* busy, as a benchmark keeps it */
            x = kernel_chain(x, 100);
    }
    /* each sample: the median of the window ending at it, in % over the
       fastest, binned by 1% */
    for (i = 0; i + PH_WINDOW <= n; i++)
    {
        double w[PH_WINDOW];
        for (k = 0; k < PH_WINDOW; k++)
            w[k] = t[i + k];
        sm[i] = 100.0 * (kernels_median(w, PH_WINDOW) / best - 1.0);
    }
    n -= PH_WINDOW - 1;
    memset(bin_of, 0, sizeof bin_of);
    for (i = 0; i < n; i++)
    {
        int b = (int) (sm[i] + 0.5);
        bin_of[b < PH_BINS ? b : PH_BINS - 1]++;
    }
    printf("the machine's speed over %.1f s: chain 1000's fastest of 20 "
           "calls each ms (%.0f ticks at the fastest; the last bin holds "
           "all slower)\n", seconds, best);
    printf("| slower than the fastest | share of the time |\n|--:|--:|\n");
    for (k = 0; k < PH_BINS; k++)
        if (bin_of[k] * 50 >= n)
            printf("| %s%d%% | %.1f%% |\n", k == PH_BINS - 1 ? ">= " : "", k,
                   100.0 * bin_of[k] / n);
    /* holds: a speed (a bin) held until two samples in a row lie more
       than a point outside its bin; the last hold ends with the samples */
    {
        int start = 0, b0 = (int) (sm[0] + 0.5), changes;
        double total = 0.0, half = 0.0, held;
        for (i = 1; i + 1 < n; i++)
            if (fabs(sm[i] - b0) > 1.5 && fabs(sm[i + 1] - b0) > 1.5)
            {
                runs[nruns++] = at[i] - at[start];
                start = i;
                b0 = (int) (sm[i] + 0.5);
            }
        changes = nruns;
        runs[nruns++] = at[n - 1] - at[start];
        for (i = 0; i < nruns; i++)
            total += runs[i];
        held = kernels_median(runs, nruns);     /* and sorts them */
        /* by time: half of it went in holds of at least runs[i + 1] */
        for (i = nruns - 1; i >= 0 && half < total / 2.0; i--)
            half += runs[i];
        printf("changes of speed: %d in %.1f s; a speed held for %.0f ms "
               "(median), half the time in holds of %.0f ms or more, %.0f ms "
               "at the longest\n", changes, total * 1e-3, held, runs[i + 1],
               runs[nruns - 1]);
    }
    free(t); free(sm); free(runs); free(at);
    phase_sink = x;
    return 0;
}

int main(int argc, char ** argv)
{
    int i, suite = 0, is_precise = 0, machine = 0, runs = 0, load = 0;
    int by_schedule = 0, rounds = 1;
    const char * configs_arg = NULL;
    if (kernels_init() != 0)
        return 1;
    /* the schedules' own spread and cover: its runs learn nothing from
       one another (p-coverage measures the next-run interval) */
    setenv("PROFILER_HISTORY", "off", 0);
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
        else if (strcmp(argv[i], "--phases") == 0)
            return phases(5.0);
        else if (strncmp(argv[i], "--phases=", 9) == 0)
            return phases(atof(argv[i] + 9));
        else if (strncmp(argv[i], "--rounds=", 9) == 0)
            rounds = atoi(argv[i] + 9);
        else if (strcmp(argv[i], "--stability") == 0) runs = 10;
        else if (strncmp(argv[i], "--stability=", 12) == 0)
            runs = atoi(argv[i] + 12);
    }
    if (by_schedule)
        return schedules(argv[0], runs > 0 ? runs : 10, load > 0 ? load : 2,
                         rounds);
    if (runs > 0)
    {
        static double fig[MAXCONF][NFIG];
        static char names[MAXCONF][256];
        return stability(argv[0], runs, configs_arg, load, 0, fig,
                         names) == 0;
    }
    return run(argc, argv, suite, is_precise, machine);
}
