/* p-bench: the statistical runner on the reference kernels (kernels.c:
   empty function, chains of 10..10000 multiply-adds, sums of 2^10 and 2^20
   uint64_t). Prints per kernel the median, err%, the 95% interval and the
   wall time the runner spent, and the linearity chain 10000 / chain 1000.

     p-bench                 one after the other, default settings
     p-bench --suite         interleaved suite (prof_bench_add/run_all)
     p-bench --precise       the slower setting (see README)
     p-bench --stability[=R] runs itself R times (default 10) as separate
                             processes in each configuration and prints, per
                             kernel, the spread (CV) of the medians and how
                             often one run's interval contains a later run's
                             median
   Other --format/--out/--filter options go to prof_bench_args. */
#define _POSIX_C_SOURCE 200809L
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

static void precise(prof_bench * b)
{
    prof_bench_set_epochs(b, 31);
    prof_bench_set_min_epoch_time_ns(b, 3e6);
}

/* One run of all kernels; machine: one parseable line per kernel. */
static int run(int argc, char ** argv, int suite, int is_precise, int machine)
{
    prof_bench * b = prof_bench_new();
    double wall_ms[NKERNELS];
    const prof_result * r[NKERNELS];
    int i;

    if (b == NULL || prof_bench_args(b, argc, argv) != 0)
        return 2;
    if (machine)
        prof_bench_set_format(b, PROF_FORMAT_NONE);
    if (is_precise)
        precise(b);
    if (suite)
    {
        double t0 = mono_ns();
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
            printf("\nlinearity: chain 10000 / chain 1000 = %.4f (target 10 "
                   "within 1%%)\n", r[4]->median_ns / r[3]->median_ns);
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

/* --stability: run this program R times per configuration. */
static int stability(const char * self, int runs)
{
    static const char * configs[] = { "", "--suite", "--precise",
                                      "--suite --precise" };
    int c;
    printf("stability over %d separate processes per configuration:\n"
           "CV = stddev/mean of the %d medians; cover = share of pairs "
           "(run i, later run j) where run i's interval contains run j's "
           "median; wall = ms per benchmark (mean)\n", runs, runs);
    for (c = 0; c < 4; c++)
    {
        double med[64][NKERNELS], lo[64][NKERNELS], hi[64][NKERNELS];
        double wall[64][NKERNELS], p10[64][NKERNELS], mn[64][NKERNELS];
        int got[64] = { 0 }, i, k, nruns = 0;
        double cv_sum = 0.0, cv_p10 = 0.0, cv_min = 0.0;
        char cmd[1024];
        for (i = 0; i < runs && i < 64; i++)
        {
            FILE * p;
            char line[256];
            snprintf(cmd, sizeof cmd, "'%s' --machine %s", self, configs[c]);
            p = popen(cmd, "r");
            if (p == NULL)
                return 1;
            while (fgets(line, sizeof line, p) != NULL)
            {
                int idx;
                double m, l, h, w, e, q, z;
                if (sscanf(line, "%d %lf %lf %lf %lf %lf %lf %lf", &idx, &m,
                           &l, &h, &w, &e, &q, &z) == 8
                    && idx >= 0 && idx < NKERNELS)
                {
                    p10[nruns][idx] = q;
                    mn[nruns][idx] = z;
                    med[nruns][idx] = m;
                    lo[nruns][idx] = l;
                    hi[nruns][idx] = h;
                    wall[nruns][idx] = w;
                    got[nruns]++;
                }
            }
            if (pclose(p) == 0 && got[nruns] == NKERNELS)
                nruns++;
        }
        printf("\nconfiguration: p-bench %s (%d runs)\n",
               configs[c][0] ? configs[c] : "(default)", nruns);
        printf("| %-12s | %12s | %7s | %10s | %8s | %7s | %7s |\n", "kernel",
               "median of runs", "CV", "cover", "wall ms", "CV p10",
               "CV min");
        printf("|:-------------|-------------:|--------:|-----------:|"
               "---------:|--------:|--------:|\n");
        for (k = 0; k < NKERNELS; k++)
        {
            double mean = 0.0, var = 0.0, w = 0.0, sorted[64];
            int pairs = 0, inside = 0, j;
            for (i = 0; i < nruns; i++)
            {
                mean += med[i][k];
                w += wall[i][k];
                sorted[i] = med[i][k];
            }
            if (nruns == 0)
                break;
            mean /= nruns;
            w /= nruns;
            for (i = 0; i < nruns; i++)
                var += (med[i][k] - mean) * (med[i][k] - mean);
            var = nruns > 1 ? var / (nruns - 1) : 0.0;
            for (i = 0; i < nruns; i++)
                for (j = i + 1; j < nruns; j++)
                {
                    pairs++;
                    inside += lo[i][k] <= med[j][k] && med[j][k] <= hi[i][k];
                }
            /* median of the medians */
            for (i = 1; i < nruns; i++)
            {
                double x = sorted[i];
                j = i - 1;
                while (j >= 0 && sorted[j] > x) { sorted[j + 1] = sorted[j]; j--; }
                sorted[j + 1] = x;
            }
            cv_sum += sqrt(var) / mean;
            printf("| %-12s | %14.4g | %6.1f%% | %4d/%-5d | %8.2f | %6.1f%% | "
                   "%6.1f%% |\n", kernels[k].name, sorted[nruns / 2],
                   100.0 * sqrt(var) / mean, inside, pairs, w,
                   100.0 * cv_of(p10, nruns, k), 100.0 * cv_of(mn, nruns, k));
            cv_p10 += cv_of(p10, nruns, k);
            cv_min += cv_of(mn, nruns, k);
        }
        if (nruns > 0)
            printf("mean CV over kernels: median %.1f%%, p10 %.1f%%, min "
                   "%.1f%%\n", 100.0 * cv_sum / NKERNELS,
                   100.0 * cv_p10 / NKERNELS, 100.0 * cv_min / NKERNELS);
    }
    return 0;
}

int main(int argc, char ** argv)
{
    int i, suite = 0, is_precise = 0, machine = 0, runs = 0;
    if (kernels_init() != 0)
        return 1;
    for (i = 1; i < argc; i++)
    {
        if (strcmp(argv[i], "--suite") == 0) suite = 1;
        else if (strcmp(argv[i], "--precise") == 0) is_precise = 1;
        else if (strcmp(argv[i], "--machine") == 0) machine = 1;
        else if (strcmp(argv[i], "--stability") == 0) runs = 10;
        else if (strncmp(argv[i], "--stability=", 12) == 0)
            runs = atoi(argv[i] + 12);
    }
    if (runs > 0)
        return stability(argv[0], runs);
    return run(argc, argv, suite, is_precise, machine);
}
