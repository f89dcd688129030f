/*
    p-compare-scale: how prof-compare scales with the size of its input
    (issue 14, item 22). Targets: 100,000 benchmark names compared in at
    most 2 s; a peak resident set of at most 3 times the input for a file
    of about 100 MB; a bootstrap interval whose time does not grow with the
    number of samples.
      1. prof-compare on two files of N names, one sample each (the
         command, timed with its peak RSS: median of RUNS runs);
      2. prof-compare on two files of about MB megabytes each (B benchmarks
         of R repetitions, Google Benchmark's layout);
      3. the bootstrap interval of one benchmark for n = 10 .. 10^6 samples
         a side, in process, beside the classic resampling bootstrap it
         replaced (2000 resamples, n draws and a median each) where that
         one finishes in reasonable time;
      4. B benchmarks (1000) of 10,000 samples a side, compared in process
         (U test and interval), the case that took over 5 minutes before.
    Usage: p-compare-scale [N (100000)] [MB (100)] [RUNS (3)] [B (1000)]
    ("1000 1 1 20" is CI's quick run)
    SPDX-License-Identifier: MIT
*/
#include "internal.h"
#include "../src/tools/compare/compare.h"
#include "../src/tools/common/prof_spawn.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp_double(const void * a, const void * b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static double median_of(double * v, int n)
{
    qsort(v, (size_t) n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* N names of one sample each. */
static void write_names(const char * path, int n, double scale)
{
    FILE * f = fopen(path, "w");
    int i;
    fputs("{\"benchmarks\": [\n", f);
    for (i = 0; i < n; i++)
        fprintf(f, "{\"name\": \"bench/%d\", \"real_time\": %.3f, "
                "\"time_unit\": \"ns\"}%s\n", i, scale * (100 + i % 17),
                i + 1 < n ? "," : "");
    fputs("]}\n", f);
    fclose(f);
}

/* B benchmarks of R repetitions each, as Google Benchmark writes them. */
static void write_reps(const char * path, int b, int r, double scale)
{
    FILE * f = fopen(path, "w");
    int i, k;
    fputs("{\"context\": {}, \"benchmarks\": [\n", f);
    for (i = 0; i < b; i++)
        for (k = 0; k < r; k++)
            fprintf(f, "{\"name\": \"bench/%d\", \"run_name\": \"bench/%d\", "
                    "\"run_type\": \"iteration\", \"repetitions\": %d, "
                    "\"repetition_index\": %d, \"threads\": 1, \"iterations\": "
                    "1000, \"real_time\": %.4f, \"cpu_time\": %.4f, "
                    "\"time_unit\": \"ns\"}%s\n", i, i, r, k,
                    scale * (100 + (k * 7919 % 97) * 0.1),
                    scale * (100 + (k * 7919 % 97) * 0.1),
                    i + 1 < b || k + 1 < r ? "," : "");
    fputs("]}\n", f);
    fclose(f);
}

static double file_mb(const char * path)
{
    struct stat st;
    return stat(path, &st) == 0 ? st.st_size / 1048576.0 : NAN;
}

/* prof-compare old new, RUNS times: medians of wall time and peak RSS. */
static int run_tool(const char * old, const char * new_, int runs,
                    double * wall, double * rss_mb)
{
    char a0[] = PROF_COMPARE_PATH, * argv[4];
    double w[16], m[16];
    int i;
    argv[0] = a0;
    argv[1] = (char *) old;
    argv[2] = (char *) new_;
    argv[3] = NULL;
    for (i = 0; i < runs && i < 16; i++)
    {
        prof_spawn_cmd cmd;
        prof_spawn_result r;
        memset(&cmd, 0, sizeof cmd);
        cmd.argv = argv;
        cmd.stdout_path = "/dev/null";
        if (prof_spawn_run(&cmd, &r) != 0 || r.end != PROF_SPAWN_EXITED
            || r.status > 1)
        {
            char what[128];
            prof_spawn_describe(&r, what, sizeof what);
            printf("prof-compare failed: %s\n", what);
            return -1;
        }
        w[i] = r.wall_s;
        m[i] = r.max_rss_kb / 1024.0;
    }
    *wall = median_of(w, i);
    *rss_mb = median_of(m, i);
    return 0;
}

/* The bootstrap this project had before: 2000 resamples of n draws. */
static double classic_interval(const double * x, int n, const double * y,
                               int m)
{
    unsigned long long s = 0x9E3779B97F4A7C15ULL;
    double * a = (double *) malloc((size_t) n * sizeof *a);
    double * b = (double *) malloc((size_t) m * sizeof *b), lo = 0;
    int r, i;
    for (r = 0; r < 2000; r++)
    {
        for (i = 0; i < n; i++)
        {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            a[i] = x[s % (unsigned) n];
        }
        for (i = 0; i < m; i++)
        {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17;
            b[i] = y[s % (unsigned) m];
        }
        lo += prof_impl_median(b, m) / prof_impl_median(a, n);
    }
    free(a);
    free(b);
    return lo;
}

static void fill(double * v, int n, double base, unsigned seed)
{
    int i;
    srand(seed);
    for (i = 0; i < n; i++)
        v[i] = base * (1.0 + 0.02 * rand() / RAND_MAX);
}

static void bootstrap_table(void)
{
    static const int sizes[] = { 10, 100, 1000, 10000, 100000, 1000000 };
    int k;
    printf("\n3. bootstrap interval of one benchmark, n samples a side "
           "(median of 5 calls)\n");
    printf("| n | now | classic resampling | classic / now |\n|--:|--:|--:|--:|\n");
    for (k = 0; k < 6; k++)
    {
        int n = sizes[k], rep;
        double * x = (double *) malloc((size_t) n * sizeof *x);
        double * y = (double *) malloc((size_t) n * sizeof *y);
        double t[5], c[5], lo, hi, tn, tc = NAN;
        prof_series a, b;
        fill(x, n, 100.0, 1);
        fill(y, n, 105.0, 2);
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        a.samples_ns = x; a.count = n;
        b.samples_ns = y; b.count = n;
        for (rep = 0; rep < 5; rep++)
        {
            double t0 = now_s();
            prof_impl_change_interval(&a, &b, 0.95, &lo, &hi);
            t[rep] = now_s() - t0;
            if (n <= 1000)
            {
                t0 = now_s();
                classic_interval(x, n, y, n);
                c[rep] = now_s() - t0;
            }
        }
        tn = median_of(t, 5);
        if (n <= 1000)
            tc = median_of(c, 5);
        printf("| %d | %.3g ms | ", n, 1e3 * tn);
        if (n <= 1000)
            printf("%.3g ms | %.0fx |\n", 1e3 * tc, tc / tn);
        else
            printf("(not run: %s) | |\n", n <= 10000 ? "seconds" : "minutes");
        free(x);
        free(y);
    }
}

static void benchmarks_by_ten_thousand(int nb)
{
    enum { N = 10000 };
    double * x = (double *) malloc((size_t) N * sizeof *x);
    double * y = (double *) malloc((size_t) N * sizeof *y), t0, t;
    prof_series a, b;
    prof_verdict v;
    int i;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.samples_ns = x; a.count = N;
    b.samples_ns = y; b.count = N;
    t0 = now_s();
    for (i = 0; i < nb; i++)
    {
        fill(x, N, 100.0, 2 * i + 1);
        fill(y, N, 101.0, 2 * i + 2);
        a.median_ns = 101.0;
        b.median_ns = 102.0;
        prof_impl_compare(&a, &b, 0.05, 0.02, &v);
    }
    t = now_s() - t0;
    printf("\n4. %d benchmarks x %d samples a side, compared in process (U "
           "test + interval, samples made on the way): %.2f s (before: over "
           "5 minutes for 1000)\n", nb, N, t);
    free(x);
    free(y);
}

int main(int argc, char ** argv)
{
    int n = argc > 1 ? atoi(argv[1]) : 100000;
    double mb = argc > 2 ? atof(argv[2]) : 100.0;
    int runs = argc > 3 ? atoi(argv[3]) : 3, reps = 1000;
    int nb = argc > 4 ? atoi(argv[4]) : 1000;
    char dir[] = "/tmp/p-compare-scale.XXXXXX", old[64], new_[64];
    double wall, rss, size;
    int b;

    if (n < 1 || !(mb > 0.0) || runs < 1 || runs > 16 || nb < 1
        || mkdtemp(dir) == NULL)
    {
        fprintf(stderr, "usage: p-compare-scale [N] [MB] [RUNS (1..16)] [B]\n");
        return 2;
    }
    snprintf(old, sizeof old, "%s/old.json", dir);
    snprintf(new_, sizeof new_, "%s/new.json", dir);
    printf("p-compare-scale: prof-compare %s, medians of %d runs\n\n",
           PROF_COMPARE_PATH, runs);

    write_names(old, n, 1.0);
    write_names(new_, n, 1.01);
    size = file_mb(old);
    if (run_tool(old, new_, runs, &wall, &rss) == 0)
        printf("1. %d names, one sample each (%.1f MB a file): %.2f s "
               "(target <= 2 s), peak RSS %.0f MB\n", n, size, wall, rss);

    /* about 250 bytes an entry */
    b = (int) ceil(mb * 1048576.0 / 250.0 / reps);
    write_reps(old, b, reps, 1.0);
    write_reps(new_, b, reps, 1.01);
    size = file_mb(old);
    if (run_tool(old, new_, runs, &wall, &rss) == 0)
        printf("2. %d benchmarks x %d repetitions (%.0f MB a file): %.2f s, "
               "peak RSS %.0f MB = %.2f x one file (target <= 3)\n", b, reps,
               size, wall, rss, rss / size);
    remove(old);
    remove(new_);
    rmdir(dir);

    bootstrap_table();
    benchmarks_by_ten_thousand(nb);
    return 0;
}
